/// One complete HTTP response produced by an ``HTTPHandler``.
///
/// The server adds the framing fields itself: `content-length` (RFC 9110 §8.6) and, when the
/// connection will close, `connection: close`. Any `content-length`, `transfer-encoding` or
/// `connection` field set here is ignored. A response to `HEAD` is sent without its body.
public struct HTTPResponse: Sendable {
    /// The status code, 100…599 (RFC 9110 §15), e.g. `200`.
    public var status: Int
    /// The response header fields, sent in this order.
    public var headers: HTTPHeaders
    /// The response body; sent in full (written incrementally as the peer reads).
    public var body: [UInt8]

    /// Creates a response with the given status, fields and body.
    public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON response: `content-type: application/json; charset=utf-8` and `body` as given
    /// (already-encoded UTF-8 JSON).
    public static func json(_ status: Int, _ body: [UInt8]) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: ["content-type": "application/json; charset=utf-8"], body: body)
    }

    /// A plain-text response: `content-type: text/plain; charset=utf-8` and `text` encoded as UTF-8.
    public static func text(_ status: Int, _ text: String) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: ["content-type": "text/plain; charset=utf-8"], body: Array(text.utf8))
    }
}
