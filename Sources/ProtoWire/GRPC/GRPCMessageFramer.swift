/// The gRPC Length-Prefixed-Message codec: reassembles messages from request DATA bytes
/// split anywhere, and frames outgoing messages.
///
/// Wire layout of one message: 1-byte Compressed-Flag, 4-byte big-endian length, payload.
/// DATA frame boundaries are unrelated to message boundaries, so `append` whatever
/// arrives and loop `while let m = try framer.nextMessage()`. The length is checked against
/// `maxMessageBytes` as soon as the 5-byte prefix is in, before buffering the payload.
/// After any thrown error the stream is unusable (the call must end with `error.status`).
/// No I/O. Source: repo grpc/grpc, doc/PROTOCOL-HTTP2.md; docs/reference/grpc-and-listen.md §4.2.
public struct GRPCMessageFramer: Sendable {
    /// grpc's default receive limit: 4 MiB.
    public static let defaultMaxMessageBytes = 4 * 1024 * 1024
    /// Size of the Compressed-Flag plus length prefix.
    public static let prefixBytes = 5

    /// Largest payload accepted, in bytes.
    public let maxMessageBytes: Int
    /// Whether Compressed-Flag 1 is allowed (only when the call negotiated a `grpc-encoding`).
    public let acceptsCompressedMessages: Bool

    private var buffer: [UInt8] = []
    private var readIndex = 0

    /// Creates a framer for one call's request stream.
    /// - Parameters:
    ///   - maxMessageBytes: receive limit per message (grpc default 4 MiB; iOS uses 17 MiB,
    ///     Python unlimited — docs/reference/grpc-and-listen.md §4.2).
    ///   - acceptsCompressedMessages: true only when the request carried a supported `grpc-encoding`.
    public init(maxMessageBytes: Int = GRPCMessageFramer.defaultMaxMessageBytes, acceptsCompressedMessages: Bool = false) {
        precondition(maxMessageBytes >= 0, "maxMessageBytes must be non-negative")
        self.maxMessageBytes = maxMessageBytes
        self.acceptsCompressedMessages = acceptsCompressedMessages
    }

    /// Bytes received but not yet returned as messages.
    public var bufferedByteCount: Int { buffer.count - readIndex }

    /// Adds received bytes (any split of the DATA payloads).
    public mutating func append(_ bytes: some Collection<UInt8>) {
        if readIndex > 0 && readIndex >= buffer.count / 2 {
            buffer.removeSubrange(0..<readIndex)
            readIndex = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// Returns the next complete message, or nil when more bytes are needed.
    /// - Throws: `.invalidCompressedFlag` for a flag other than 0/1,
    ///   `.compressedWithoutEncoding` for flag 1 when not accepted,
    ///   `.messageTooLarge` when the declared length exceeds `maxMessageBytes`.
    public mutating func nextMessage() throws(GRPCFramingError) -> GRPCMessage? {
        guard bufferedByteCount >= Self.prefixBytes else { return nil }
        let flag = buffer[readIndex]
        guard flag <= 1 else { throw .invalidCompressedFlag(flag) }
        if flag == 1 && !acceptsCompressedMessages { throw .compressedWithoutEncoding }
        var length = 0
        for i in 1...4 { length = length << 8 | Int(buffer[readIndex + i]) }
        guard length <= maxMessageBytes else { throw .messageTooLarge(length: length, limit: maxMessageBytes) }
        guard bufferedByteCount - Self.prefixBytes >= length else { return nil }
        let start = readIndex + Self.prefixBytes
        let payload = Array(buffer[start..<start + length])
        readIndex = start + length
        if readIndex == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 64 * 1024)
            readIndex = 0
        }
        return GRPCMessage(isCompressed: flag == 1, payload: payload)
    }

    /// Checks that the request stream ended on a message boundary (call at END_STREAM,
    /// after draining `nextMessage()`).
    /// - Throws: `.incompleteMessage` when bytes of an unfinished message are buffered.
    public func finish() throws(GRPCFramingError) {
        if bufferedByteCount > 0 { throw .incompleteMessage(bufferedBytes: bufferedByteCount) }
    }

    /// Frames one outgoing message: flag, big-endian length, payload.
    /// - Precondition: `payload.count` fits in 32 bits.
    public static func frame(_ payload: some Collection<UInt8>, compressed: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(prefixBytes + payload.count)
        appendFrame(payload, compressed: compressed, to: &out)
        return out
    }

    /// Appends one framed message to `output` (several messages may share one DATA frame).
    /// - Precondition: `payload.count` fits in 32 bits.
    public static func appendFrame(_ payload: some Collection<UInt8>, compressed: Bool = false, to output: inout [UInt8]) {
        let length = payload.count
        precondition(length <= Int(UInt32.max), "gRPC message longer than 4 GiB")
        output.append(compressed ? 1 : 0)
        output.append(UInt8(truncatingIfNeeded: length >> 24))
        output.append(UInt8(truncatingIfNeeded: length >> 16))
        output.append(UInt8(truncatingIfNeeded: length >> 8))
        output.append(UInt8(truncatingIfNeeded: length))
        output.append(contentsOf: payload)
    }
}
