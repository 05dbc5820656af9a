import FirestoreModel

extension FirestoreProto {
    /// `BatchGetDocumentsResponse`: oneof result 1 found Document / 2 missing string,
    /// 3 transaction, 4 read_time.
    ///
    /// Every message with a result must carry `readTime` (mobile fails a `missing` without
    /// it); `transaction` only in the first message, when `new_transaction` was requested.
    /// Source: googleapis `firestore.proto`; reference §6.5, §7.
    public struct BatchGetDocumentsResponse: Sendable, Hashable {
        /// The `result` oneof.
        public enum Result: Sendable, Hashable {
            /// The document exists.
            case found(Document)
            /// Nothing at that path.
            case missing(ResourcePath)
        }

        /// The result; nil for a message carrying only the transaction.
        public var result: Result?
        /// The transaction begun by `new_transaction`; nil or empty = not written.
        public var transaction: [UInt8]?
        /// The read time.
        public var readTime: Timestamp?

        /// Creates a response.
        public init(result: Result?, transaction: [UInt8]? = nil, readTime: Timestamp?) {
            self.result = result
            self.transaction = transaction
            self.readTime = readTime
        }

        /// Serializes the response with names in `database`.
        public func serializedBytes(database: DatabaseID) -> [UInt8] {
            var w = ProtoWriter()
            switch result {
            case .found(let d)?: w.writeMessageField(1) { encodeDocument(d, database: database, into: &$0) }
            case .missing(let p)?: w.writeStringField(2, database.resourceName(p))
            case nil: break
            }
            if let t = transaction, !t.isEmpty { w.writeBytesField(3, t) }
            if let t = readTime { writeTimestampField(4, t, into: &w) }
            return w.bytes
        }
    }
}
