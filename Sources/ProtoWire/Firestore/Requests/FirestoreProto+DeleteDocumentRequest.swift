import FirestoreModel

extension FirestoreProto {
    /// `DeleteDocumentRequest`: 1 name, 2 current_document. The response is `Empty`.
    /// Source: googleapis `firestore.proto`; reference §6.5.
    public struct DeleteDocumentRequest: Sendable, Hashable {
        /// The database named by `name`.
        public var database: DatabaseID
        /// The document's path.
        public var path: ResourcePath
        /// The precondition.
        public var currentDocument: Precondition

        /// The request as a domain write (for `FirestoreEngine.commit`).
        public var write: Write { Write(operation: .delete(path), currentDocument: currentDocument) }

        /// Creates a request.
        public init(database: DatabaseID, path: ResourcePath, currentDocument: Precondition = .none) {
            self.database = database
            self.path = path
            self.currentDocument = currentDocument
        }

        /// Decodes a serialized DeleteDocumentRequest.
        /// - Throws: `INVALID_ARGUMENT` for malformed bytes or a missing or invalid name.
        public init(serializedBytes bytes: [UInt8]) throws(FirestoreError) {
            self = try decodeRequest("DeleteDocumentRequest", bytes) { (reader) throws(ProtoWireError) in
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
}
