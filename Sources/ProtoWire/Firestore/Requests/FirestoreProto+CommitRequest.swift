import FirestoreModel
import FirestoreRPC

extension CommitRequest {
    /// Decodes a serialized CommitRequest; writes are decoded after the whole message is
    /// scanned, so `database` may appear anywhere.
    /// - Throws: `INVALID_ARGUMENT` for malformed bytes, a missing database, or a bad write
    ///   (named as `writes[i]…`).
    public init(serializedBytes bytes: [UInt8]) throws(FirestoreError) {
        self = try FirestoreProto.decodeCommitRequest(bytes)
    }
}

extension FirestoreProto {
    /// `CommitRequest`: 1 database, 2 writes, 3 transaction (empty ⇒ a non-transactional,
    /// atomic batch). Source: googleapis `firestore.proto`; docs/reference/grpc-and-listen.md §1.4, §6.5, §7.
    static func decodeCommitRequest(_ bytes: [UInt8]) throws(FirestoreError) -> CommitRequest {
        return try decodeRequest("CommitRequest", bytes) { (reader) throws(ProtoWireError) in
            var r = reader
            var databaseName = ""
            var databaseAt = 0
            var writeReaders: [ProtoReader] = []
            var transaction: [UInt8]?
            while let tag = try r.readTag() {
                switch (tag.fieldNumber, tag.wireType) {
                case (1, .len):
                    databaseAt = r.offset
                    databaseName = try within("database") { () throws(ProtoWireError) in try r.readString() }
                case (2, .len): writeReaders.append(try within("writes[\(writeReaders.count)]") { () throws(ProtoWireError) in
                    try r.readSubmessage()
                })
                case (3, .len):
                    let id = try r.readBytes()
                    transaction = id.isEmpty ? nil : id
                default: try r.skipField(tag)
                }
            }
            let database = try within("database") { () throws(ProtoWireError) in try decodeDatabase(databaseName, at: databaseAt) }
            let writes = try decodeWrites(writeReaders, field: "writes", database: database)
            return CommitRequest(database: database, writes: writes, transaction: transaction)
        }
    }

    /// Decodes deferred Write submessages, naming failures `field[i]`.
    static func decodeWrites(_ readers: [ProtoReader], field: String, database: DatabaseID) throws(ProtoWireError) -> [Write] {
        var writes: [Write] = []
        writes.reserveCapacity(readers.count)
        for (i, w) in readers.enumerated() {
            writes.append(try within("\(field)[\(i)]") { () throws(ProtoWireError) in try decodeWrite(w, database: database) })
        }
        return writes
    }
}
