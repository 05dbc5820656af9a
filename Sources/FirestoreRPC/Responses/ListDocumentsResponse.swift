import FirestoreModel

/// `ListDocumentsResponse` of `google.firestore.v1`, as every transport encodes it.
/// Source: googleapis `google/firestore/v1/firestore.proto`.
public struct ListDocumentsResponse: Sendable, Hashable {
    /// The entries, in order (a missing one is written with its name only).
    public var documents: [ListedDocument]
    /// Token of the next page ("" = last page).
    public var nextPageToken: String

    /// Creates a response.
    public init(documents: [ListedDocument], nextPageToken: String = "") {
        self.documents = documents
        self.nextPageToken = nextPageToken
    }
}
