import FirestoreModel
import FirestoreRPC

/// `TargetChange`: 1 target_change_type, 2 target_ids (packed), 3 cause
/// google.rpc.Status, 4 resume_token, 6 read_time.
///
/// Empty `targetIDs` applies to every target of the stream; a NO_CHANGE with empty ids
/// and a read time is the "global consistent snapshot" both client families wait for
/// (docs/reference/grpc-and-listen.md §8.1, pitfall table §13).
/// Source: googleapis `firestore.proto`; docs/reference/grpc-and-listen.md §6.5.
extension TargetChange {
    /// Writes the fields of the TargetChange.
    func encode(into w: inout ProtoWriter) {
        if targetChangeType != .noChange { w.writeInt32Field(1, targetChangeType.rawValue) }
        w.writePackedInt32Field(2, targetIDs)
        if let cause { w.writeMessageField(3) { FirestoreProto.encodeStatus(cause, into: &$0) } }
        if !resumeToken.isEmpty { w.writeBytesField(4, resumeToken) }
        if let t = readTime { FirestoreProto.writeTimestampField(6, t, into: &w) }
    }
}
