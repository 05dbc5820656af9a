import FirestoreModel
import FirestoreRPC

/// `RunAggregationQueryResponse`: 1 result AggregationResult {2 aggregate_fields},
/// 2 transaction, 3 read_time, 10 explain_metrics. Send exactly one, with every alias in
/// `aggregateFields` (a plan-only explain: no aliases, only the metrics).
/// Source: googleapis `firestore.proto`, `aggregation_result.proto`; docs/reference/grpc-and-listen.md §6.4–§6.5, §7;
/// docs/reference/firestore-wire.md §1.12.
extension RunAggregationQueryResponse {
    /// Serializes the response, aliases sorted. The result is always written, except for a
    /// plan-only explain (`aggregateFields` empty and `explainMetrics` set), which has none.
    public func serializedBytes() -> [UInt8] {
        var w = ProtoWriter()
        if !(aggregateFields.isEmpty && explainMetrics != nil) {
            w.writeMessageField(1) { FirestoreProto.encodeFields(aggregateFields, field: 2, into: &$0) }
        }
        if let t = transaction, !t.isEmpty { w.writeBytesField(2, t) }
        if let t = readTime { FirestoreProto.writeTimestampField(3, t, into: &w) }
        if let m = explainMetrics { w.writeMessageField(10) { FirestoreProto.encodeExplainMetrics(m, into: &$0) } }
        return w.bytes
    }
}
