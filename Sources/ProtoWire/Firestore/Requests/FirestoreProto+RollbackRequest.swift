import FirestoreModel
import FirestoreRPC

extension RollbackRequest {
    /// Decodes a serialized RollbackRequest.
    /// - Throws: `INVALID_ARGUMENT` for malformed bytes or a missing/invalid database.
    public init(serializedBytes bytes: [UInt8]) throws(FirestoreError) {
        self = try FirestoreProto.decodeRollbackRequest(bytes)
    }
}

extension FirestoreProto {
    /// `RollbackRequest`: 1 database, 2 transaction. The response is `Empty`.
    /// Source: googleapis `firestore.proto`; docs/reference/grpc-and-listen.md §6.5.
    static func decodeRollbackRequest(_ bytes: [UInt8]) throws(FirestoreError) -> RollbackRequest {
        return try decodeRequest("RollbackRequest", bytes) { (reader) throws(ProtoWireError) in
            var r = reader
            var databaseName = ""
            var databaseAt = 0
            var transaction: [UInt8] = []
            while let tag = try r.readTag() {
                switch (tag.fieldNumber, tag.wireType) {
                case (1, .len):
                    databaseAt = r.offset
                    databaseName = try within("database") { () throws(ProtoWireError) in try r.readString() }
                case (2, .len): transaction = try r.readBytes()
                default: try r.skipField(tag)
                }
            }
            let database = try within("database") { () throws(ProtoWireError) in try decodeDatabase(databaseName, at: databaseAt) }
            return RollbackRequest(database: database, transaction: transaction)
        }
    }
}
