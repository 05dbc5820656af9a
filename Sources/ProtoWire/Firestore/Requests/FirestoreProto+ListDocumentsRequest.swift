import FirestoreModel
import FirestoreRPC

extension ListDocumentsRequest {
    /// Decodes a serialized ListDocumentsRequest.
    /// - Throws: `INVALID_ARGUMENT` for malformed bytes, a missing or invalid parent, a bad mask.
    public init(serializedBytes bytes: [UInt8]) throws(FirestoreError) {
        self = try FirestoreProto.decodeListDocumentsRequest(bytes)
    }
}

extension FirestoreProto {
    /// `ListDocumentsRequest`: 1 parent, 2 collection_id, 3 page_size, 4 page_token,
    /// 6 order_by, 7 mask, oneof 8 transaction / 10 read_time, 12 show_missing.
    /// Source: googleapis `firestore.proto`; docs/reference/grpc-and-listen.md §6.5, §7.
    static func decodeListDocumentsRequest(_ bytes: [UInt8]) throws(FirestoreError) -> ListDocumentsRequest {
        return try decodeRequest("ListDocumentsRequest", bytes) { (reader) throws(ProtoWireError) in
            var r = reader
            var parentName = ""
            var parentAt = 0
            var request = ListDocumentsRequest(database: DatabaseID(project: ""), parent: .root, collectionID: "")
            let selector = ConsistencyFields(transaction: 8, readTime: 10)
            while let tag = try r.readTag() {
                if try selector.read(tag, from: &r, into: &request.consistency) { continue }
                switch (tag.fieldNumber, tag.wireType) {
                case (1, .len):
                    parentAt = r.offset
                    parentName = try within("parent") { () throws(ProtoWireError) in try r.readString() }
                case (2, .len): request.collectionID = try within("collection_id") { () throws(ProtoWireError) in try r.readString() }
                case (3, .varint): request.pageSize = try r.readInt32()
                case (4, .len): request.pageToken = try within("page_token") { () throws(ProtoWireError) in try r.readString() }
                case (6, .len): request.orderBy = try within("order_by") { () throws(ProtoWireError) in try r.readString() }
                case (7, .len):
                    request.mask = try within("mask") { () throws(ProtoWireError) in try decodeDocumentMask(r.readSubmessage()) }
                case (12, .varint): request.showMissing = try r.readBool()
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
