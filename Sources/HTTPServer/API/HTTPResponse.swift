/// One complete HTTP response produced by an ``HTTPHandler``.
///
/// The server adds the framing fields itself: `content-length` (RFC 9110 §8.6), or
/// `transfer-encoding: chunked` for a ``bodyStream``, and, when the connection will close,
/// `connection: close`. Any `content-length`, `transfer-encoding` or
/// `connection` field set here is ignored. A response to `HEAD` is sent without its body.
public struct HTTPResponse: Sendable {
    /// The status code, 100…599 (RFC 9110 §15), e.g. `200`.
    public var status: Int
    /// The response header fields, sent in this order.
    public var headers: HTTPHeaders
    /// The response body; sent in full (written incrementally as the peer reads).
    public var body: [UInt8]
    /// A body still being written: when set, `body` is sent first and then every chunk the
    /// producer writes, until it finishes (HTTP/1.1 `transfer-encoding: chunked`; HTTP/2 DATA
    /// frames). Nil for a complete response.
    public var bodyStream: HTTPBodyStream?

    /// Creates a response with the given status, fields and body.
    public init(
        status: Int, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [], bodyStream: HTTPBodyStream? = nil
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.bodyStream = bodyStream
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
