import FirestoreModel
import FirestoreRPC

extension UpdateDocumentRequest {
    /// Decodes a serialized UpdateDocumentRequest.
    /// - Throws: `INVALID_ARGUMENT` for malformed bytes, a missing document or name, bad masks.
    public init(serializedBytes bytes: [UInt8]) throws(FirestoreError) {
        self = try FirestoreProto.decodeUpdateDocumentRequest(bytes)
    }
}

extension FirestoreProto {
    /// `UpdateDocumentRequest`: 1 document, 2 update_mask, 3 mask, 4 current_document.
    /// Source: googleapis `firestore.proto`; docs/reference/grpc-and-listen.md §6.5.
    static func decodeUpdateDocumentRequest(_ bytes: [UInt8]) throws(FirestoreError) -> UpdateDocumentRequest {
        return try decodeRequest("UpdateDocumentRequest", bytes) { (reader) throws(ProtoWireError) in
            var r = reader
            let start = r.offset
            var body: DocumentBody?
            var updateMask: [FieldPath]?
            var mask: [FieldPath]?
            var precondition = Precondition.none
            while let tag = try r.readTag() {
                switch (tag.fieldNumber, tag.wireType) {
                case (1, .len): body = try within("document") { () throws(ProtoWireError) in try decodeDocumentBody(r.readSubmessage()) }
                case (2, .len):
                    updateMask = try within("update_mask") { () throws(ProtoWireError) in try decodeDocumentMask(r.readSubmessage()) }
                case (3, .len): mask = try within("mask") { () throws(ProtoWireError) in try decodeDocumentMask(r.readSubmessage()) }
                case (4, .len):
                    precondition = try within("current_document") { () throws(ProtoWireError) in
                        try decodePrecondition(r.readSubmessage())
                    }
                default: try r.skipField(tag)
                }
            }
            guard let body else {
                throw ProtoWireError(.invalidValue("document is required."), offset: start, fieldPath: ["document"])
            }
            let (database, path) = try within("document.name") { () throws(ProtoWireError) in
                try decodeDocumentName(body.name, at: body.nameOffset)
            }
            return UpdateDocumentRequest(
                database: database, path: path, fields: body.fields, updateMask: updateMask, mask: mask,
                currentDocument: precondition)
        }
    }
}
