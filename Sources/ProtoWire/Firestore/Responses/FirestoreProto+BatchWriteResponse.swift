import FirestoreModel

extension FirestoreProto {
    /// `BatchWriteResponse`: 1 write_results, 2 status repeated google.rpc.Status — one of
    /// each per write, aligned with the request; a failed write has an empty WriteResult and
    /// a non-zero status, a successful one an empty Status (code 0).
    /// Source: googleapis `firestore.proto`, `google/rpc/status.proto`; reference §6.5, §7.
    public struct BatchWriteResponse: Sendable, Equatable {
        /// Per-write outcome, in request order (as `FirestoreEngine.batchWrite` returns it).
        public var results: [Result<WriteResult, FirestoreError>]

        /// Creates a response.
        public init(results: [Result<WriteResult, FirestoreError>]) { self.results = results }

        /// Serializes the response.
        public func serializedBytes() -> [UInt8] {
            var w = ProtoWriter()
            for r in results {
                switch r {
                case .success(let result): w.writeMessageField(1) { encodeWriteResult(result, into: &$0) }
                case .failure: w.writeMessageField(1) { _ in }
                }
            }
            for r in results {
                switch r {
                case .success: w.writeMessageField(2) { _ in }
                case .failure(let error): w.writeMessageField(2) { encodeStatus(error, into: &$0) }
                }
            }
            return w.bytes
        }
    }
}
