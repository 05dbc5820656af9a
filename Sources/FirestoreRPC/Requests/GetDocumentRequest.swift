import FirestoreModel

/// `GetDocumentRequest` of `google.firestore.v1`, as every transport decodes it.
/// Source: googleapis `google/firestore/v1/firestore.proto`.
public struct GetDocumentRequest: Sendable, Hashable {
    /// The database named by `name`.
    public var database: DatabaseID
    /// The document's path.
    public var path: ResourcePath
    /// Fields to return; nil = all.
    public var mask: [FieldPath]?
    /// Which state to read.
    public var consistency: ReadConsistency

    /// Creates a request.
    public init(database: DatabaseID, path: ResourcePath, mask: [FieldPath]? = nil, consistency: ReadConsistency = .strong) {
        self.database = database
        self.path = path
        self.mask = mask
        self.consistency = consistency
    }
}
