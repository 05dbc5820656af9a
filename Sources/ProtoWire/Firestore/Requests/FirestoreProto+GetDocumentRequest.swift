import FirestoreModel
import FirestoreRPC

extension GetDocumentRequest {
    /// Decodes a serialized GetDocumentRequest.
    /// - Throws: `INVALID_ARGUMENT` for malformed bytes, a missing or invalid name, a bad mask.
    public init(serializedBytes bytes: [UInt8]) throws(FirestoreError) {
        self = try FirestoreProto.decodeGetDocumentRequest(bytes)
    }
}

extension FirestoreProto {
    /// `GetDocumentRequest`: 1 name, 2 mask, oneof consistency_selector 3 transaction /
    /// 5 read_time. Source: googleapis `firestore.proto`; docs/reference/grpc-and-listen.md §6.5.
    static func decodeGetDocumentRequest(_ bytes: [UInt8]) throws(FirestoreError) -> GetDocumentRequest {
        return try decodeRequest("GetDocumentRequest", bytes) { (reader) throws(ProtoWireError) in
            var r = reader
            var name = ""
            var nameAt = 0
            var mask: [FieldPath]?
            var consistency = ReadConsistency.strong
            let selector = ConsistencyFields(transaction: 3, readTime: 5)
            while let tag = try r.readTag() {
                if try selector.read(tag, from: &r, into: &consistency) { continue }
                switch (tag.fieldNumber, tag.wireType) {
                case (1, .len):
                    nameAt = r.offset
                    name = try within("name") { () throws(ProtoWireError) in try r.readString() }
                case (2, .len): mask = try within("mask") { () throws(ProtoWireError) in try decodeDocumentMask(r.readSubmessage()) }
                default: try r.skipField(tag)
                }
            }
            let (database, path) = try within("name") { () throws(ProtoWireError) in try decodeDocumentName(name, at: nameAt) }
            return GetDocumentRequest(database: database, path: path, mask: mask, consistency: consistency)
        }
    }
}
