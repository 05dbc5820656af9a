import FirestoreModel

extension FirestoreProto {
    /// `ListCollectionIdsRequest`: 1 parent, 2 page_size, 3 page_token, oneof 4 read_time.
    /// Source: googleapis `firestore.proto`; reference §6.5, §7.
    public struct ListCollectionIdsRequest: Sendable, Hashable {
        /// The database named by `parent`.
        public var database: DatabaseID
        /// The parent: the documents root or a document.
        public var parent: ResourcePath
        /// Page size; 0 = server default.
        public var pageSize: Int32
        /// Opaque token of the page to continue from.
        public var pageToken: String
        /// Read time, if requested.
        public var readTime: Timestamp?

        /// Creates a request.
        public init(database: DatabaseID, parent: ResourcePath, pageSize: Int32 = 0, pageToken: String = "", readTime: Timestamp? = nil) {
            self.database = database
            self.parent = parent
            self.pageSize = pageSize
            self.pageToken = pageToken
            self.readTime = readTime
        }

        /// Decodes a serialized ListCollectionIdsRequest.
        /// - Throws: `INVALID_ARGUMENT` for malformed bytes or a missing/invalid parent.
        public init(serializedBytes bytes: [UInt8]) throws(FirestoreError) {
            self = try decodeRequest("ListCollectionIdsRequest", bytes) { (reader) throws(ProtoWireError) in
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
}
