/// A request the HTTP/1.1 codec has completely received, plus the connection semantics
/// its head implies.
struct HTTP1ParsedRequest: Sendable {
    /// The request; `remoteAddress` is empty (the codec knows no sockets).
    var request: HTTPRequest
    /// The minor version of `HTTP/1.x` on the request line: `0` or `1` (higher minors read as `1`).
    var minorVersion: Int
    /// Whether the connection may carry another request after this one (RFC 9112 §9.3):
    /// HTTP/1.1 unless `Connection: close`; HTTP/1.0 only with `Connection: keep-alive`.
    var keepAlive: Bool

    /// The request line as a log shows it, e.g. `GET /v1/x HTTP/1.1`.
    var requestLine: String {
        "\(request.method) \(request.target) HTTP/1.\(minorVersion)"
    }
}
