import FirestoreModel

/// `ListCollectionIdsResponse` of `google.firestore.v1`, as every transport encodes it.
/// Source: googleapis `google/firestore/v1/firestore.proto`.
public struct ListCollectionIdsResponse: Sendable, Hashable {
    /// The ids, ascending.
    public var collectionIDs: [String]
    /// Token of the next page ("" = last page).
    public var nextPageToken: String

    /// Creates a response.
    public init(collectionIDs: [String], nextPageToken: String = "") {
        self.collectionIDs = collectionIDs
        self.nextPageToken = nextPageToken
    }
}
