/// One gRPC Length-Prefixed-Message as received: the protobuf payload and whether the
/// sender compressed it with the call's `grpc-encoding`.
///
/// `isCompressed` can only be true when the framer was created with
/// `acceptsCompressedMessages: true`; decompression is then the caller's job.
/// Source: repo grpc/grpc, doc/PROTOCOL-HTTP2.md; docs/reference/grpc-and-listen.md §4.2.
public struct GRPCMessage: Sendable, Hashable {
    /// Compressed-Flag was 1.
    public var isCompressed: Bool
    /// The message bytes (a serialized protobuf message when not compressed).
    public var payload: [UInt8]

    /// Creates a message.
    public init(isCompressed: Bool = false, payload: [UInt8]) {
        self.isCompressed = isCompressed
        self.payload = payload
    }
}
