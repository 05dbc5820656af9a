import FirestoreModel

extension FirestoreProto {
    /// `CreateDocumentRequest`: 1 parent, 2 collection_id, 3 document_id (empty ⇒ the server
    /// picks one), 4 document, 5 mask. Source: googleapis `firestore.proto`; reference §6.5.
    public struct CreateDocumentRequest: Sendable, Hashable {
        /// The database named by `parent`.
        public var database: DatabaseID
        /// The parent: the documents root or a document.
        public var parent: ResourcePath
        /// The collection to create the document in, under `parent`.
        public var collectionID: String
        /// The new document's id; "" = generate one.
        public var documentID: String
        /// The new document's fields.
        public var fields: [String: Value]
        /// Fields to return; nil = all.
        public var mask: [FieldPath]?

        /// Creates a request.
        public init(
            database: DatabaseID, parent: ResourcePath, collectionID: String, documentID: String = "",
            fields: [String: Value] = [:], mask: [FieldPath]? = nil
        ) {
            self.database = database
            self.parent = parent
            self.collectionID = collectionID
            self.documentID = documentID
            self.fields = fields
            self.mask = mask
        }

        /// Decodes a serialized CreateDocumentRequest (the document's own name is ignored).
        /// - Throws: `INVALID_ARGUMENT` for malformed bytes or a missing or invalid parent.
        public init(serializedBytes bytes: [UInt8]) throws(FirestoreError) {
            self = try decodeRequest("CreateDocumentRequest", bytes) { (reader) throws(ProtoWireError) in
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
}
