import FirestoreModel
import FirestoreRPC

/// One message of the Listen stream (oneof response_type: 2 target_change,
/// 3 document_change, 4 document_delete, 6 document_remove, 5 filter).
///
/// DocumentChange: 1 document, 5 target_ids, 6 removed_target_ids. DocumentDelete:
/// 1 document (name), 4 read_time, 6 removed_target_ids. DocumentRemove: 1 document
/// (name), 2 removed_target_ids, 4 read_time. Target id lists are written packed.
/// Source: googleapis `firestore.proto`, `write.proto`; docs/reference/grpc-and-listen.md §1.4, §6.3, §6.5, §8.
extension ListenResponse {
    /// Serializes the message with names in `database`.
    public func serializedBytes(database: DatabaseID) -> [UInt8] {
        var w = ProtoWriter()
        switch self {
        case .targetChange(let change):
            w.writeMessageField(2) { change.encode(into: &$0) }
        case .documentChange(let document, let targetIDs, let removed):
            w.writeMessageField(3) { m in
                m.writeMessageField(1) { FirestoreProto.encodeDocument(document, database: database, into: &$0) }
                m.writePackedInt32Field(5, targetIDs)
                m.writePackedInt32Field(6, removed)
            }
        case .documentDelete(let path, let removed, let readTime):
            w.writeMessageField(4) { m in
                m.writeStringField(1, database.resourceName(path))
                if let t = readTime { FirestoreProto.writeTimestampField(4, t, into: &m) }
                m.writePackedInt32Field(6, removed)
            }
        case .filter(let filter):
            w.writeMessageField(5) { filter.encode(into: &$0) }
        case .documentRemove(let path, let removed, let readTime):
            w.writeMessageField(6) { m in
                m.writeStringField(1, database.resourceName(path))
                m.writePackedInt32Field(2, removed)
                if let t = readTime { FirestoreProto.writeTimestampField(4, t, into: &m) }
            }
        }
        return w.bytes
    }
}
