import FirestoreModel

extension FirestoreProto {
    /// `ListDocumentsRequest`: 1 parent, 2 collection_id, 3 page_size, 4 page_token,
    /// 6 order_by, 7 mask, oneof 8 transaction / 10 read_time, 12 show_missing.
    /// Source: googleapis `firestore.proto`; reference §6.5, §7.
    public struct ListDocumentsRequest: Sendable, Hashable {
        /// The database named by `parent`.
        public var database: DatabaseID
        /// The parent: the documents root or a document.
        public var parent: ResourcePath
        /// The collection id under `parent` (may be empty: every collection, rarely used).
        public var collectionID: String
        /// Page size; 0 = server default.
        public var pageSize: Int32
        /// Opaque token of the page to continue from ("" = first page).
        public var pageToken: String
        /// Requested order, e.g. `__name__` ("" = default).
        public var orderBy: String
        /// Fields to return; nil = all, `[]` = names only (Python sends an empty mask).
        public var mask: [FieldPath]?
        /// Which state to read (`.transaction` or `.readTime`; never `.newTransaction`).
        public var consistency: ConsistencySelector
        /// Include missing documents that have sub-documents.
        public var showMissing: Bool

        /// The collection listed: `parent` + `collectionID`.
        public var collection: ResourcePath { parent.appending(collectionID) }

        /// Creates a request.
        public init(
            database: DatabaseID, parent: ResourcePath, collectionID: String, pageSize: Int32 = 0, pageToken: String = "",
            orderBy: String = "", mask: [FieldPath]? = nil, consistency: ConsistencySelector = .strong, showMissing: Bool = false
        ) {
            self.database = database
            self.parent = parent
            self.collectionID = collectionID
            self.pageSize = pageSize
            self.pageToken = pageToken
            self.orderBy = orderBy
            self.mask = mask
            self.consistency = consistency
            self.showMissing = showMissing
        }

        /// Decodes a serialized ListDocumentsRequest.
        /// - Throws: `INVALID_ARGUMENT` for malformed bytes, a missing or invalid parent, a bad mask.
        public init(serializedBytes bytes: [UInt8]) throws(FirestoreError) {
            self = try decodeRequest("ListDocumentsRequest", bytes) { (reader) throws(ProtoWireError) in
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
}
