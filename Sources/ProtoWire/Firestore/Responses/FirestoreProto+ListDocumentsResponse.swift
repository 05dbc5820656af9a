import FirestoreModel

extension FirestoreProto {
    /// `ListDocumentsResponse`: 1 documents repeated Document, 2 next_page_token.
    /// Source: googleapis `firestore.proto`; reference §6.5, §7.
    public struct ListDocumentsResponse: Sendable, Hashable {
        /// One listed entry (mirrors `FirestoreEngine.ListedDocument`).
        public enum Item: Sendable, Hashable {
            /// A stored document.
            case document(Document)
            /// A missing document with sub-documents (`show_missing`): written with its name only.
            case missing(ResourcePath)
        }

        /// The entries, in order.
        public var documents: [Item]
        /// Token of the next page ("" = last page).
        public var nextPageToken: String

        /// Creates a response.
        public init(documents: [Item], nextPageToken: String = "") {
            self.documents = documents
            self.nextPageToken = nextPageToken
        }

        /// Serializes the response with names in `database`.
        public func serializedBytes(database: DatabaseID) -> [UInt8] {
            var w = ProtoWriter()
            for item in documents {
                switch item {
                case .document(let d): w.writeMessageField(1) { encodeDocument(d, database: database, into: &$0) }
                case .missing(let p): w.writeMessageField(1) { $0.writeStringField(1, database.resourceName(p)) }
                }
            }
            if !nextPageToken.isEmpty { w.writeStringField(2, nextPageToken) }
            return w.bytes
        }
    }
}
