import FirestoreModel

extension FirestoreProto {
    /// `ListCollectionIdsResponse`: 1 collection_ids, 2 next_page_token.
    /// Source: googleapis `firestore.proto`; reference §6.5, §7.
    public struct ListCollectionIdsResponse: Sendable, Hashable {
        /// The ids, ascending.
        public var collectionIDs: [String]
        /// Token of the next page ("" = last page).
        public var nextPageToken: String

        /// Creates a response.
        public init(collectionIDs: [String], nextPageToken: String = "") {
            self.collectionIDs = collectionIDs
            self.nextPageToken = nextPageToken
        }

        /// Serializes the response.
        public func serializedBytes() -> [UInt8] {
            var w = ProtoWriter()
            for id in collectionIDs { w.writeStringField(1, id) }
            if !nextPageToken.isEmpty { w.writeStringField(2, nextPageToken) }
            return w.bytes
        }
    }
}
