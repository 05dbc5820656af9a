import Foundation

/// Runs the `curl` command-line tool (for HTTP/2 prior-knowledge tests); `nil` if curl is missing.
enum Curl {
    /// The first `curl` on `PATH`.
    static let path: String? = (ProcessInfo.processInfo.environment["PATH"] ?? "")
        .split(separator: ":")
        .map { "\($0)/curl" }
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    static var supportsHTTP2: Bool {
        guard path != nil, let version = try? run(["-V"]) else { return false }
        return version.stdout.contains("HTTP2")
    }

    struct Output: Sendable {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs curl with `arguments` (plus a 10 s `--max-time`) and collects its output.
    static func run(_ arguments: [String], stdin: [UInt8]? = nil) throws -> Output {
        guard let path else { throw CocoaError(.fileNoSuchFile) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["--max-time", "10"] + arguments
        let out = Pipe()
        let err = Pipe()
        let input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin)) }
        try input.fileHandleForWriting.close()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }
}
