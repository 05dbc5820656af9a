import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One-off HTTP/1.1 requests for set-up (seeding, fetching the bytes nginx will serve,
/// readiness probes); never used for timing — `wrk` does that.
enum SimpleHTTP {
    /// One response.
    struct Response: Sendable {
        /// The status code.
        var status: Int
        /// The body bytes.
        var body: Data
        /// The body as UTF-8 text.
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// Sends one request with `Authorization: Bearer owner` (admin on Hearth and the emulator).
    /// - Throws: `BenchError.badResponse` when the server cannot be reached.
    static func send(_ method: String, _ url: String, json: String? = nil, timeout: Duration = .seconds(60)) async throws(BenchError)
        -> Response
    {
        guard let u = URL(string: url) else { throw .badResponse("bad URL \(url)") }
        var request = URLRequest(url: u, timeoutInterval: timeout.seconds)
        request.httpMethod = method
        request.setValue("Bearer owner", forHTTPHeaderField: "Authorization")
        if let json {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(json.utf8)
        }
        do {
            let (data, response) = try await URLSession.shared.data(for: request)
            return Response(status: (response as? HTTPURLResponse)?.statusCode ?? 0, body: data)
        } catch {
            throw .badResponse("\(method) \(url): \(error.localizedDescription)")
        }
    }

    /// Like `send`, but any status other than 200 is an error carrying the body.
    /// - Throws: `BenchError.badResponse`.
    static func expectOK(_ method: String, _ url: String, json: String? = nil) async throws(BenchError) -> Response {
        let r = try await send(method, url, json: json)
        guard r.status == 200 else { throw .badResponse("\(method) \(url): HTTP \(r.status): \(r.text.prefix(300))") }
        return r
    }

    /// True when `GET url` answers 200 within a second.
    static func answers(_ url: String) async -> Bool {
        (try? await send("GET", url, timeout: .seconds(1)).status) == 200
    }
}
