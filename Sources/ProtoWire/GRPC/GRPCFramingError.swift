import FirestoreModel

/// Why a gRPC Length-Prefixed-Message stream could not be decoded.
///
/// Each case carries the gRPC status the call must end with (`status`).
/// Source: repo grpc/grpc, doc/PROTOCOL-HTTP2.md (Length-Prefixed-Message); docs/reference/grpc-and-listen.md §4.2.
public enum GRPCFramingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Compressed-Flag 1 on a call without a negotiated `grpc-encoding`.
    case compressedWithoutEncoding
    /// A Compressed-Flag byte other than 0 or 1.
    case invalidCompressedFlag(UInt8)
    /// A message longer than the receive limit (bytes).
    case messageTooLarge(length: Int, limit: Int)
    /// The request ended (END_STREAM) with this many bytes of an unfinished message buffered.
    case incompleteMessage(bufferedBytes: Int)

    /// Words for logs and `grpc-message`.
    public var description: String {
        switch self {
        case .compressedWithoutEncoding:
            return "Received a compressed gRPC message, but no grpc-encoding was negotiated."
        case .invalidCompressedFlag(let f):
            return "Invalid gRPC Compressed-Flag \(f) (must be 0 or 1)."
        case .messageTooLarge(let length, let limit):
            return "Received a gRPC message of \(length) bytes, larger than the limit of \(limit) bytes."
        case .incompleteMessage(let n):
            return "The request ended inside a gRPC message (\(n) bytes buffered)."
        }
    }

    /// The status to end the call with: `RESOURCE_EXHAUSTED` for an oversized message (as
    /// grpc-core and grpc-java do), `INTERNAL` for the protocol violations (grpc-java's
    /// choice for an unexpected Compressed-Flag; docs/reference/grpc-and-listen.md §4.2 allows 12 or 13).
    public var status: FirestoreError {
        switch self {
        case .messageTooLarge: return FirestoreError(.resourceExhausted, description)
        default: return FirestoreError(.internalError, description)
        }
    }
}
