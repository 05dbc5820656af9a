import FirestoreModel

/// `BatchWriteRequest` of `google.firestore.v1`, as every transport decodes it.
/// Source: googleapis `google/firestore/v1/firestore.proto`.
public struct BatchWriteRequest: Sendable, Hashable {
    /// The database.
    public var database: DatabaseID
    /// The writes; each is applied on its own.
    public var writes: [Write]
    /// Client labels.
    public var labels: [String: String]

    /// Creates a request.
    public init(database: DatabaseID, writes: [Write], labels: [String: String] = [:]) {
        self.database = database
        self.writes = writes
        self.labels = labels
    }
}
