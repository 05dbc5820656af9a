import FirestoreModel

/// `UpdateDocumentRequest` of `google.firestore.v1`, as every transport decodes it.
/// Source: googleapis `google/firestore/v1/firestore.proto`.
public struct UpdateDocumentRequest: Sendable, Hashable {
    /// The database named by the document's name.
    public var database: DatabaseID
    /// The document's path.
    public var path: ResourcePath
    /// The fields sent.
    public var fields: FieldMap
    /// `update_mask`: nil = replace the whole document, else the paths to change.
    public var updateMask: [FieldPath]?
    /// `mask`: fields to return; nil = all.
    public var mask: [FieldPath]?
    /// The precondition.
    public var currentDocument: Precondition

    /// The request as a domain write (for `FirestoreEngine.commit`).
    public var write: Write {
        Write(operation: .update(path: path, fields: fields), updateMask: updateMask, currentDocument: currentDocument)
    }

    /// Creates a request.
    public init(
        database: DatabaseID, path: ResourcePath, fields: FieldMap, updateMask: [FieldPath]? = nil,
        mask: [FieldPath]? = nil, currentDocument: Precondition = .none
    ) {
        self.database = database
        self.path = path
        self.fields = fields
        self.updateMask = updateMask
        self.mask = mask
        self.currentDocument = currentDocument
    }
}
