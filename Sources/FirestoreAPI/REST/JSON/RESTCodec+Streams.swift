import FirestoreModel
import FirestoreRPC
import GoogleWire
import ProtoWire

/// The Listen and Write streams' messages in proto3 JSON, as the web SDK sends and reads them
/// over WebChannel (`req0___data__={"database":…,"addTarget":…}`; back-channel payloads
/// `[{"targetChange":…}]`). The same requests the gRPC decoder produces, so the stream logic
/// cannot tell the transports apart.
/// Source: googleapis `firestore.proto` (ListenRequest, Target, ListenResponse, WriteRequest,
/// WriteResponse), `write.proto`; docs/reference/grpc-and-listen.md §6, §8.
extension RESTCodec {
    /// Decodes a `ListenRequest`. As over gRPC, a malformed target body (an unknown member, a
    /// bad query) does not fail the request: it decodes to `.rejectedTarget` with the target's
    /// id, which the Listen stream answers with TargetChange REMOVE carrying the error.
    /// - Parameter streamDatabase: the database an earlier request of the stream (or the
    ///   channel's `database` parameter) named, used when this one names none.
    /// - Throws: `.invalidArgument` for a malformed request outside a target body, or a target
    ///   with no database to resolve it in.
    public static func decodeListenRequest(_ json: JSONValue, streamDatabase: DatabaseID?)
        throws(FirestoreError) -> ListenRequest
    {
        var reader = try JSONObjectReader(json, at: "")
        var request = ListenRequest()
        if let d = reader.take("database") {
            let name = try string(d, at: "database")
            if !name.isEmpty { request.database = try FirestoreProto.databaseID(fromName: name) }
        }
        if let labels = reader.take("labels") { request.labels = try stringMap(labels, at: "labels") }
        let add = reader.take("addTarget")
        let remove = reader.take("removeTarget")
        try reader.finish()
        switch (add, remove) {
        case (nil, nil):
            break
        case (.some, .some):
            throw .invalidArgument("Invalid JSON payload received. ListenRequest sets both addTarget and removeTarget.")
        case (nil, let remove?):
            request.targetChange = .removeTarget(try decodeInt32(remove, at: "removeTarget"))
        case (let add?, nil):
            guard let database = request.database ?? streamDatabase else {
                throw .invalidArgument("database is required.")
            }
            request.targetChange = try decodeAddTarget(add, database: database)
        }
        return request
    }

    /// A `Target`; errors in its body become `.rejectedTarget` (see `decodeListenRequest`).
    private static func decodeAddTarget(_ json: JSONValue, database: DatabaseID)
        throws(FirestoreError) -> ListenRequest.TargetChange
    {
        guard case .object(let members) = json else {
            throw invalid("addTarget", "expected a JSON object, got \(json.typeName).")
        }
        var targetID: Int32 = 0
        if let id = members.first(where: { ProtoJSON.lowerCamelCase($0.key) == "targetId" })?.value {
            targetID = try decodeInt32(id, at: "addTarget.targetId")
        }
        do throws(FirestoreError) {
            return .addTarget(try decodeTarget(json, targetID: targetID, database: database))
        } catch {
            return .rejectedTarget(targetID: targetID, error: error)
        }
    }

