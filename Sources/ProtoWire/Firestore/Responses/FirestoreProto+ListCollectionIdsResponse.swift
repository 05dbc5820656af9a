import FirestoreModel
import FirestoreRPC

/// `ListCollectionIdsResponse`: 1 collection_ids, 2 next_page_token.
/// Source: googleapis `firestore.proto`; docs/reference/grpc-and-listen.md §6.5, §7.
extension ListCollectionIdsResponse {
    /// Serializes the response.
    public func serializedBytes() -> [UInt8] {
        var w = ProtoWriter()
        for id in collectionIDs { w.writeStringField(1, id) }
        if !nextPageToken.isEmpty { w.writeStringField(2, nextPageToken) }
        return w.bytes
    }
}
