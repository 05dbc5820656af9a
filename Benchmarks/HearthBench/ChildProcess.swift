import Foundation

/// A server started as a child process in its own process group, stopped by signalling the
/// whole group (so a launcher script's grandchildren — the emulator's JVM — go with it).
///
/// Foundation's `Process` puts every child in a new process group whose id is the child's pid;
/// `init` checks that, so `stop()` never signals the benchmark's own group.
final class ChildProcess: @unchecked Sendable {
    // @unchecked Sendable: `process` is only touched by the task that created the child and by
    // `stop()`, which that same task calls; `outputFile` is immutable.

    /// What the report calls it (`nginx`, `official emulator`).
    let name: String
    private let process: Process
    /// Where stdout and stderr go (read back when the child fails).
    let outputFile: URL

    /// Starts `executable` with `arguments`; its output goes to `outputFile`.
    /// - Throws: `BenchError.childFailed` when it cannot be started or did not get its own group.
    init(name: String, executable: String, arguments: [String], outputFile: URL, environment: [String: String]? = nil) throws(BenchError) {
        self.name = name
        self.outputFile = outputFile
        process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        do {
            let handle = try FileHandle(forWritingTo: outputFile)
            process.standardOutput = handle
            process.standardError = handle
            process.standardInput = FileHandle.nullDevice
            try process.run()
        } catch {
            throw .childFailed("\(name): cannot start \(executable): \(error)")
        }
        let pid = process.processIdentifier
        if getpgid(pid) != pid {
            process.terminate()
            throw .childFailed("\(name): the child did not get its own process group; not starting it")
        }
        ChildRegistry.register(pid)
    }

    /// True while the child has not exited.
    var isRunning: Bool { process.isRunning }

    /// The last `bytes` of the child's output.
    func outputTail(_ bytes: Int = 600) -> String {
        guard let data = FileManager.default.contents(atPath: outputFile.path) else { return "" }
        return String(decoding: data.suffix(bytes), as: UTF8.self)
    }

    /// Polls `probe` every 100 ms until it returns true, the child exits, or `timeout` passes.
    /// - Throws: `BenchError.childFailed` with the output tail on exit or timeout.
    func waitUntilReady(timeout: Duration, probe: @Sendable () async -> Bool) async throws(BenchError) {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if await probe() { return }
            if !process.isRunning {
                throw .childFailed("\(name) exited with status \(process.terminationStatus): \(outputTail())")
            }
            try? await Task.sleep(for: .milliseconds(100))
        }
        throw .childFailed("\(name) not ready after \(Int(timeout.seconds)) s: \(outputTail())")
    }

    /// Sends SIGTERM to the child's process group, waits up to `grace` for the child to exit,
    /// then sends SIGKILL to the group.
    func stop(grace: Duration = .seconds(5)) async {
        let group = process.processIdentifier
        guard group > 0 else { return }
        kill(-group, SIGTERM)
        let deadline = ContinuousClock.now + grace
        while process.isRunning, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(50))
        }
        // The launcher may have exited before its children: sweep the group either way.
        kill(-group, SIGKILL)
        if process.isRunning { process.waitUntilExit() }
        ChildRegistry.unregister(group)
    }
}