    private static func decodeTarget(_ json: JSONValue, targetID: Int32, database: DatabaseID)
        throws(FirestoreError) -> Target
    {
        var reader = try JSONObjectReader(json, at: "addTarget")
        _ = reader.take("targetId")
        let query = reader.take("query")
        let documents = reader.take("documents")
        let token = reader.take("resumeToken")
        let readTime = reader.take("readTime")
        let once = try reader.take("once").map { (j) throws(FirestoreError) in try bool(j, at: "addTarget.once") }
        let expectedCount = try reader.take("expectedCount").map { (j) throws(FirestoreError) in
            try decodeInt32(j, at: "addTarget.expectedCount")
        }
        if reader.take("pipelineQuery") != nil {
            throw .invalidArgument("pipeline_query targets are not supported.")
        }
        try reader.finish()
        let targetType: Target.TargetType
        switch (query, documents) {
        case (let q?, nil):
            targetType = .query(try decodeQueryTarget(q, database: database))
        case (nil, let d?):
            var r = try JSONObjectReader(d, at: "addTarget.documents")
            let names = try r.take("documents").map { (j) throws(FirestoreError) in
                try array(j, at: "addTarget.documents.documents")
            } ?? []
            try r.finish()
            var paths: [ResourcePath] = []
            for (i, name) in names.enumerated() {
                let at = "addTarget.documents.documents[\(i)]"
                paths.append(try decodeDocumentName(try string(name, at: at), database: database, at: at))
            }
            targetType = .documents(paths)
        default:
            throw .invalidArgument("Invalid value at 'addTarget': a target must set query or documents.")
        }
        var resumeType: Target.ResumeType?
        if let token, token != .string("") {
            resumeType = .resumeToken(try decodeBytes(token, at: "addTarget.resumeToken"))
        } else if let readTime {
            resumeType = .readTime(try decodeTimestamp(readTime, at: "addTarget.readTime"))
        }
        return Target(
            targetID: targetID, targetType: targetType, resumeType: resumeType, once: once ?? false,
            expectedCount: expectedCount)
    }

    /// `Target.QueryTarget` `{parent, structuredQuery}`; the parent must lie in `database`.
    private static func decodeQueryTarget(_ json: JSONValue, database: DatabaseID)
        throws(FirestoreError) -> QueryTarget
    {
        var reader = try JSONObjectReader(json, at: "addTarget.query")
        let parentName = try reader.take("parent").map { (j) throws(FirestoreError) in
            try string(j, at: "addTarget.query.parent")
        }
        let sq = reader.take("structuredQuery")
        try reader.finish()
        guard let parentName, !parentName.isEmpty else { throw .invalidArgument("parent is required.") }
        let (named, parent) = try FirestoreProto.parseParent(parentName)
        guard named == database else {
            throw .invalidArgument("Name \"\(parentName)\" is not in database \"\(database.name)\".")
        }
        guard let sq else { throw .invalidArgument("structured_query is required.") }
        return QueryTarget(parent: parent, query: try decodeStructuredQuery(sq, at: "addTarget.query.structuredQuery"))
    }

    /// Decodes a `WriteRequest`: the first names the database (and no stream id); later ones
    /// carry the stream token of the last response and the writes.
    /// - Parameter streamDatabase: as in `decodeListenRequest`.
    /// - Throws: `.invalidArgument` for a malformed request or write.
    public static func decodeWriteRequest(_ json: JSONValue, streamDatabase: DatabaseID?)
        throws(FirestoreError) -> WriteRequest
    {
        var reader = try JSONObjectReader(json, at: "")
        var request = WriteRequest()
        if let d = reader.take("database") {
            let name = try string(d, at: "database")
            if !name.isEmpty { request.database = try FirestoreProto.databaseID(fromName: name) }
        }
        if let s = reader.take("streamId") { request.streamID = try string(s, at: "streamId") }
        if let t = reader.take("streamToken") { request.streamToken = try decodeBytes(t, at: "streamToken") }
        if let labels = reader.take("labels") { request.labels = try stringMap(labels, at: "labels") }
        let writes = try reader.take("writes").map { (j) throws(FirestoreError) in try array(j, at: "writes") } ?? []
        try reader.finish()
        if !writes.isEmpty {
            guard let database = request.database ?? streamDatabase else {
                throw .invalidArgument("database is required.")
            }
            for (i, w) in writes.enumerated() {
                request.writes.append(try decodeWrite(w, database: database, at: "writes[\(i)]"))
            }
        }
        return request
    }

    /// A `map<string, string>` (labels).
    private static func stringMap(_ json: JSONValue, at path: String) throws(FirestoreError) -> [String: String] {
        guard case .object(let members) = json else {
            throw invalid(path, "expected a JSON object, got \(json.typeName).")
        }
        var map: [String: String] = [:]
        for m in members { map[m.key] = try string(m.value, at: path + "." + m.key) }
        return map
    }

