/// Why an ``HTTP2Stream`` operation failed.
public enum HTTP2StreamError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The stream is gone: reset by the peer (with its code), or its connection closed (`nil`).
    /// The handler should stop working on it.
    case closed(HTTP2ErrorCode?)
    /// Response headers were already sent (``HTTP2Stream/sendHeaders(status:_:endStream:)`` twice).
    case headersAlreadySent
    /// Data or trailers before the response headers, or anything after the response ended;
    /// a handler bug.
    case invalidState(String)
    /// ``HTTP2Stream/collectBody(maxBytes:)`` found more than the limit.
    case bodyTooLarge(limitBytes: Int)

    /// One line saying what failed.
    public var description: String {
        switch self {
        case .closed(let code?): "stream reset by the peer with \(code)"
        case .closed(nil): "connection closed"
        case .headersAlreadySent: "response headers were already sent"
        case .invalidState(let detail): "invalid stream state: \(detail)"
        case .bodyTooLarge(let limit): "request body exceeds \(limit) bytes"
        }
    }
}
