import FirestoreModel
import FirestoreRPC

/// `RunQueryResponse`: 1 document, 2 transaction, 3 read_time, 4 skipped_results,
/// oneof continuation_selector 6 done, 11 explain_metrics.
///
/// Stream one per result document, each with `readTime`; an empty result is one message
/// with only `readTime` (and `done`); an explained query's last message carries `explain_metrics`
/// (plan only: that may be the only message). Source: googleapis `firestore.proto`;
/// docs/reference/grpc-and-listen.md §6.5, §7; docs/reference/firestore-wire.md §1.12.
extension RunQueryResponse {
    /// Serializes the response with names in `database`.
    public func serializedBytes(database: DatabaseID) -> [UInt8] {
        var w = ProtoWriter()
        if let d = document { w.writeMessageField(1) { FirestoreProto.encodeDocument(d, database: database, into: &$0) } }
        if let t = transaction, !t.isEmpty { w.writeBytesField(2, t) }
        if let t = readTime { FirestoreProto.writeTimestampField(3, t, into: &w) }
        if skippedResults != 0 { w.writeInt32Field(4, skippedResults) }
        if done { w.writeBoolField(6, true) }
        if let m = explainMetrics { w.writeMessageField(11) { FirestoreProto.encodeExplainMetrics(m, into: &$0) } }
        return w.bytes
    }
}
