import FirestoreModel
import FirestoreRPC

extension BatchWriteRequest {
    /// Decodes a serialized BatchWriteRequest.
    /// - Throws: `INVALID_ARGUMENT` for malformed bytes, a missing database, or a bad write.
    public init(serializedBytes bytes: [UInt8]) throws(FirestoreError) {
        self = try FirestoreProto.decodeBatchWriteRequest(bytes)
    }
}

extension FirestoreProto {
    /// `BatchWriteRequest`: 1 database, 2 writes, 3 labels map<string,string>.
    /// Source: googleapis `firestore.proto`; docs/reference/grpc-and-listen.md §6.5, §7.
    static func decodeBatchWriteRequest(_ bytes: [UInt8]) throws(FirestoreError) -> BatchWriteRequest {
        return try decodeRequest("BatchWriteRequest", bytes) { (reader) throws(ProtoWireError) in
            var r = reader
            var databaseName = ""
            var databaseAt = 0
            var writeReaders: [ProtoReader] = []
            var labels: [String: String] = [:]
            while let tag = try r.readTag() {
                switch (tag.fieldNumber, tag.wireType) {
                case (1, .len):
                    databaseAt = r.offset
                    databaseName = try within("database") { () throws(ProtoWireError) in try r.readString() }
                case (2, .len): writeReaders.append(try r.readSubmessage())
                case (3, .len):
                    try within("labels") { () throws(ProtoWireError) in try decodeStringMapEntry(r.readSubmessage(), into: &labels) }
                default: try r.skipField(tag)
                }
            }
            let database = try within("database") { () throws(ProtoWireError) in try decodeDatabase(databaseName, at: databaseAt) }
            let writes = try decodeWrites(writeReaders, field: "writes", database: database)
            return BatchWriteRequest(database: database, writes: writes, labels: labels)
        }
    }
}
