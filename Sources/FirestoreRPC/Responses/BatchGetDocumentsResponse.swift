import FirestoreModel

/// `BatchGetDocumentsResponse` of `google.firestore.v1`, as every transport encodes it.
///
/// Every message with a result must carry `readTime` (mobile fails a `missing` without
/// it); `transaction` only in the first message, when `new_transaction` was requested.
/// Source: googleapis `firestore.proto`; docs/reference/grpc-and-listen.md §6.5, §7.
public struct BatchGetDocumentsResponse: Sendable, Hashable {
    /// The result; nil for a message carrying only the transaction.
    public var result: BatchGetResult?
    /// The transaction begun by `new_transaction`; nil or empty = not written.
    public var transaction: [UInt8]?
    /// The read time.
    public var readTime: Timestamp?

    /// Creates a response.
    public init(result: BatchGetResult?, transaction: [UInt8]? = nil, readTime: Timestamp?) {
        self.result = result
        self.transaction = transaction
        self.readTime = readTime
    }
}
