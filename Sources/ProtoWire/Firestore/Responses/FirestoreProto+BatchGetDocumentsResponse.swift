import FirestoreModel
import FirestoreRPC

/// `BatchGetDocumentsResponse`: oneof result 1 found Document / 2 missing string,
/// 3 transaction, 4 read_time.
///
/// Every message with a result must carry `readTime` (mobile fails a `missing` without
/// it); `transaction` only in the first message, when `new_transaction` was requested.
/// Source: googleapis `firestore.proto`; docs/reference/grpc-and-listen.md §6.5, §7.
extension BatchGetDocumentsResponse {
    /// Serializes the response with names in `database`.
    public func serializedBytes(database: DatabaseID) -> [UInt8] {
        var w = ProtoWriter()
        switch result {
        case .found(let d)?: w.writeMessageField(1) { FirestoreProto.encodeDocument(d, database: database, into: &$0) }
        case .missing(let p)?: w.writeStringField(2, database.resourceName(p))
        case nil: break
        }
        if let t = transaction, !t.isEmpty { w.writeBytesField(3, t) }
        if let t = readTime { FirestoreProto.writeTimestampField(4, t, into: &w) }
        return w.bytes
    }
}
