import FirestoreModel

/// `BatchGetDocumentsRequest` of `google.firestore.v1`, as every transport decodes it.
/// Source: googleapis `google/firestore/v1/firestore.proto`.
public struct BatchGetDocumentsRequest: Sendable, Hashable {
    /// The database.
    public var database: DatabaseID
    /// The requested documents, in request order (duplicates kept; the engine de-duplicates).
    public var paths: [ResourcePath]
    /// Fields to return; nil = all.
    public var mask: [FieldPath]?
    /// Which state to read.
    public var consistency: ReadConsistency

    /// Creates a request.
    public init(database: DatabaseID, paths: [ResourcePath], mask: [FieldPath]? = nil, consistency: ReadConsistency = .strong) {
        self.database = database
        self.paths = paths
        self.mask = mask
        self.consistency = consistency
    }
}
