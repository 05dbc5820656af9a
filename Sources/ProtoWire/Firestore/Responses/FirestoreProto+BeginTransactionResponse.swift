import FirestoreModel
import FirestoreRPC

/// `BeginTransactionResponse`: 1 transaction.
/// Source: googleapis `firestore.proto`; reference §6.5.
extension BeginTransactionResponse {
    /// Serializes the response.
    public func serializedBytes() -> [UInt8] {
        var w = ProtoWriter()
        if !transaction.isEmpty { w.writeBytesField(1, transaction) }
        return w.bytes
    }
}
