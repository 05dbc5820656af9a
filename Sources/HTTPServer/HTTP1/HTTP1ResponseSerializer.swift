/// Encodes ``HTTPResponse`` values as HTTP/1.1 response messages (RFC 9112 §4, §6). No I/O.
///
/// The serializer owns the framing fields: it always writes `content-length` (except where
/// RFC 9110 §8.6 forbids it: 1xx, 204, 304, and for a streamed body, which is chunked) and `connection: close` / `keep-alive` as decided
/// by the connection; handler-supplied `content-length`, `transfer-encoding`, `connection` and
/// `keep-alive` fields are dropped. CR, LF and NUL in handler-supplied values are replaced by
/// spaces so a value echoing peer input cannot split the response.
enum HTTP1ResponseSerializer {
    /// What the serializer needs to know about the request being answered.
    struct Context: Sendable {
        /// The request method; a `HEAD` response carries `content-length` but no body (RFC 9110 §9.3.2).
        var requestMethod: String
        /// The request's minor version (`0` or `1`); an HTTP/1.0 keep-alive needs an explicit field.
        var requestMinorVersion: Int
        /// Whether the connection stays open after this response.
        var keepAlive: Bool
    }

    /// An encoded response: the status line and fields, then the body bytes to send after them.
    struct Message: Sendable {
        var head: [UInt8]
        var body: [UInt8]
        /// Set when the response's ``HTTPResponse/bodyStream`` follows `body`: how its chunks
        /// are framed and whether the connection closes after it.
        var streaming: Streaming?
        /// `head` followed by `body`; for tests and small messages.
        var bytes: [UInt8] { head + body }
    }

    /// How a streamed body is sent.
    struct Streaming: Sendable {
        /// Chunked framing (HTTP/1.1); otherwise raw bytes ended by closing (HTTP/1.0).
        var chunked: Bool
        /// The connection closes once the body ends.
        var closesConnection: Bool
    }

    /// The interim response sent when a peer waits on `Expect: 100-continue` (RFC 9110 §15.2.1).
    static let continueResponse: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    private static let droppedFields = ["content-length", "transfer-encoding", "connection", "keep-alive"]

    /// Encodes `response` as an HTTP/1.1 message for the request described by `context`.
    ///
    /// A status outside 100…999 is a handler bug; it is sent as 500 rather than trapping.
    static func serialize(_ response: HTTPResponse, context: Context) -> Message {
        let status = (100...999).contains(response.status) ? response.status : 500
        var head = Array("HTTP/1.1 \(status) \(HTTPStatusReason.phrase(for: status))\r\n".utf8)
        head.reserveCapacity(256)
        for (name, value) in response.headers {
            guard !name.isEmpty, name.utf8.allSatisfy(ASCII.isTokenChar),
                !droppedFields.contains(where: { ASCII.equalsIgnoringCase($0, name) })
            else { continue }
            appendField(name, value, to: &head)
        }
        let bodyAllowed = status >= 200 && status != 204 && status != 304
        let sendsBody = bodyAllowed && context.requestMethod != "HEAD"
        // A streamed body: chunked on HTTP/1.1; on HTTP/1.0 its end is the connection's close.
        let streams = sendsBody && response.bodyStream != nil
        var context = context
        if streams && context.requestMinorVersion == 0 { context.keepAlive = false }
        if streams {
            if context.requestMinorVersion > 0 { appendField("transfer-encoding", "chunked", to: &head) }
        } else if bodyAllowed {
            appendField("content-length", String(response.body.count), to: &head)
        }
        if !context.keepAlive {
            appendField("connection", "close", to: &head)
        } else if context.requestMinorVersion == 0 {
            appendField("connection", "keep-alive", to: &head)
        }
        head.append(contentsOf: [ASCII.cr, ASCII.lf])
        guard streams else { return Message(head: head, body: sendsBody ? response.body : []) }
        let chunked = context.requestMinorVersion > 0
        return Message(
            head: head, body: chunked ? chunk(response.body) : response.body,
            streaming: Streaming(chunked: chunked, closesConnection: !context.keepAlive))
    }

    /// `bytes` as one chunk of a chunked body (RFC 9112 §7.1); nothing for no bytes, since an
    /// empty chunk ends the body.
    static func chunk(_ bytes: [UInt8]) -> [UInt8] {
        guard !bytes.isEmpty else { return [] }
        var out = Array(String(bytes.count, radix: 16).utf8)
        out.reserveCapacity(out.count + bytes.count + 4)
        out.append(contentsOf: [ASCII.cr, ASCII.lf])
        out.append(contentsOf: bytes)
        out.append(contentsOf: [ASCII.cr, ASCII.lf])
        return out
    }

    /// The last chunk, with no trailer fields: the end of a chunked body.
    static let lastChunk: [UInt8] = Array("0\r\n\r\n".utf8)

    private static func appendField(_ name: String, _ value: String, to head: inout [UInt8]) {
        head.append(contentsOf: name.utf8)
        head.append(contentsOf: [ASCII.colon, ASCII.space])
        for byte in value.utf8 {
            head.append(byte == ASCII.cr || byte == ASCII.lf || byte == 0 ? ASCII.space : byte)
        }
        head.append(contentsOf: [ASCII.cr, ASCII.lf])
    }
}
