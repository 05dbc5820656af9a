import FirestoreModel

/// `PartitionQueryResponse` of `google.firestore.v1`, as every transport encodes it.
/// Source: googleapis `google/firestore/v1/firestore.proto`.
public struct PartitionQueryResponse: Sendable, Hashable {
    /// Partition points.
    public var partitions: [Cursor]
    /// Token of the next page ("" = last page).
    public var nextPageToken: String

    /// Creates a response.
    public init(partitions: [Cursor] = [], nextPageToken: String = "") {
        self.partitions = partitions
        self.nextPageToken = nextPageToken
    }
}
