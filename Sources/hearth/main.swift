import Hearth

await HearthCLI.main(CommandLine.arguments)
