import FirestoreModel

extension FirestoreProto {
    /// `UpdateDocumentRequest`: 1 document, 2 update_mask, 3 mask, 4 current_document.
    /// Source: googleapis `firestore.proto`; reference §6.5.
    public struct UpdateDocumentRequest: Sendable, Hashable {
        /// The database named by the document's name.
        public var database: DatabaseID
        /// The document's path.
        public var path: ResourcePath
        /// The fields sent.
        public var fields: [String: Value]
        /// `update_mask`: nil = replace the whole document, else the paths to change.
        public var updateMask: [FieldPath]?
        /// `mask`: fields to return; nil = all.
        public var mask: [FieldPath]?
        /// The precondition.
        public var currentDocument: Precondition

        /// The request as a domain write (for `FirestoreEngine.commit`).
        public var write: Write {
            Write(operation: .update(path: path, fields: fields), updateMask: updateMask, currentDocument: currentDocument)
        }

        /// Creates a request.
        public init(
            database: DatabaseID, path: ResourcePath, fields: [String: Value], updateMask: [FieldPath]? = nil,
            mask: [FieldPath]? = nil, currentDocument: Precondition = .none
        ) {
            self.database = database
            self.path = path
            self.fields = fields
            self.updateMask = updateMask
            self.mask = mask
            self.currentDocument = currentDocument
        }

        /// Decodes a serialized UpdateDocumentRequest.
        /// - Throws: `INVALID_ARGUMENT` for malformed bytes, a missing document or name, bad masks.
        public init(serializedBytes bytes: [UInt8]) throws(FirestoreError) {
            self = try decodeRequest("UpdateDocumentRequest", bytes) { (reader) throws(ProtoWireError) in
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
}
