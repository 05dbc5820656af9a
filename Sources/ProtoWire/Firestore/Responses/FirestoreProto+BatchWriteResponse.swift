import FirestoreModel
import FirestoreRPC

/// `BatchWriteResponse`: 1 write_results, 2 status repeated google.rpc.Status — one of
/// each per write, aligned with the request; a failed write has an empty WriteResult and
/// a non-zero status, a successful one an empty Status (code 0).
/// Source: googleapis `firestore.proto`, `google/rpc/status.proto`; docs/reference/grpc-and-listen.md §6.5, §7.
extension BatchWriteResponse {
    /// Serializes the response.
    public func serializedBytes() -> [UInt8] {
        var w = ProtoWriter()
        for r in results {
            switch r {
            case .success(let result): w.writeMessageField(1) { FirestoreProto.encodeWriteResult(result, into: &$0) }
            case .failure: w.writeMessageField(1) { _ in }
            }
        }
        for r in results {
            switch r {
            case .success: w.writeMessageField(2) { _ in }
            case .failure(let error): w.writeMessageField(2) { FirestoreProto.encodeStatus(error, into: &$0) }
            }
        }
        return w.bytes
    }
}
