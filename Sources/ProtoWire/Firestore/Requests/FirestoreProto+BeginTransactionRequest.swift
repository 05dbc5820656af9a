import FirestoreModel
import FirestoreRPC

extension BeginTransactionRequest {
    /// Decodes a serialized BeginTransactionRequest.
    /// - Throws: `INVALID_ARGUMENT` for malformed bytes or a missing/invalid database.
    public init(serializedBytes bytes: [UInt8]) throws(FirestoreError) {
        self = try FirestoreProto.decodeBeginTransactionRequest(bytes)
    }
}

extension FirestoreProto {
    /// `BeginTransactionRequest`: 1 database, 2 options (absent ⇒ read-write).
    /// Source: googleapis `firestore.proto`; docs/reference/grpc-and-listen.md §6.5, §10.
    static func decodeBeginTransactionRequest(_ bytes: [UInt8]) throws(FirestoreError) -> BeginTransactionRequest {
        return try decodeRequest("BeginTransactionRequest", bytes) { (reader) throws(ProtoWireError) in
            var r = reader
            var databaseName = ""
            var databaseAt = 0
            var options = TransactionMode.readWrite(retryTransaction: nil)
            while let tag = try r.readTag() {
                switch (tag.fieldNumber, tag.wireType) {
                case (1, .len):
                    databaseAt = r.offset
                    databaseName = try within("database") { () throws(ProtoWireError) in try r.readString() }
                case (2, .len):
                    options = try within("options") { () throws(ProtoWireError) in try decodeTransactionOptions(r.readSubmessage()) }
                default: try r.skipField(tag)
                }
            }
            let database = try within("database") { () throws(ProtoWireError) in try decodeDatabase(databaseName, at: databaseAt) }
            return BeginTransactionRequest(database: database, options: options)
        }
    }
}
