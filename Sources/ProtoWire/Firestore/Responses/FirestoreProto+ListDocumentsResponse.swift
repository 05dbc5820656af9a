import FirestoreModel
import FirestoreRPC

/// `ListDocumentsResponse`: 1 documents repeated Document, 2 next_page_token.
/// Source: googleapis `firestore.proto`; docs/reference/grpc-and-listen.md §6.5, §7.
extension ListDocumentsResponse {
    /// Serializes the response with names in `database`.
    public func serializedBytes(database: DatabaseID) -> [UInt8] {
        var w = ProtoWriter()
        for item in documents {
            switch item {
            case .document(let d): w.writeMessageField(1) { FirestoreProto.encodeDocument(d, database: database, into: &$0) }
            case .missing(let p): w.writeMessageField(1) { $0.writeStringField(1, database.resourceName(p)) }
            }
        }
        if !nextPageToken.isEmpty { w.writeStringField(2, nextPageToken) }
        return w.bytes
    }
}