    /// A `ListenResponse` as JSON, with names in `database`. Defaults are omitted as proto3
    /// JSON omits them (`NO_CHANGE`, empty id lists, an empty resume token).
    public static func encodeListenResponse(_ response: ListenResponse, database: DatabaseID) -> JSONValue {
        func ids(_ list: [Int32]) -> JSONValue { .array(list.map { .integer($0) }) }
        switch response {
        case .targetChange(let change):
            var m: [JSONValue.Member] = []
            if let name = targetChangeTypeName(change.targetChangeType) {
                m.append(.init("targetChangeType", .string(name)))
            }
            if !change.targetIDs.isEmpty { m.append(.init("targetIds", ids(change.targetIDs))) }
            if let cause = change.cause {
                let status: [JSONValue.Member] = [
                    .init("code", .integer(cause.code.rawValue)), .init("message", .string(cause.message)),
                ]
                m.append(.init("cause", .object(status)))
            }
            if !change.resumeToken.isEmpty { m.append(.init("resumeToken", encodeBytes(change.resumeToken))) }
            if let t = change.readTime { m.append(.init("readTime", encodeTimestamp(t))) }
            return .object([.init("targetChange", .object(m))])
        case .documentChange(let document, let targetIDs, let removed):
            var body: [UInt8] = []
            writeDocument(document, database: database, into: &body)
            var m: [JSONValue.Member] = [.init("document", .fragment(body))]
            if !targetIDs.isEmpty { m.append(.init("targetIds", ids(targetIDs))) }
            if !removed.isEmpty { m.append(.init("removedTargetIds", ids(removed))) }
            return .object([.init("documentChange", .object(m))])
        case .documentDelete(let path, let removed, let readTime), .documentRemove(let path, let removed, let readTime):
            var m: [JSONValue.Member] = [.init("document", .string(database.resourceName(path)))]
            if !removed.isEmpty { m.append(.init("removedTargetIds", ids(removed))) }
            if let t = readTime { m.append(.init("readTime", encodeTimestamp(t))) }
            let key: String
            if case .documentDelete = response { key = "documentDelete" } else { key = "documentRemove" }
            return .object([.init(key, .object(m))])
        case .filter(let filter):
            var m: [JSONValue.Member] = [
                .init("targetId", .integer(filter.targetID)), .init("count", .integer(filter.count)),
            ]
            if let bloom = filter.unchangedNames {
                let bits: JSONValue = .object([
                    .init("bitmap", encodeBytes(bloom.bitmap)), .init("padding", .integer(bloom.padding)),
                ])
                let names: JSONValue = .object([.init("bits", bits), .init("hashCount", .integer(bloom.hashCount))])
                m.append(.init("unchangedNames", names))
            }
            return .object([.init("filter", .object(m))])
        }
    }

    /// The proto3 JSON name of a target change type; nil for `NO_CHANGE`, the default omitted.
    private static func targetChangeTypeName(_ type: TargetChange.TargetChangeType) -> String? {
        switch type {
        case .noChange: nil
        case .add: "ADD"
        case .remove: "REMOVE"
        case .current: "CURRENT"
        case .reset: "RESET"
        }
    }

    /// A `WriteResponse` as JSON: `streamId` (the first response only), `streamToken`,
    /// `writeResults` and `commitTime` when there are writes.
    public static func encodeWriteResponse(_ response: WriteResponse) -> JSONValue {
        var m: [JSONValue.Member] = []
        if !response.streamID.isEmpty { m.append(.init("streamId", .string(response.streamID))) }
        m.append(.init("streamToken", encodeBytes(response.streamToken)))
        if !response.writeResults.isEmpty {
            m.append(.init("writeResults", .array(response.writeResults.map(encodeWriteResult))))
        }
        if let t = response.commitTime { m.append(.init("commitTime", encodeTimestamp(t))) }
        return .object(m)
    }
}
