import FirestoreModel
import FirestoreRPC

extension PartitionQueryRequest {
    /// Decodes a serialized PartitionQueryRequest.
    /// - Throws: `INVALID_ARGUMENT` for malformed bytes, a missing/invalid parent or query.
    public init(serializedBytes bytes: [UInt8]) throws(FirestoreError) {
        self = try FirestoreProto.decodePartitionQueryRequest(bytes)
    }
}

extension FirestoreProto {
    /// `PartitionQueryRequest`: 1 parent, oneof 2 structured_query, 3 partition_count,
    /// 4 page_token, 5 page_size, oneof 6 read_time. Source: googleapis `firestore.proto`;
    /// docs/reference/grpc-and-listen.md §6.5, §7.
    static func decodePartitionQueryRequest(_ bytes: [UInt8]) throws(FirestoreError) -> PartitionQueryRequest {
        return try decodeRequest("PartitionQueryRequest", bytes) { (reader) throws(ProtoWireError) in
            var r = reader
            let start = r.offset
            var target = QueryTargetFields()
            var request = PartitionQueryRequest(database: DatabaseID(project: ""), target: QueryTarget(parent: .root, query: StructuredQuery(collectionID: "")))
            while let tag = try r.readTag() {
                if try target.read(tag, from: &r) { continue }
                switch (tag.fieldNumber, tag.wireType) {
                case (3, .varint): request.partitionCount = try r.readInt64()
                case (4, .len): request.pageToken = try within("page_token") { () throws(ProtoWireError) in try r.readString() }
                case (5, .varint): request.pageSize = try r.readInt32()
                case (6, .len):
                    request.readTime = try within("read_time") { () throws(ProtoWireError) in try decodeTimestamp(r.readSubmessage()) }
                default: try r.skipField(tag)
                }
            }
            (request.database, request.target) = try target.queryTarget(start: start)
            return request
        }
    }
}
