/// A minimal blocking HTTP/2 client for tests: it encodes request headers as HPACK literals
/// (never indexed, no Huffman — RFC 7541 §6.2.2), and reads responses at the frame level only
/// (it does not decode response header blocks). Enough to check multiplexing, DATA and the
/// presence of trailers, independently of curl.
final class RawHTTP2Client {
    /// One frame as received (RFC 9113 §4.1).
    struct Frame {
        var type: UInt8
        var flags: UInt8
        var streamID: UInt32
        var payload: [UInt8]
        var endStream: Bool { (type == 0x0 || type == 0x1) && flags & 0x1 != 0 }
    }

    private let socket: TestSocket
    private var buffer: [UInt8] = []

    init(port: Int) throws {
        socket = try TestSocket(port: port)
        try socket.send(Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8) + Self.frame(type: 0x4, flags: 0, stream: 0, []))
    }

    /// Sends a request HEADERS frame (with END_STREAM when `body` is empty) and an optional DATA frame.
    func request(stream: UInt32, method: String = "GET", path: String, body: [UInt8] = []) throws {
        var block: [UInt8] = []
        for (name, value) in [(":method", method), (":scheme", "http"), (":path", path), (":authority", "test")] {
            block.append(0x00)  // Literal header field without indexing, new name.
            block.append(contentsOf: Self.hpackString(name))
            block.append(contentsOf: Self.hpackString(value))
        }
        try socket.send(Self.frame(type: 0x1, flags: body.isEmpty ? 0x5 : 0x4, stream: stream, block))
        if !body.isEmpty { try socket.send(Self.frame(type: 0x0, flags: 0x1, stream: stream, body)) }
    }

    /// Reads frames until every stream in `streams` has ended; ACKs SETTINGS and PING on the way.
    /// - Returns: all frames for those streams, in arrival order.
    func readUntilEnded(_ streams: Set<UInt32>) throws -> [Frame] {
        var open = streams
        var frames: [Frame] = []
        while !open.isEmpty {
            let frame = try readFrame()
            switch frame.type {
            case 0x4 where frame.flags & 0x1 == 0:
                try socket.send(Self.frame(type: 0x4, flags: 0x1, stream: 0, []))
            case 0x6 where frame.flags & 0x1 == 0:
                try socket.send(Self.frame(type: 0x6, flags: 0x1, stream: 0, frame.payload))
            default:
                break
            }
            guard streams.contains(frame.streamID) else { continue }
            frames.append(frame)
            if frame.endStream || frame.type == 0x3 { open.remove(frame.streamID) }
        }
        return frames
    }

    private func readFrame() throws -> Frame {
        while true {
            if buffer.count >= 9 {
                let length = Int(buffer[0]) << 16 | Int(buffer[1]) << 8 | Int(buffer[2])
                if buffer.count >= 9 + length {
                    let streamID =
                        (UInt32(buffer[5]) << 24 | UInt32(buffer[6]) << 16 | UInt32(buffer[7]) << 8
                            | UInt32(buffer[8])) & 0x7FFF_FFFF
                    let frame = Frame(
                        type: buffer[3], flags: buffer[4], streamID: streamID, payload: Array(buffer[9..<9 + length]))
                    buffer.removeFirst(9 + length)
                    return frame
                }
            }
            let more = try socket.readSome()
            guard !more.isEmpty else { throw TestSocketError(description: "connection closed") }
            buffer.append(contentsOf: more)
        }
    }

    static func frame(type: UInt8, flags: UInt8, stream: UInt32, _ payload: [UInt8]) -> [UInt8] {
        let length = payload.count
        return [
            UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF), type, flags,
            UInt8(stream >> 24 & 0x7F), UInt8(stream >> 16 & 0xFF), UInt8(stream >> 8 & 0xFF), UInt8(stream & 0xFF),
        ] + payload
    }

    /// An HPACK string literal without Huffman coding; lengths < 127 only (tests use short strings).
    private static func hpackString(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        precondition(bytes.count < 127, "test header too long")
        return [UInt8(bytes.count)] + bytes
    }
}
