import FirestoreModel

/// `BatchWriteResponse` of `google.firestore.v1`, as every transport encodes it.
/// Source: googleapis `google/firestore/v1/firestore.proto`.
public struct BatchWriteResponse: Sendable, Equatable {
    /// Per-write outcome, in request order (as `FirestoreEngine.batchWrite` returns it).
    public var results: [Result<WriteResult, FirestoreError>]
    /// Creates a response.
    public init(results: [Result<WriteResult, FirestoreError>]) { self.results = results }
}
