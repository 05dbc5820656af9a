import FirestoreModel
import FirestoreRPC

extension CreateDocumentRequest {
    /// Decodes a serialized CreateDocumentRequest (the document's own name is ignored).
    /// - Throws: `INVALID_ARGUMENT` for malformed bytes or a missing or invalid parent.
    public init(serializedBytes bytes: [UInt8]) throws(FirestoreError) {
        self = try FirestoreProto.decodeCreateDocumentRequest(bytes)
    }
}

extension FirestoreProto {
    /// `CreateDocumentRequest`: 1 parent, 2 collection_id, 3 document_id (empty ⇒ the server
    /// picks one), 4 document, 5 mask. Source: googleapis `firestore.proto`; docs/reference/grpc-and-listen.md §6.5.
    static func decodeCreateDocumentRequest(_ bytes: [UInt8]) throws(FirestoreError) -> CreateDocumentRequest {
        return try decodeRequest("CreateDocumentRequest", bytes) { (reader) throws(ProtoWireError) in
            var r = reader
            var parentName = ""
            var parentAt = 0
            var request = CreateDocumentRequest(database: DatabaseID(project: ""), parent: .root, collectionID: "")
            while let tag = try r.readTag() {
                switch (tag.fieldNumber, tag.wireType) {
                case (1, .len):
                    parentAt = r.offset
                    parentName = try within("parent") { () throws(ProtoWireError) in try r.readString() }
                case (2, .len): request.collectionID = try within("collection_id") { () throws(ProtoWireError) in try r.readString() }
                case (3, .len): request.documentID = try within("document_id") { () throws(ProtoWireError) in try r.readString() }
                case (4, .len):
                    request.fields = try within("document") { () throws(ProtoWireError) in
                        try decodeDocumentBody(r.readSubmessage()).fields
                    }
                case (5, .len):
                    request.mask = try within("mask") { () throws(ProtoWireError) in try decodeDocumentMask(r.readSubmessage()) }
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
