import FirestoreModel
import FirestoreRPC

extension RunAggregationQueryRequest {
    /// Decodes a serialized RunAggregationQueryRequest.
    /// - Throws: `INVALID_ARGUMENT` for malformed bytes, a missing/invalid parent, a missing
    ///   query, an aggregation without an operator, `up_to` ≤ 0;
    ///   `UNIMPLEMENTED` for `find_nearest`.
    public init(serializedBytes bytes: [UInt8]) throws(FirestoreError) {
        self = try FirestoreProto.decodeRunAggregationQueryRequest(bytes)
    }
}

extension FirestoreProto {
    /// `RunAggregationQueryRequest`: 1 parent, oneof 2 structured_aggregation_query, oneof
    /// 4 transaction / 5 new_transaction / 6 read_time, 8 explain_options.
    /// Source: googleapis `firestore.proto`; docs/reference/grpc-and-listen.md §6.4–§6.5, §7;
    /// docs/reference/firestore-wire.md §1.12.
    static func decodeRunAggregationQueryRequest(_ bytes: [UInt8]) throws(FirestoreError) -> RunAggregationQueryRequest {
        return try decodeRequest("RunAggregationQueryRequest", bytes) { (reader) throws(ProtoWireError) in
            var r = reader
            let start = r.offset
            var parentName = ""
            var parentAt = 0
            var decoded: (query: StructuredQuery, aggregations: [Aggregation])?
            var consistency = ReadConsistency.strong
            var explainOptions: ExplainOptions?
            let selector = ConsistencyFields(transaction: 4, newTransaction: 5, readTime: 6)
            while let tag = try r.readTag() {
                if try selector.read(tag, from: &r, into: &consistency) { continue }
                switch (tag.fieldNumber, tag.wireType) {
                case (1, .len):
                    parentAt = r.offset
                    parentName = try within("parent") { () throws(ProtoWireError) in try r.readString() }
                case (2, .len):
                    decoded = try within("structured_aggregation_query") { () throws(ProtoWireError) in
                        try decodeAggregationQuery(r.readSubmessage())
                    }
                case (8, .len):
                    explainOptions = try within("explain_options") { () throws(ProtoWireError) in
                        try decodeExplainOptions(r.readSubmessage())
                    }
                default: try r.skipField(tag)
                }
            }
            let (database, parent) = try within("parent") { () throws(ProtoWireError) in try decodeParent(parentName, at: parentAt) }
            guard let decoded else {
                throw ProtoWireError(
                    .invalidValue("structured_aggregation_query is required."), offset: start,
                    fieldPath: ["structured_aggregation_query"])
            }
            return RunAggregationQueryRequest(
                database: database, target: QueryTarget(parent: parent, query: decoded.query),
                aggregations: decoded.aggregations, consistency: consistency, explainOptions: explainOptions)
        }
    }
}
