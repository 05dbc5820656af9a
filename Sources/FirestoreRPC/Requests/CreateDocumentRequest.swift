import FirestoreModel

/// `CreateDocumentRequest` of `google.firestore.v1`, as every transport decodes it.
/// Source: googleapis `google/firestore/v1/firestore.proto`.
public struct CreateDocumentRequest: Sendable, Hashable {
    /// The database named by `parent`.
    public var database: DatabaseID
    /// The parent: the documents root or a document.
    public var parent: ResourcePath
    /// The collection to create the document in, under `parent`.
    public var collectionID: String
    /// The new document's id; "" = generate one.
    public var documentID: String
    /// The new document's fields.
    public var fields: FieldMap
    /// Fields to return; nil = all.
    public var mask: [FieldPath]?

    /// Creates a request.
    public init(
        database: DatabaseID, parent: ResourcePath, collectionID: String, documentID: String = "",
        fields: FieldMap = [:], mask: [FieldPath]? = nil
    ) {
        self.database = database
        self.parent = parent
        self.collectionID = collectionID
        self.documentID = documentID
        self.fields = fields
        self.mask = mask
    }
}
