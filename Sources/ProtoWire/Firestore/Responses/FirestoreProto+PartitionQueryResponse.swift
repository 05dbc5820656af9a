import FirestoreModel

extension FirestoreProto {
    /// `PartitionQueryResponse`: 1 partitions repeated Cursor, 2 next_page_token.
    /// Zero partitions (one partition: the whole query) is a valid answer.
    /// Source: googleapis `firestore.proto`; reference §6.5, §7.
    public struct PartitionQueryResponse: Sendable, Hashable {
        /// Partition points.
        public var partitions: [Cursor]
        /// Token of the next page ("" = last page).
        public var nextPageToken: String

        /// Creates a response.
        public init(partitions: [Cursor] = [], nextPageToken: String = "") {
            self.partitions = partitions
            self.nextPageToken = nextPageToken
        }

        /// Serializes the response.
        public func serializedBytes() -> [UInt8] {
            var w = ProtoWriter()
            for c in partitions { w.writeMessageField(1) { encodeCursor(c, into: &$0) } }
            if !nextPageToken.isEmpty { w.writeStringField(2, nextPageToken) }
            return w.bytes
        }
    }
}
