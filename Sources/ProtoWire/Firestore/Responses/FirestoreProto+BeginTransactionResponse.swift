import FirestoreModel

extension FirestoreProto {
    /// `BeginTransactionResponse`: 1 transaction.
    /// Source: googleapis `firestore.proto`; reference §6.5.
    public struct BeginTransactionResponse: Sendable, Hashable {
        /// The new transaction's opaque id.
        public var transaction: [UInt8]

        /// Creates a response.
        public init(transaction: [UInt8]) { self.transaction = transaction }

        /// Serializes the response.
        public func serializedBytes() -> [UInt8] {
            var w = ProtoWriter()
            if !transaction.isEmpty { w.writeBytesField(1, transaction) }
            return w.bytes
        }
    }
}
