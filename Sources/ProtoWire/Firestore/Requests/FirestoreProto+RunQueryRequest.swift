import FirestoreModel
import FirestoreRPC

extension RunQueryRequest {
    /// Decodes a serialized RunQueryRequest.
    /// - Throws: `INVALID_ARGUMENT` for malformed bytes, a missing/invalid parent or a
    ///   missing/malformed query; `UNIMPLEMENTED` for `find_nearest`.
    public init(serializedBytes bytes: [UInt8]) throws(FirestoreError) {
        self = try FirestoreProto.decodeRunQueryRequest(bytes)
    }
}

extension FirestoreProto {
    /// `RunQueryRequest`: 1 parent, oneof 2 structured_query, oneof 5 transaction /
    /// 6 new_transaction / 7 read_time, 10 explain_options.
    /// Source: googleapis `firestore.proto`; docs/reference/grpc-and-listen.md §6.5, §7;
    /// docs/reference/firestore-wire.md §1.12.
    static func decodeRunQueryRequest(_ bytes: [UInt8]) throws(FirestoreError) -> RunQueryRequest {
        return try decodeRequest("RunQueryRequest", bytes) { (reader) throws(ProtoWireError) in
            var r = reader
            let start = r.offset
            var target = QueryTargetFields()
            var consistency = ReadConsistency.strong
            var explainOptions: ExplainOptions?
            let selector = ConsistencyFields(transaction: 5, newTransaction: 6, readTime: 7)
            while let tag = try r.readTag() {
                if try selector.read(tag, from: &r, into: &consistency) { continue }
                if try target.read(tag, from: &r) { continue }
                switch (tag.fieldNumber, tag.wireType) {
                case (10, .len):
                    explainOptions = try within("explain_options") { () throws(ProtoWireError) in
                        try decodeExplainOptions(r.readSubmessage())
                    }
                default: try r.skipField(tag)
                }
            }
            let (database, queryTarget) = try target.queryTarget(start: start)
            return RunQueryRequest(database: database, target: queryTarget, consistency: consistency, explainOptions: explainOptions)
        }
    }
}
