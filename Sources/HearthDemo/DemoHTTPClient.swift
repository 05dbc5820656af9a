import FoundationEssentials
import GoogleWire
import HTTPServer

/// The HTTP client of `hearth demo`: one JSON request per connection to a port on `host`,
/// over a socket of its own — a client outside the emulators' code paths, as the app's SDKs are.
///
/// Every request says `Connection: close`, so no idle keep-alive connection is left for
/// the server to wait on when it stops.
struct DemoHTTPClient: Sendable {
    /// The address the emulators listen on (a loopback address).
    let host: String

    /// One answer: status, body, and the body parsed as JSON (`.null` when it is not JSON).
    struct Reply: Sendable {
        /// HTTP status code.
        var status: Int
        /// Raw body.
        var body: [UInt8]
        /// The body as JSON, `.null` when it does not parse.
        var json: JSONValue { (try? JSONValue.parse(body)) ?? .null }
        /// The body as text.
        var text: String { String(decoding: body, as: UTF8.self) }
        /// `error.status` of a Firestore or callable error body (`RESOURCE_EXHAUSTED`).
        var errorStatus: String? { DemoFields.string(json["error"]?["status"]) }
        /// `error.message` of an error body.
        var errorMessage: String? { DemoFields.string(json["error"]?["message"]) }
    }

    /// Sends `method` to `http://host:port` + `path` with an optional JSON body and bearer.
    /// - Parameters:
    ///   - path: absolute path with query, already percent-encoded.
    ///   - bearer: sent as `Authorization: Bearer …` when not nil (`owner`, an ID token).
    /// - Throws: `DemoError` when the URL is malformed or the connection fails.
    func send(_ method: String, port: Int, _ path: String, json: JSONValue? = nil, bearer: String? = nil)
        async throws -> Reply
    {
        var headers: [(String, String)] = []
        if json != nil { headers.append(("Content-Type", "application/json")) }
        if let bearer { headers.append(("Authorization", "Bearer \(bearer)")) }
        do {
            let response = try await LoopbackHTTPClient(host: host, port: port, timeoutSeconds: 60)
                .send(method, path, headers: headers, body: json?.serialized())
            return Reply(status: response.status, body: response.body)
        } catch {
            throw DemoError("\(method) http://\(host):\(port)\(path) failed: \(error.description)")
        }
    }
}
