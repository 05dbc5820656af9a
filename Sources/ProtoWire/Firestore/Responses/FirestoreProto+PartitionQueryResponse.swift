import FirestoreModel
import FirestoreRPC

/// `PartitionQueryResponse`: 1 partitions repeated Cursor, 2 next_page_token.
/// Zero partitions (one partition: the whole query) is a valid answer.
/// Source: googleapis `firestore.proto`; docs/reference/grpc-and-listen.md §6.5, §7.
extension PartitionQueryResponse {
    /// Serializes the response.
    public func serializedBytes() -> [UInt8] {
        var w = ProtoWriter()
        for c in partitions { w.writeMessageField(1) { FirestoreProto.encodeCursor(c, into: &$0) } }
        if !nextPageToken.isEmpty { w.writeStringField(2, nextPageToken) }
        return w.bytes
    }
}
