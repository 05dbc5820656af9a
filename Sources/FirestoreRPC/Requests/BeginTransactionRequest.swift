import FirestoreModel

/// `BeginTransactionRequest` of `google.firestore.v1`, as every transport decodes it.
/// Source: googleapis `google/firestore/v1/firestore.proto`.
public struct BeginTransactionRequest: Sendable, Hashable {
    /// The database.
    public var database: DatabaseID
    /// The transaction mode (`.readWrite(retryTransaction: nil)` when absent).
    public var options: TransactionMode

    /// Creates a request.
    public init(database: DatabaseID, options: TransactionMode = .readWrite(retryTransaction: nil)) {
        self.database = database
        self.options = options
    }
}
