import FirestoreModel
import FirestoreRPC

extension WriteRequest {
    /// Decodes a serialized WriteRequest.
    /// - Parameter streamDatabase: the database of the stream's first message, used when
    ///   this one has none.
    /// - Throws: `INVALID_ARGUMENT` for malformed bytes, an invalid database, writes with no
    ///   database known, or a bad write.
    public init(serializedBytes bytes: [UInt8], streamDatabase: DatabaseID?) throws(FirestoreError) {
        self = try FirestoreProto.decodeWriteRequest(bytes, streamDatabase: streamDatabase)
    }
}

extension FirestoreProto {
    /// `WriteRequest` of the bidirectional Write stream: 1 database (first message only),
    /// 2 stream_id, 3 writes, 4 stream_token, 5 labels.
    ///
    /// The mobile SDKs send `database` only in the handshake; later messages carry writes and
    /// the last stream token. Writes are decoded against this message's database or, when it
    /// has none, the stream's. Source: googleapis `firestore.proto`; docs/reference/grpc-and-listen.md §6.5, §9.
    static func decodeWriteRequest(_ bytes: [UInt8], streamDatabase: DatabaseID?) throws(FirestoreError) -> WriteRequest {
        return try decodeRequest("WriteRequest", bytes) { (reader) throws(ProtoWireError) in
            var r = reader
            var databaseName = ""
            var databaseAt = 0
            var writeReaders: [ProtoReader] = []
            var request = WriteRequest()
            while let tag = try r.readTag() {
                switch (tag.fieldNumber, tag.wireType) {
                case (1, .len):
                    databaseAt = r.offset
                    databaseName = try within("database") { () throws(ProtoWireError) in try r.readString() }
                case (2, .len): request.streamID = try within("stream_id") { () throws(ProtoWireError) in try r.readString() }
                case (3, .len): writeReaders.append(try r.readSubmessage())
                case (4, .len): request.streamToken = try r.readBytes()
                case (5, .len):
                    try within("labels") { () throws(ProtoWireError) in
                        try decodeStringMapEntry(r.readSubmessage(), into: &request.labels)
                    }
                default: try r.skipField(tag)
                }
            }
            if !databaseName.isEmpty {
                request.database = try within("database") { () throws(ProtoWireError) in try decodeDatabase(databaseName, at: databaseAt) }
            }
            if !writeReaders.isEmpty {
                guard let database = request.database ?? streamDatabase else {
                    throw ProtoWireError(.invalidValue("database is required in the first message of the stream."), offset: 0, fieldPath: ["database"])
                }
                request.writes = try decodeWrites(writeReaders, field: "writes", database: database)
            }
            return request
        }
    }
}
