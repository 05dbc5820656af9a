import Foundation
import Synchronization

/// The `listen` section's load client: `Benchmarks/listen/listen_latency.py` in the bench
/// venv (grpcio aio and google-cloud-firestore's protobuf types), run once per server and
/// stream count, killed when it outlives its time bound.
struct ListenLoadClient: Sendable {
    /// The venv's Python.
    let python: String
    /// `Benchmarks/listen/listen_latency.py`.
    let script: String

    /// Samples per run (commits, each timed to its snapshot).
    static let samples = 200

    /// Runs the client against `host` with `streams` Listen streams.
    /// - Parameters:
    ///   - host: `127.0.0.1:<port>` of the server's gRPC port.
    ///   - pid: the server process whose `/proc` figures to read, if known.
    ///   - statsURL: Hearth's `GET /emulator/v1/stats`, nil for other servers.
    ///   - openTimeout: bound on opening every stream; the whole run is bounded by this plus
    ///     the sample budget plus 40 s.
    /// - Throws: `BenchError.childFailed` when the client fails, times out or prints no JSON.
    func run(
        host: String, streams: Int, label: String, pid: pid_t?, statsURL: String?, openTimeout: Duration,
        sampleBudget: Duration = .seconds(20)
    ) async throws(BenchError) -> ListenRun {
        var arguments = [
            script, "--host", host, "--streams", String(streams), "--samples", String(Self.samples), "--label", label,
            "--open-timeout", String(Int(openTimeout.seconds)), "--sample-budget", String(Int(sampleBudget.seconds)),
        ]
        if let pid { arguments += ["--pid", String(pid)] }
        if let statsURL { arguments += ["--stats-url", statsURL] }
        let limit = openTimeout + sampleBudget + .seconds(40)
        let output = try await Self.runBounded(python, arguments, timeout: limit)
        guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix("{") }),
            let run = try? JSONDecoder().decode(ListenRun.self, from: Data(line.utf8))
        else {
            throw .childFailed("listen_latency.py printed no result: \(output.suffix(300))")
        }
        return run
    }

    /// Runs `executable` and returns its stdout (stderr goes to the benchmark's stderr, as
    /// progress); SIGKILLs it after `timeout`.
    /// - Throws: `BenchError.childFailed` when it cannot start, exits non-zero or times out.
    static func runBounded(_ executable: String, _ arguments: [String], timeout: Duration) async throws(BenchError) -> String {
        let outcome: Result<String, BenchError> = await withCheckedContinuation { continuation in
            // A plain thread: `waitUntilExit` blocks (see Tools.run).
            Thread.detachNewThread {
                continuation.resume(returning: runBlocking(executable, arguments, timeout: timeout))
            }
        }
        return try outcome.get()
    }

    private static func runBlocking(_ executable: String, _ arguments: [String], timeout: Duration) -> Result<String, BenchError> {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.standardError
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return .failure(.childFailed("cannot start \(executable): \(error)"))
        }
        let pid = process.processIdentifier
        // Foundation gave the client a process group of its own: Ctrl-C on the benchmark kills it too.
        let ownGroup = getpgid(pid) == pid
        if ownGroup { ChildRegistry.register(pid) }
        defer { if ownGroup { ChildRegistry.unregister(pid) } }
        let finished = Mutex(false)
        let timedOut = Mutex(false)
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout.seconds) {
            finished.withLock { done in
                guard !done else { return }
                timedOut.withLock { $0 = true }
                kill(pid, SIGKILL)
            }
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        finished.withLock { $0 = true }
        let text = String(decoding: data, as: UTF8.self)
        let name = URL(fileURLWithPath: arguments.first ?? executable).lastPathComponent
        if timedOut.withLock({ $0 }) {
            return .failure(.childFailed("\(name) killed after \(Int(timeout.seconds)) s"))
        }
        guard process.terminationStatus == 0 else {
            let status = process.terminationStatus
            return .failure(.childFailed("\(name) exited with status \(status): \(text.suffix(300))"))
        }
        return .success(text)
    }
}
