import FirestoreModel

/// `ListCollectionIdsRequest` of `google.firestore.v1`, as every transport decodes it.
/// Source: googleapis `google/firestore/v1/firestore.proto`.
public struct ListCollectionIdsRequest: Sendable, Hashable {
    /// The database named by `parent`.
    public var database: DatabaseID
    /// The parent: the documents root or a document.
    public var parent: ResourcePath
    /// Page size; 0 = server default.
    public var pageSize: Int32
    /// Opaque token of the page to continue from.
    public var pageToken: String
    /// Read time, if requested.
    public var readTime: Timestamp?

    /// Creates a request.
    public init(database: DatabaseID, parent: ResourcePath, pageSize: Int32 = 0, pageToken: String = "", readTime: Timestamp? = nil) {
        self.database = database
        self.parent = parent
        self.pageSize = pageSize
        self.pageToken = pageToken
        self.readTime = readTime
    }
}
