import FirestoreModel

/// `DeleteDocumentRequest` of `google.firestore.v1`, as every transport decodes it.
/// Source: googleapis `google/firestore/v1/firestore.proto`.
public struct DeleteDocumentRequest: Sendable, Hashable {
    /// The database named by `name`.
    public var database: DatabaseID
    /// The document's path.
    public var path: ResourcePath
    /// The precondition.
    public var currentDocument: Precondition
    /// The request as a domain write (for `FirestoreEngine.commit`).
    public var write: Write { Write(operation: .delete(path), currentDocument: currentDocument) }

    /// Creates a request.
    public init(database: DatabaseID, path: ResourcePath, currentDocument: Precondition = .none) {
        self.database = database
        self.path = path
        self.currentDocument = currentDocument
    }
}
