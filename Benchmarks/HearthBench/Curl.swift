import Foundation

/// One large request through `curl`, which streams the answer to `/dev/null`: for answers of
/// hundreds of megabytes (a 200,000-document RunQuery) that the benchmark must not hold itself.
enum Curl {
    /// What `curl -w` reported.
    struct Outcome: Sendable {
        /// The HTTP status.
        var status: Int
        /// Bytes of body received.
        var bytes: Int
        /// From connecting until the last byte.
        var time: Duration
    }

    /// POSTs `body` (JSON, `Authorization: Bearer owner`) to `url`; the answer is discarded.
    /// - Throws: `BenchError.missingTool` without curl; `.childFailed` when curl fails;
    ///   `.badResponse` for a status other than 200.
    static func post(_ url: String, json body: String, scratch: URL, timeout: Duration = .seconds(900)) async throws(BenchError) -> Outcome {
        guard let curl = Tools.find("curl") else { throw .missingTool("curl not installed") }
        let file = scratch.appendingPathComponent("curl-\(UUID().uuidString).json")
        do {
            try Data(body.utf8).write(to: file)
        } catch {
            throw .childFailed("cannot write \(file.lastPathComponent): \(error)")
        }
        defer { try? FileManager.default.removeItem(at: file) }
        let output = try await Tools.run(
            curl,
            [
                "-s", "-o", "/dev/null", "--max-time", String(Int(timeout.seconds)), "-w", "%{http_code} %{size_download} %{time_total}",
                "-H", "Authorization: Bearer owner", "-H", "Content-Type: application/json", "--data-binary", "@" + file.path, url,
            ])
        let words = output.split(separator: " ")
        guard words.count == 3, let status = Int(words[0]), let bytes = Int(words[1]), let seconds = Double(words[2]) else {
            throw .childFailed("cannot read curl's output: \(output.suffix(200))")
        }
        guard status == 200 else { throw .badResponse("POST \(url): HTTP \(status)") }
        return Outcome(status: status, bytes: bytes, time: .milliseconds(Int64(seconds * 1000)))
    }
}
