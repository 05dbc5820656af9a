import FirestoreModel
import FirestoreRPC

extension ListCollectionIdsRequest {
    /// Decodes a serialized ListCollectionIdsRequest.
    /// - Throws: `INVALID_ARGUMENT` for malformed bytes or a missing/invalid parent.
    public init(serializedBytes bytes: [UInt8]) throws(FirestoreError) {
        self = try FirestoreProto.decodeListCollectionIdsRequest(bytes)
    }
}

extension FirestoreProto {
    /// `ListCollectionIdsRequest`: 1 parent, 2 page_size, 3 page_token, oneof 4 read_time.
    /// Source: googleapis `firestore.proto`; docs/reference/grpc-and-listen.md §6.5, §7.
    static func decodeListCollectionIdsRequest(_ bytes: [UInt8]) throws(FirestoreError) -> ListCollectionIdsRequest {
        return try decodeRequest("ListCollectionIdsRequest", bytes) { (reader) throws(ProtoWireError) in
            var r = reader
            var parentName = ""
            var parentAt = 0
            var request = ListCollectionIdsRequest(database: DatabaseID(project: ""), parent: .root)
            while let tag = try r.readTag() {
                switch (tag.fieldNumber, tag.wireType) {
                case (1, .len):
                    parentAt = r.offset
                    parentName = try within("parent") { () throws(ProtoWireError) in try r.readString() }
                case (2, .varint): request.pageSize = try r.readInt32()
                case (3, .len): request.pageToken = try within("page_token") { () throws(ProtoWireError) in try r.readString() }
                case (4, .len):
                    request.readTime = try within("read_time") { () throws(ProtoWireError) in try decodeTimestamp(r.readSubmessage()) }
                default: try r.skipField(tag)
                }
            }
            (request.database, request.parent) = try within("parent") { () throws(ProtoWireError) in
                try decodeParent(parentName, at: parentAt)
            }
            return request
        }
    }
}
