import Hearth

HearthCLI.blockStopSignals()
await HearthCLI.main(CommandLine.arguments)
