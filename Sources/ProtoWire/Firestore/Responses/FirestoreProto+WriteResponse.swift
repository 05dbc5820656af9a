import FirestoreModel
import FirestoreRPC

/// `WriteResponse` of the Write stream: 1 stream_id, 2 stream_token, 3 write_results,
/// 4 commit_time.
///
/// Handshake: `streamID` + `streamToken`, no results. Per batch: `streamToken`, one
/// result per write (each with one transform result per field transform), `commitTime`.
/// Source: googleapis `firestore.proto`; docs/reference/grpc-and-listen.md §6.5, §9.
extension WriteResponse {
    /// Serializes the response.
    public func serializedBytes() -> [UInt8] {
        var w = ProtoWriter()
        if !streamID.isEmpty { w.writeStringField(1, streamID) }
        if !streamToken.isEmpty { w.writeBytesField(2, streamToken) }
        for result in writeResults { w.writeMessageField(3) { FirestoreProto.encodeWriteResult(result, into: &$0) } }
        if let t = commitTime { FirestoreProto.writeTimestampField(4, t, into: &w) }
        return w.bytes
    }
}
