import Foundation

/// One server the `listen` and `memory` sections load: Hearth as `hearth start` in a child
/// process (`--in-memory`, or on a scratch SQLite file), the official emulator, or the grpcio
/// relay baseline — with the process whose resident set is read (Hearth itself, the emulator's
/// JVM, the relay's Python).
final class ListenServer: Sendable {
    /// The child to stop (Hearth, the relay), nil for the emulator.
    private let child: ChildProcess?
    /// The emulator to stop, nil otherwise.
    private let emulator: OfficialEmulator?
    /// `127.0.0.1:<port>`: where gRPC is served.
    let host: String
    /// The process whose `/proc/<pid>/status` holds the server's memory, if found.
    let pid: pid_t?
    /// Hearth's `GET /emulator/v1/stats` (open listen sessions), nil for the others.
    let statsURL: String?
    /// From launch until the server answered.
    let startup: Duration

    /// `http://127.0.0.1:<port>`: REST on the same port.
    var baseURL: String { "http://" + host }

    private init(child: ChildProcess?, emulator: OfficialEmulator?, host: String, pid: pid_t?, statsURL: String?, startup: Duration) {
        self.child = child
        self.emulator = emulator
        self.host = host
        self.pid = pid
        self.statsURL = statsURL
        self.startup = startup
    }

    /// Starts `.build/release/hearth start --in-memory` (or `--data dataFile`, SQLite with
    /// `synchronous=FULL` as `hearth start` runs by default) with a `firebase.json` of `{}` (open
    /// rules) in `directory`, every emulator port ephemeral, and waits until `GET /` answers `Ok`.
    /// - Throws: `BenchError.missingTool` without a release build; `.childFailed` when it does not come up.
    static func hearth(directory: URL, dataFile: String? = nil) async throws(BenchError) -> ListenServer {
        let binary = PackageRoot.path(".build/release/hearth")
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw .missingTool("not built (swift build -c release --product hearth)")
        }
        let dir = directory.appendingPathComponent("listen-hearth-\(UUID().uuidString.prefix(8))")
        let config = dir.appendingPathComponent("firebase.json")
        do {
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            try Data("{}".utf8).write(to: config)
        } catch {
            throw .childFailed("Hearth: cannot write \(config.path): \(error)")
        }
        let port = try LoopbackPort.free()
        var arguments = ["start", "--config", config.path]
        arguments += dataFile.map { ["--data", $0] } ?? ["--in-memory"]
        arguments += ["--project", "bench", "--quiet", "--firestore-port", String(port)]
        // The other emulators default to fixed ports (5001, 9099, 4400) that may be taken.
        for flag in ["--functions-port", "--auth-port", "--hub-port"] { arguments += [flag, String(try LoopbackPort.free())] }
        let began = ContinuousClock.now
        let child = try ChildProcess(
            name: "Hearth", executable: binary, arguments: arguments, outputFile: dir.appendingPathComponent("hearth.log"))
        let base = "http://127.0.0.1:\(port)"
        do {
            try await child.waitUntilReady(timeout: .seconds(30)) {
                guard let r = try? await SimpleHTTP.send("GET", base + "/", timeout: .seconds(1)) else { return false }
                return r.status == 200 && r.text.hasPrefix("Ok")
            }
        } catch {
            await child.stop()
            throw error
        }
        return ListenServer(
            child: child, emulator: nil, host: "127.0.0.1:\(port)", pid: ProcessTable.find(argumentContaining: config.path),
            statsURL: base + "/emulator/v1/stats", startup: ContinuousClock.now - began)
    }

    /// Starts `Benchmarks/listen/listen_relay.py` with `python` and waits until it prints `ready`.
    /// - Throws: `BenchError.childFailed` when it does not come up within 30 s.
    static func relay(python: String, directory: URL) async throws(BenchError) -> ListenServer {
        let script = PackageRoot.path("Benchmarks/listen/listen_relay.py")
        let port = try LoopbackPort.free()
        let began = ContinuousClock.now
        let child = try ChildProcess(
            name: "gRPC relay", executable: python, arguments: [script, "--port", String(port)],
            outputFile: directory.appendingPathComponent("listen-relay-\(port).log"))
        do {
            try await child.waitUntilReady(timeout: .seconds(30)) { child.outputTail().contains("ready") }
        } catch {
            await child.stop()
            throw error
        }
        let pid = ProcessTable.allPIDs().first { pid in
            guard let args = ProcessTable.arguments(pid) else { return false }
            return args.contains(script) && args.contains(String(port))
        }
        return ListenServer(
            child: child, emulator: nil, host: "127.0.0.1:\(port)", pid: pid, statsURL: nil, startup: ContinuousClock.now - began)
    }

    /// Starts the official emulator (`OfficialEmulator`) and finds its JVM: the `java`
    /// process in the process group of the `gcloud` launcher serving this port.
    /// - Throws: what `OfficialEmulator.init` throws.
    static func emulator(directory: URL) async throws(BenchError) -> ListenServer {
        let e = try await OfficialEmulator(directory: directory)
        let host = String(e.baseURL.dropFirst("http://".count))
        let launcher = ProcessTable.find(argumentContaining: "--host-port=\(host)")
        let jvm = launcher.flatMap(ProcessTable.processGroup).flatMap { ProcessTable.find(named: "java", inGroup: $0) }
        return ListenServer(child: nil, emulator: e, host: host, pid: jvm, statsURL: nil, startup: e.startup)
    }

    /// The last `bytes` of the server's output (Hearth's log, the emulator's launcher and JVM).
    func outputTail(_ bytes: Int) -> String {
        child?.outputTail(bytes) ?? emulator?.child.outputTail(bytes) ?? ""
    }

    /// Stops the server (its whole process group).
    func stop() async {
        await child?.stop()
        await emulator?.stop()
    }
}
