import Foundation

/// Finding and running the external tools the baselines need (wrk, nginx, gcloud, python).
enum Tools {
    /// The first executable named `name` on `PATH` (then `/usr/sbin`, `/usr/local/bin`).
    static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":").map(String.init) + ["/usr/sbin", "/usr/local/bin"] {
            let candidate = dir + "/" + name
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Runs `executable` to completion and returns its stdout and stderr together.
    ///
    /// The wait happens on a detached thread-pool thread (`waitUntilExit` blocks), so the
    /// in-process Hearth keeps its cooperative threads while `wrk` hammers it.
    /// - Throws: `BenchError.childFailed` when it cannot start or exits non-zero.
    static func run(_ executable: String, _ arguments: [String]) async throws(BenchError) -> String {
        let outcome: Result<String, BenchError> = await withCheckedContinuation { continuation in
            // A plain thread, not a Task: `waitUntilExit` blocks, and blocking a cooperative
            // thread would take one of Hearth's two worker threads away during the measurement.
            Thread.detachNewThread {
                continuation.resume(returning: runBlocking(executable, arguments))
            }
        }
        return try outcome.get()
    }

    private static func runBlocking(_ executable: String, _ arguments: [String]) -> Result<String, BenchError> {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return .failure(.childFailed("cannot start \(executable): \(error)"))
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else {
            let name = URL(fileURLWithPath: executable).lastPathComponent
            return .failure(.childFailed("\(name) exited with status \(process.terminationStatus): \(text.suffix(400))"))
        }
        return .success(text)
    }
}
