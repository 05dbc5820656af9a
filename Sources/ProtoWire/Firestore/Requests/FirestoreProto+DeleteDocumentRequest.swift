import FirestoreModel
import FirestoreRPC

extension DeleteDocumentRequest {
    /// Decodes a serialized DeleteDocumentRequest.
    /// - Throws: `INVALID_ARGUMENT` for malformed bytes or a missing or invalid name.
    public init(serializedBytes bytes: [UInt8]) throws(FirestoreError) {
        self = try FirestoreProto.decodeDeleteDocumentRequest(bytes)
    }
}

extension FirestoreProto {
    /// `DeleteDocumentRequest`: 1 name, 2 current_document. The response is `Empty`.
    /// Source: googleapis `firestore.proto`; docs/reference/grpc-and-listen.md §6.5.
    static func decodeDeleteDocumentRequest(_ bytes: [UInt8]) throws(FirestoreError) -> DeleteDocumentRequest {
        return try decodeRequest("DeleteDocumentRequest", bytes) { (reader) throws(ProtoWireError) in
            var r = reader
            var name = ""
            var nameAt = 0
            var precondition = Precondition.none
            while let tag = try r.readTag() {
                switch (tag.fieldNumber, tag.wireType) {
                case (1, .len):
                    nameAt = r.offset
                    name = try within("name") { () throws(ProtoWireError) in try r.readString() }
                case (2, .len):
                    precondition = try within("current_document") { () throws(ProtoWireError) in
                        try decodePrecondition(r.readSubmessage())
                    }
                default: try r.skipField(tag)
                }
            }
            let (database, path) = try within("name") { () throws(ProtoWireError) in try decodeDocumentName(name, at: nameAt) }
            return DeleteDocumentRequest(database: database, path: path, currentDocument: precondition)
        }
    }
}
