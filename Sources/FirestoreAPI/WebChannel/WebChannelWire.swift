import FirestoreModel

/// The framing of WebChannel (protocol version 8) as the Firebase JS SDK speaks it to the
/// Firestore port: what the server writes on the back channel and in answers to forward
/// POSTs. Every answer is a length-prefixed JSON text: `<length>\n<json>`, the length counted
/// in UTF-16 code units (the client measures the text as a JavaScript string).
///
/// Back-channel data is an array of arrays `[[arrayId, payload], …]`, ids counting up from 0
/// within a session: array 0 is the handshake `["c", SID, hostPrefix, 8, 12, keepAliveMs]`,
/// `["noop"]` keeps an idle channel alive, `["stop"]` ends the session on the client.
/// Source: Tests/WebClients/PROTOCOL.md (observed against the emulator); closure-library
/// `goog/labs/net/webchannel` (webchannelbase, channelrequest, wirev8).
enum WebChannelWire {
    /// The protocol version negotiated (`VER=8`).
    static let version = 8
    /// The server version the handshake reports, as the emulator reports it.
    static let serverVersion = 12
    /// The keep-alive interval the handshake announces; the client times a silent back
    /// channel out after 1.5× this. The server sends a `noop` well within it.
    static let keepAliveMilliseconds = 30_000

    /// `text` framed for the wire: its UTF-16 length, a newline, the text.
    static func framed(_ text: [UInt8]) -> [UInt8] {
        var out = Array(String(utf16Length(text)).utf8)
        out.reserveCapacity(out.count + 1 + text.count)
        out.append(UInt8(ascii: "\n"))
        out.append(contentsOf: text)
        return out
    }

    /// The back-channel message carrying `arrays` (each already `[id,payload]`), framed.
    static func message(_ arrays: [[UInt8]]) -> [UInt8] {
        var text: [UInt8] = [UInt8(ascii: "[")]
        for (i, array) in arrays.enumerated() {
            if i > 0 { text.append(UInt8(ascii: ",")) }
            text.append(contentsOf: array)
        }
        text.append(UInt8(ascii: "]"))
        return framed(text)
    }

    /// One array, `[id,payload]`, from a payload that is already JSON text.
    static func array(id: Int, payload: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "[")]
        out.append(contentsOf: String(id).utf8)
        out.append(UInt8(ascii: ","))
        out.append(contentsOf: payload)
        out.append(UInt8(ascii: "]"))
        return out
    }

    /// The payload of the handshake array for session `sid`.
    static func handshake(sid: String) -> [UInt8] {
        Array("[\"c\",\"\(sid)\",\"\",\(version),\(serverVersion),\(keepAliveMilliseconds)]".utf8)
    }

    /// The payload that keeps a channel alive.
    static let noop: [UInt8] = Array("[\"noop\"]".utf8)

    /// The answer to a forward-channel POST: `[backChannelPresent, lastArrayId,
    /// outstandingBytes]` — the id of the last array written to a back channel and the bytes
    /// written but not yet acknowledged; from these the client judges whether its back
    /// channel is alive.
    static func postAnswer(backChannel: Bool, lastArrayID: Int, outstandingBytes: Int) -> [UInt8] {
        framed(Array("[\(backChannel ? 1 : 0),\(lastArrayID),\(outstandingBytes)]".utf8))
    }

    /// The UTF-16 length of UTF-8 `text`: one unit per scalar, two for scalars above U+FFFF.
    static func utf16Length(_ text: [UInt8]) -> Int {
        var units = 0
        for byte in text {
            if byte & 0xC0 != 0x80 { units += 1 }  // The first byte of a scalar.
            if byte >= 0xF0 { units += 1 }  // A four-byte scalar: a surrogate pair.
        }
        return units
    }

    /// The `headers` field of the opening POST: `Name:value` lines (CRLF or LF separated),
    /// as a dictionary keyed by lower-cased name.
    static func initHeaders(_ text: String) -> [String: String] {
        var headers: [String: String] = [:]
        for line in text.split(whereSeparator: { $0 == "\r\n" || $0 == "\n" || $0 == "\r" }) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingASCII().lowercased()
            headers[name] = String(line[line.index(after: colon)...].trimmingASCII())
        }
        return headers
    }
}
