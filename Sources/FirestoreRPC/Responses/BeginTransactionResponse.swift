import FirestoreModel

/// `BeginTransactionResponse` of `google.firestore.v1`, as every transport encodes it.
/// Source: googleapis `google/firestore/v1/firestore.proto`.
public struct BeginTransactionResponse: Sendable, Hashable {
    /// The new transaction's opaque id.
    public var transaction: [UInt8]
    /// Creates a response.
    public init(transaction: [UInt8]) { self.transaction = transaction }
}
