import FirestoreModel

extension FirestoreProto {
    /// `RunAggregationQueryResponse`: 1 result AggregationResult {2 aggregate_fields},
    /// 2 transaction, 3 read_time. Send exactly one, with every alias in `aggregateFields`.
    /// Source: googleapis `firestore.proto`, `aggregation_result.proto`; reference §6.4–§6.5, §7.
    public struct RunAggregationQueryResponse: Sendable, Hashable {
        /// One value per alias.
        public var aggregateFields: [String: Value]
        /// The transaction begun by `new_transaction`; nil or empty = not written.
        public var transaction: [UInt8]?
        /// The read time.
        public var readTime: Timestamp?

        /// Creates a response.
        public init(aggregateFields: [String: Value], transaction: [UInt8]? = nil, readTime: Timestamp?) {
            self.aggregateFields = aggregateFields
            self.transaction = transaction
            self.readTime = readTime
        }

        /// Serializes the response (the result is always written, aliases sorted).
        public func serializedBytes() -> [UInt8] {
            var w = ProtoWriter()
            w.writeMessageField(1) { encodeFields(aggregateFields, field: 2, into: &$0) }
            if let t = transaction, !t.isEmpty { w.writeBytesField(2, t) }
            if let t = readTime { writeTimestampField(3, t, into: &w) }
            return w.bytes
        }
    }
}
