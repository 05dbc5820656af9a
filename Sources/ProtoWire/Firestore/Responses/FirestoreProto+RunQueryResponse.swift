import FirestoreModel

extension FirestoreProto {
    /// `RunQueryResponse`: 1 document, 2 transaction, 3 read_time, 4 skipped_results,
    /// oneof continuation_selector 6 done.
    ///
    /// Stream one per result document, each with `readTime`; an empty result is one message
    /// with only `readTime` (and `done`). Source: googleapis `firestore.proto`; reference §6.5, §7.
    public struct RunQueryResponse: Sendable, Hashable {
        /// A result document; nil in progress/terminal messages.
        public var document: Document?
        /// The transaction begun by `new_transaction` (first message only); nil or empty = not written.
        public var transaction: [UInt8]?
        /// The read time.
        public var readTime: Timestamp?
        /// Documents skipped by `offset` since the previous message (0 = not written).
        public var skippedResults: Int32
        /// True on the last message (written only when true).
        public var done: Bool

        /// Creates a response.
        public init(document: Document?, transaction: [UInt8]? = nil, readTime: Timestamp?, skippedResults: Int32 = 0, done: Bool = false) {
            self.document = document
            self.transaction = transaction
            self.readTime = readTime
            self.skippedResults = skippedResults
            self.done = done
        }

        /// Serializes the response with names in `database`.
        public func serializedBytes(database: DatabaseID) -> [UInt8] {
            var w = ProtoWriter()
            if let d = document { w.writeMessageField(1) { encodeDocument(d, database: database, into: &$0) } }
            if let t = transaction, !t.isEmpty { w.writeBytesField(2, t) }
            if let t = readTime { writeTimestampField(3, t, into: &w) }
            if skippedResults != 0 { w.writeInt32Field(4, skippedResults) }
            if done { w.writeBoolField(6, true) }
            return w.bytes
        }
    }
}
