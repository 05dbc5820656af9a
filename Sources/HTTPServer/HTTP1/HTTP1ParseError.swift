/// Why the HTTP/1.1 codec rejected a peer's bytes; the peer's fault in every case.
///
/// Each case maps to the status the server answers with before closing the connection
/// (the framing can no longer be trusted, RFC 9112 §6.3).
enum HTTP1ParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The request line plus header fields (or the trailer section) exceeded the configured
    /// limit → 431 (RFC 6585 §5).
    case headerSectionTooLarge(limitBytes: Int)
    /// The declared or received body exceeds the configured limit → 413 (RFC 9110 §15.5.14).
    case bodyTooLarge(limitBytes: Int)
    /// Syntax or framing the server cannot accept → 400 (RFC 9112 §2.2, §3, §5, §6.3, §7.1).
    case badRequest(String)
    /// A transfer coding other than `chunked` → 501 (RFC 9112 §6.1).
    case unsupportedTransferCoding(String)
    /// An HTTP major version other than 1 → 505 (RFC 9110 §15.6.6).
    case unsupportedVersion(String)

    /// The HTTP status code to answer with, e.g. `431`.
    var status: Int {
        switch self {
        case .headerSectionTooLarge: 431
        case .bodyTooLarge: 413
        case .badRequest: 400
        case .unsupportedTransferCoding: 501
        case .unsupportedVersion: 505
        }
    }

    /// A one-line explanation suitable for a plain-text response body.
    var description: String {
        switch self {
        case .headerSectionTooLarge(let limit): "request header section exceeds \(limit) bytes"
        case .bodyTooLarge(let limit): "request body exceeds \(limit) bytes"
        case .badRequest(let detail): "bad request: \(detail)"
        case .unsupportedTransferCoding(let coding): "unsupported transfer coding: \(coding)"
        case .unsupportedVersion(let version): "unsupported HTTP version: \(version)"
        }
    }
}
