import FirestoreModel
import FirestoreRPC

extension BatchGetDocumentsRequest {
    /// Decodes a serialized BatchGetDocumentsRequest.
    /// - Throws: `INVALID_ARGUMENT` for malformed bytes, a missing database, or a name
    ///   that is not a document of that database.
    public init(serializedBytes bytes: [UInt8]) throws(FirestoreError) {
        self = try FirestoreProto.decodeBatchGetDocumentsRequest(bytes)
    }
}

extension FirestoreProto {
    /// `BatchGetDocumentsRequest`: 1 database, 2 documents, 3 mask, oneof 4 transaction /
    /// 5 new_transaction / 7 read_time. Source: googleapis `firestore.proto`; docs/reference/grpc-and-listen.md §6.5, §7.
    static func decodeBatchGetDocumentsRequest(_ bytes: [UInt8]) throws(FirestoreError) -> BatchGetDocumentsRequest {
        return try decodeRequest("BatchGetDocumentsRequest", bytes) { (reader) throws(ProtoWireError) in
            var r = reader
            var databaseName = ""
            var databaseAt = 0
            var names: [(String, Int)] = []
            var mask: [FieldPath]?
            var consistency = ReadConsistency.strong
            let selector = ConsistencyFields(transaction: 4, newTransaction: 5, readTime: 7)
            while let tag = try r.readTag() {
                if try selector.read(tag, from: &r, into: &consistency) { continue }
                switch (tag.fieldNumber, tag.wireType) {
                case (1, .len):
                    databaseAt = r.offset
                    databaseName = try within("database") { () throws(ProtoWireError) in try r.readString() }
                case (2, .len):
                    let at = r.offset
                    names.append((try within("documents[\(names.count)]") { () throws(ProtoWireError) in try r.readString() }, at))
                case (3, .len): mask = try within("mask") { () throws(ProtoWireError) in try decodeDocumentMask(r.readSubmessage()) }
                default: try r.skipField(tag)
                }
            }
            let database = try within("database") { () throws(ProtoWireError) in try decodeDatabase(databaseName, at: databaseAt) }
            var paths: [ResourcePath] = []
            paths.reserveCapacity(names.count)
            for (i, (name, at)) in names.enumerated() {
                paths.append(
                    try within("documents[\(i)]") { () throws(ProtoWireError) in try decodeDocumentPath(name, in: database, at: at) })
            }
            return BatchGetDocumentsRequest(database: database, paths: paths, mask: mask, consistency: consistency)
        }
    }
}
