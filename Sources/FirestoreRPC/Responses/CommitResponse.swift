import FirestoreModel

/// `CommitResponse` of `google.firestore.v1`, as every transport encodes it.
/// Source: googleapis `google/firestore/v1/firestore.proto`.
public struct CommitResponse: Sendable, Hashable {
    /// One result per write, in order.
    public var writeResults: [WriteResult]
    /// The commit time.
    public var commitTime: Timestamp

    /// Creates a response.
    public init(writeResults: [WriteResult], commitTime: Timestamp) {
        self.writeResults = writeResults
        self.commitTime = commitTime
    }
}
