/// Encodes ``HTTPResponse`` values as HTTP/1.1 response messages (RFC 9112 §4, §6). No I/O.
///
/// The serializer owns the framing fields: it always writes `content-length` (except where
/// RFC 9110 §8.6 forbids it: 1xx, 204, 304) and `connection: close` / `keep-alive` as decided
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
        /// `head` followed by `body`; for tests and small messages.
        var bytes: [UInt8] { head + body }
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
        if bodyAllowed {
            appendField("content-length", String(response.body.count), to: &head)
        }
        if !context.keepAlive {
            appendField("connection", "close", to: &head)
        } else if context.requestMinorVersion == 0 {
            appendField("connection", "keep-alive", to: &head)
        }
        head.append(contentsOf: [ASCII.cr, ASCII.lf])
        let sendsBody = bodyAllowed && context.requestMethod != "HEAD"
        return Message(head: head, body: sendsBody ? response.body : [])
    }

    private static func appendField(_ name: String, _ value: String, to head: inout [UInt8]) {
        head.append(contentsOf: name.utf8)
        head.append(contentsOf: [ASCII.colon, ASCII.space])
        for byte in value.utf8 {
            head.append(byte == ASCII.cr || byte == ASCII.lf || byte == 0 ? ASCII.space : byte)
        }
        head.append(contentsOf: [ASCII.cr, ASCII.lf])
    }
}
