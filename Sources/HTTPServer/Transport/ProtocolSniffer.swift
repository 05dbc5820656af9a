/// Decides from a connection's first bytes which protocol it speaks. No I/O.
///
/// HTTP/2 with prior knowledge starts with the 24-octet client preface
/// `PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n` (RFC 9113 §3.4); no HTTP/1.1 request line can start
/// that way, so the first mismatching byte settles HTTP/1.1. A TLS record (`0x16`, RFC 8446
/// §5.1) means a client configured for TLS on a plaintext port.
enum ProtocolSniffer {
    /// The protocol a connection speaks.
    enum Verdict: Equatable, Sendable {
        case http1
        case http2
        case tls
    }

    /// The HTTP/2 client connection preface (RFC 9113 §3.4).
    static let http2Preface: [UInt8] = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

    /// The verdict for the bytes received so far, or `nil` while they are a strict prefix of the
    /// HTTP/2 preface (more bytes are needed).
    static func classify(_ received: some Collection<UInt8>) -> Verdict? {
        guard let first = received.first else { return nil }
        if first == 0x16 { return .tls }
        for (byte, expected) in zip(received, http2Preface) where byte != expected {
            return .http1
        }
        return received.count >= http2Preface.count ? .http2 : nil
    }
}
