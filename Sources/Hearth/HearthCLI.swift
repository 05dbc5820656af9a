import FoundationEssentials
import Glibc
import HTTPServer

/// Command-line entry points of `hearth`.
///
/// Subcommands: `start` (serve the emulators on a `firebase/` directory), `rules test <dir>`
/// (run declarative rules suites in-process), `help`.
public enum HearthCLI {
    /// Blocks SIGINT, SIGTERM and SIGHUP in the calling thread and ignores SIGPIPE: the first
    /// statement of the executable's top-level code, which runs on the main thread before any
    /// other thread exists (every later thread inherits the mask). A stop signal then stays
    /// pending until `main` has started the signal thread (`SignalWaiter`), so none is lost.
    /// (`main` itself is nonisolated and runs on a pool thread: blocking there leaves the main
    /// thread open, and the kernel delivers a process signal to it.)
    public static func blockStopSignals() {
        SignalWaiter.blockStopSignals()
    }

    /// Runs the command line and exits the process with its status. Call `blockStopSignals()`
    /// on the main thread first.
    public static func main(_ arguments: [String]) async {
        SignalWaiter.blockStopSignals()
        let args = Array(arguments.dropFirst())
        SignalWaiter.install(args.first == "start" || (args.first == "demo" && args.contains("--keep")) ? .stop : .terminate)
        let status: Int32
        do {
            // `hearth <command> --help` prints the usage, as `hearth help` does.
            if args.count > 1, args.dropFirst().contains(where: { $0 == "--help" || $0 == "-h" }), !args.contains("--") {
                print(usage)
                exit(0)
            }
            switch args.first {
            case "start":
                status = try await startCommand(Array(args.dropFirst()))
            case "rules":
                status = try rulesCommand(Array(args.dropFirst()))
            case "exec":
                status = try await ExecCommand.run(Array(args.dropFirst()))
            case "export":
                status = try ExportCommand.run(Array(args.dropFirst()))
            case "demo":
                status = try await DemoCommand.run(Array(args.dropFirst()))
            case "indexes":
                status = try await IndexesCommand.run(Array(args.dropFirst()))
            case nil, "help", "--help", "-h":
                print(usage)
                status = args.isEmpty ? 2 : 0
            default:
                HearthLog.error("hearth: unknown command \"\(args[0])\"\n\n\(usage)")
                status = 2
            }
        } catch let e as HTTPServerError {
            if case .addressInUse = e {
                HearthLog.error(
                    "hearth: \(e.description): choose another with --firestore-port, --functions-port, --auth-port, --hub-port or --ui-port")
            } else {
                HearthLog.error("hearth: \(e.description)")
            }
            status = 1
        } catch let e as ConfigError {
            HearthLog.error("hearth: \(e.description)")
            status = 2
        } catch {
            HearthLog.error("hearth: \(error)")
            status = 1
        }
        exit(status)
    }

    static let usage = """
        usage: hearth <command> [options]

          start [--project ID] [--config firebase.json] [--data FILE | --in-memory] [--host HOST]
                [--firestore-port N] [--functions-port N] [--auth-port N] [--ui-port N]
              Serve Firestore (REST, gRPC, Listen), Functions, Auth and the Emulator UI on the ports of
              firebase.json (the UI unless emulators.ui.enabled is false).
              Data persists in .hearth/firestore.sqlite beside firebase.json unless --data or --in-memory.
              [--import DIR] [--export-on-exit [DIR]] [--hub-port N]: load / save an export folder
              (the Firebase CLI's, as firebase emulators:export writes it; --import also reads Hearth's own).
              [--version-retention 1h]: how far back read_time reads reach (s, m, h, d; default 1h;
              0 keeps no versions). [--quiet]: no line per request (denials are still logged).
              [--require-indexes]: refuse, as production does, queries lacking an index (FAILED_PRECONDITION
              with the console link); also emulators.firestore.requireIndexes in firebase.json. Off: run
              them and warn once per missing index.
          exec [start options] -- COMMAND [ARG…]
              Start the emulators (in memory unless --data), run COMMAND with FIRESTORE_EMULATOR_HOST,
              FIREBASE_AUTH_EMULATOR_HOST, FIREBASE_EMULATOR_HUB, GCLOUD_PROJECT set; exit with its status.
          export DIR [--format firebase|hearth] [--config firebase.json] [--data FILE] [--project ID] [--database ID]
              Write the data file's documents and Auth accounts to DIR: the Firebase CLI's folder (default),
              or Hearth's own format (keeps document times, several projects and databases).
          demo [--config firebase.json] [--keep]   Play the app's traffic on in-memory emulators; report.
          indexes list|suggest|check [--config firebase.json] [--project ID] [--emulator HOST:PORT] [--out FILE]
              list: the app's firestore.indexes.json and what a running Hearth holds. suggest: that file
              merged with the indexes the queries since start lacked (stdout or --out). check: exit 1 when
              a query since start lacked an index (CI). The server: --emulator, FIRESTORE_EMULATOR_HOST,
              else firebase.json's Firestore address.
          rules test DIR
              Run the rules test suites in DIR in-process; non-zero exit on any failure.
        """

    static func startCommand(_ args: [String]) async throws -> Int32 {
        let options = try StartOptions.parse(args)
        let app = try HearthApp(options: options)
        try await app.start()
        // Returns at once when a signal came during start-up: what started is stopped.
        await SignalWaiter.waitForTermination()
        HearthLog.info("hearth: shutting down")
        await app.stop()
        HearthLog.info("hearth: stopped")
        return 0
    }
}
