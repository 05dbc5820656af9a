import FirestoreModel
import FirestoreRPC

/// `RunAggregationQueryResponse`: 1 result AggregationResult {2 aggregate_fields},
/// 2 transaction, 3 read_time. Send exactly one, with every alias in `aggregateFields`.
/// Source: googleapis `firestore.proto`, `aggregation_result.proto`; docs/reference/grpc-and-listen.md §6.4–§6.5, §7.
extension RunAggregationQueryResponse {
    /// Serializes the response (the result is always written, aliases sorted).
    public func serializedBytes() -> [UInt8] {
        var w = ProtoWriter()
        w.writeMessageField(1) { FirestoreProto.encodeFields(aggregateFields, field: 2, into: &$0) }
        if let t = transaction, !t.isEmpty { w.writeBytesField(2, t) }
        if let t = readTime { FirestoreProto.writeTimestampField(3, t, into: &w) }
        return w.bytes
    }
}
