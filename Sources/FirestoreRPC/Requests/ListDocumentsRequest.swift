import FirestoreModel

/// `ListDocumentsRequest` of `google.firestore.v1`, as every transport decodes it.
/// Source: googleapis `google/firestore/v1/firestore.proto`.
public struct ListDocumentsRequest: Sendable, Hashable {
    /// The database named by `parent`.
    public var database: DatabaseID
    /// The parent: the documents root or a document.
    public var parent: ResourcePath
    /// The collection id under `parent` (may be empty: every collection, rarely used).
    public var collectionID: String
    /// Page size; 0 = server default.
    public var pageSize: Int32
    /// Opaque token of the page to continue from ("" = first page).
    public var pageToken: String
    /// Requested order, e.g. `__name__` ("" = default).
    public var orderBy: String
    /// Fields to return; nil = all, `[]` = names only (Python sends an empty mask).
    public var mask: [FieldPath]?
    /// Which state to read (`.transaction` or `.readTime`; never `.newTransaction`).
    public var consistency: ReadConsistency
    /// Include missing documents that have sub-documents.
    public var showMissing: Bool
    /// The collection listed: `parent` + `collectionID`.
    public var collection: ResourcePath { parent.appending(collectionID) }

    /// Creates a request.
    public init(
        database: DatabaseID, parent: ResourcePath, collectionID: String, pageSize: Int32 = 0, pageToken: String = "",
        orderBy: String = "", mask: [FieldPath]? = nil, consistency: ReadConsistency = .strong, showMissing: Bool = false
    ) {
        self.database = database
        self.parent = parent
        self.collectionID = collectionID
        self.pageSize = pageSize
        self.pageToken = pageToken
        self.orderBy = orderBy
        self.mask = mask
        self.consistency = consistency
        self.showMissing = showMissing
    }
}
