import FirestoreModel
import FirestoreRPC

extension ListenRequest {
    /// Decodes a serialized ListenRequest.
    /// - Parameter streamDatabase: the database of an earlier message on the stream, used
    ///   when this one has none.
    /// - Throws: `INVALID_ARGUMENT` for malformed bytes (outside an add_target body), an
    ///   invalid database, or an add_target with no database known.
    public init(serializedBytes bytes: [UInt8], streamDatabase: DatabaseID? = nil) throws(FirestoreError) {
        self = try FirestoreProto.decodeListenRequest(bytes, streamDatabase: streamDatabase)
    }
}

extension FirestoreProto {
    /// `ListenRequest`: 1 database, oneof target_change 2 add_target Target / 3 remove_target
    /// int32, 4 labels.
    ///
    /// An add_target whose body cannot be used (malformed query, a name in another database,
    /// a pipeline target) does not fail the request: it decodes to `.rejectedTarget`, which
    /// the Listen handler answers with TargetChange REMOVE carrying the error as `cause` — ending
    /// the stream instead would make mobile clients reconnect forever (docs/reference/grpc-and-listen.md §8.1).
    /// Source: googleapis `firestore.proto`; docs/reference/grpc-and-listen.md §6.5, §8.
    static func decodeListenRequest(_ bytes: [UInt8], streamDatabase: DatabaseID?) throws(FirestoreError) -> ListenRequest {
        return try decodeRequest("ListenRequest", bytes) { (reader) throws(ProtoWireError) in
            enum RawChange {
                case add(ProtoReader)
                case remove(Int32)
            }
            var r = reader
            var databaseName = ""
            var databaseAt = 0
            var raw: RawChange?
            var request = ListenRequest()
            while let tag = try r.readTag() {
                switch (tag.fieldNumber, tag.wireType) {
                case (1, .len):
                    databaseAt = r.offset
                    databaseName = try within("database") { () throws(ProtoWireError) in try r.readString() }
                case (2, .len): raw = .add(try r.readSubmessage())
                case (3, .varint): raw = .remove(try r.readInt32())
                case (4, .len):
                    try within("labels") { () throws(ProtoWireError) in
                        try decodeStringMapEntry(r.readSubmessage(), into: &request.labels)
                    }
                default: try r.skipField(tag)
                }
            }
            if !databaseName.isEmpty {
                request.database = try within("database") { () throws(ProtoWireError) in try decodeDatabase(databaseName, at: databaseAt) }
            }
            switch raw {
            case nil: break
            case .remove(let id): request.targetChange = .removeTarget(id)
            case .add(let targetReader):
                guard let database = request.database ?? streamDatabase else {
                    throw ProtoWireError(.invalidValue("database is required."), offset: 0, fieldPath: ["database"])
                }
                request.targetChange = try within("add_target") { () throws(ProtoWireError) in
                    try decodeAddTarget(targetReader, database: database)
                }
            }
            return request
        }
    }

    /// Decodes an add_target: a wire-level scan first (its errors fail the request), then the
    /// body, whose errors become `.rejectedTarget` with the target id.
    fileprivate static func decodeAddTarget(_ reader: ProtoReader, database: DatabaseID) throws(ProtoWireError) -> ListenRequest.TargetChange {
        enum RawType {
            case query(ProtoReader)
            case documents(ProtoReader)
            case pipeline
        }
        enum RawResume {
            case token([UInt8])
            case readTime(ProtoReader)
        }
        var r = reader
        let start = r.offset
        var rawType: RawType?
        var rawResume: RawResume?
        var targetID: Int32 = 0
        var once = false
        var expectedCount: ProtoReader?
        while let tag = try r.readTag() {
            switch (tag.fieldNumber, tag.wireType) {
            case (2, .len): rawType = .query(try r.readSubmessage())
            case (3, .len): rawType = .documents(try r.readSubmessage())
            case (13, .len):
                _ = try r.readLengthDelimited()
                rawType = .pipeline
            case (4, .len): rawResume = .token(try r.readBytes())
            case (11, .len): rawResume = .readTime(try r.readSubmessage())
            case (5, .varint): targetID = try r.readInt32()
            case (6, .varint): once = try r.readBool()
            case (12, .len): expectedCount = try r.readSubmessage()
            default: try r.skipField(tag)
            }
        }
        do throws(ProtoWireError) {
            let targetType: Target.TargetType
            switch rawType {
            case nil:
                throw ProtoWireError(.invalidValue("a target must set query or documents."), offset: start)
            case .pipeline:
                throw ProtoWireError(.unsupported("pipeline_query targets are not supported."), offset: start, fieldPath: ["pipeline_query"])
            case .query(let q):
                targetType = .query(try within("query") { () throws(ProtoWireError) in try decodeQueryTarget(q, database: database) })
            case .documents(let d):
                targetType = .documents(try within("documents") { () throws(ProtoWireError) in try decodeDocumentsTarget(d, database: database) })
            }
            var resumeType: Target.ResumeType?
            switch rawResume {
            case nil: break
            case .token(let token): resumeType = .resumeToken(token)
            case .readTime(let t):
                resumeType = .readTime(try within("read_time") { () throws(ProtoWireError) in try decodeTimestamp(t) })
            }
            let count = try expectedCount.map { (c) throws(ProtoWireError) in
                try within("expected_count") { () throws(ProtoWireError) in try decodeInt32Value(c) }
            }
            return .addTarget(
                Target(targetID: targetID, targetType: targetType, resumeType: resumeType, once: once, expectedCount: count))
        } catch {
            var e = error
            e.fieldPath.insert("add_target", at: 0)
            return .rejectedTarget(targetID: targetID, error: e.firestoreError(decoding: "ListenRequest"))
        }
    }

    /// Decodes Target.QueryTarget (1 parent, 2 structured_query).
    fileprivate static func decodeQueryTarget(_ reader: ProtoReader, database: DatabaseID) throws(ProtoWireError) -> QueryTarget {
        var r = reader
        let start = r.offset
        var fields = QueryTargetFields()
        fields.parentAt = r.offset
        while let tag = try r.readTag() {
            if try !fields.read(tag, from: &r) { try r.skipField(tag) }
        }
        let (parentName, parentAt, query) = (fields.parentName, fields.parentAt, fields.query)
        let parent = try within("parent") { () throws(ProtoWireError) in
            guard !parentName.isEmpty else { throw ProtoWireError(.invalidValue("parent is required."), offset: start) }
            return try checked(at: parentAt) { () throws(FirestoreError) in try parentPath(parentName, in: database) }
        }
        guard let query else {
            throw ProtoWireError(.invalidValue("structured_query is required."), offset: start, fieldPath: ["structured_query"])
        }
        return QueryTarget(parent: parent, query: query)
    }

    /// Decodes Target.DocumentsTarget (2 documents).
    fileprivate static func decodeDocumentsTarget(_ reader: ProtoReader, database: DatabaseID) throws(ProtoWireError) -> [ResourcePath] {
        var r = reader
        var paths: [ResourcePath] = []
        while let tag = try r.readTag() {
            switch (tag.fieldNumber, tag.wireType) {
            case (2, .len):
                let i = paths.count
                let at = r.offset
                paths.append(
                    try within("documents[\(i)]") { () throws(ProtoWireError) in
                        try decodeDocumentPath(try r.readString(), in: database, at: at)
                    })
            default: try r.skipField(tag)
            }
        }
        return paths
    }
}
