import FirestoreModel
import FirestoreRPC

/// `CommitResponse`: 1 write_results (one per write), 2 commit_time.
/// Source: googleapis `firestore.proto`; docs/reference/grpc-and-listen.md §6.5, §7.
extension CommitResponse {
    /// Serializes the response.
    public func serializedBytes() -> [UInt8] {
        var w = ProtoWriter()
        for result in writeResults { w.writeMessageField(1) { FirestoreProto.encodeWriteResult(result, into: &$0) } }
        FirestoreProto.writeTimestampField(2, commitTime, into: &w)
        return w.bytes
    }
}
