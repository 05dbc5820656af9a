import FirestoreModel

/// `CommitRequest` of `google.firestore.v1`, as every transport decodes it.
/// Source: googleapis `google/firestore/v1/firestore.proto`.
public struct CommitRequest: Sendable, Hashable {
    /// The database.
    public var database: DatabaseID
    /// The writes, in order.
    public var writes: [Write]
    /// The transaction to commit; nil when absent or empty.
    public var transaction: [UInt8]?

    /// Creates a request.
    public init(database: DatabaseID, writes: [Write], transaction: [UInt8]? = nil) {
        self.database = database
        self.writes = writes
        self.transaction = transaction
    }
}
