import FirestoreModel
import FirestoreRPC

/// `BeginTransactionResponse`: 1 transaction.
/// Source: googleapis `firestore.proto`; docs/reference/grpc-and-listen.md §6.5.
extension BeginTransactionResponse {
    /// Serializes the response.
    public func serializedBytes() -> [UInt8] {
        var w = ProtoWriter()
        if !transaction.isEmpty { w.writeBytesField(1, transaction) }
        return w.bytes
    }
}
