import FirestoreModel

/// `PartitionQueryRequest` of `google.firestore.v1`, as every transport decodes it.
/// Source: googleapis `google/firestore/v1/firestore.proto`.
public struct PartitionQueryRequest: Sendable, Hashable {
    /// The database named by `parent`.
    public var database: DatabaseID
    /// The query to partition and its parent.
    public var target: QueryTarget
    /// The desired maximum number of partition points.
    public var partitionCount: Int64
    /// Opaque token of the page to continue from.
    public var pageToken: String
    /// Maximum partitions per page; 0 = server default.
    public var pageSize: Int32
    /// Read time, if requested.
    public var readTime: Timestamp?

    /// Creates a request.
    public init(
        database: DatabaseID, target: QueryTarget, partitionCount: Int64 = 0, pageToken: String = "", pageSize: Int32 = 0,
        readTime: Timestamp? = nil
    ) {
        self.database = database
        self.target = target
        self.partitionCount = partitionCount
        self.pageToken = pageToken
        self.pageSize = pageSize
        self.readTime = readTime
    }
}
