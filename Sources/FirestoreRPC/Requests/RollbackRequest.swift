import FirestoreModel

/// `RollbackRequest` of `google.firestore.v1`, as every transport decodes it.
/// Source: googleapis `google/firestore/v1/firestore.proto`.
public struct RollbackRequest: Sendable, Hashable {
    /// The database.
    public var database: DatabaseID
    /// The transaction to roll back (may be empty; the engine rejects unknown ids).
    public var transaction: [UInt8]

    /// Creates a request.
    public init(database: DatabaseID, transaction: [UInt8]) {
        self.database = database
        self.transaction = transaction
    }
}
