import FirestoreModel

/// One composite index as the Firestore Admin API v1 names and serves it:
/// `projects/{p}/databases/{d}/collectionGroups/{g}/indexes/{id}`, with its serving state.
/// Source: googleapis `google/firestore/admin/v1/index.proto` (`Index`); docs/reference/indexes.md §7.
public struct AdminIndexResource: Sendable, Hashable {
    /// `Index.State`.
    public enum State: String, Sendable, Hashable, CaseIterable {
        /// Being built (`CREATING`).
        case creating = "CREATING"
        /// Built and used by queries (`READY`).
        case ready = "READY"
        /// A build failed (`NEEDS_REPAIR`).
        case needsRepair = "NEEDS_REPAIR"
    }

    /// The database.
    public var database: DatabaseID
    /// The server-assigned index id (the name's last segment).
    public var indexID: String
    /// The index.
    public var index: CompositeIndex
    /// The serving state.
    public var state: State

    /// Creates a resource.
    public init(database: DatabaseID, indexID: String, index: CompositeIndex, state: State = .ready) {
        self.database = database
        self.indexID = indexID
        self.index = index
        self.state = state
    }

    /// `projects/{p}/databases/{d}/collectionGroups/{g}/indexes/{id}`.
    public var name: String {
        "\(database.name)/collectionGroups/\(index.collectionGroup)/indexes/\(indexID)"
    }

    /// The parts of an index name, or nil when `name` is not one.
    public static func parseName(_ name: String) -> (database: DatabaseID, collectionGroup: String, indexID: String)? {
        let s = name.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard s.count == 8, s[0] == "projects", s[2] == "databases", s[4] == "collectionGroups", s[6] == "indexes",
            !s[1].isEmpty, !s[3].isEmpty, !s[5].isEmpty, !s[7].isEmpty
        else { return nil }
        return (DatabaseID(project: s[1], database: s[3]), s[5], s[7])
    }

    /// The REST JSON of the resource: `name`, `queryScope`, `fields` (always ending with
    /// `__name__`, as the API lists them), `state`.
    public var json: JSONValue {
        .object([
            "name": .string(name),
            "queryScope": .string(index.queryScope.rawValue),
            "fields": .array(index.normalizedFields.map(IndexesFile.json)),
            "state": .string(state.rawValue),
        ])
    }

    /// A `ListIndexesResponse`: `{"indexes": [...]}`, `{}` when empty (proto3 JSON omits an
    /// empty repeated field), with `nextPageToken` when given.
    public static func listResponse(_ resources: [AdminIndexResource], nextPageToken: String? = nil) -> JSONValue {
        var members: [JSONValue.Member] = []
        if !resources.isEmpty { members.append(.init("indexes", .array(resources.map(\.json)))) }
        if let t = nextPageToken, !t.isEmpty { members.append(.init("nextPageToken", .string(t))) }
        return .object(members)
    }

    /// The long-running `Operation` a create returns, already done: `name`
    /// (`{database}/operations/{operationID}`), `metadata` (an `IndexOperationMetadata` naming
    /// the index, state `SUCCESSFUL`), `done: true`, `response` (the `Index`).
    /// Hearth builds indexes before answering, so the operation is never pending.
    public func createOperation(operationID: String) -> JSONValue {
        var response = json
        if case .object(var m) = response {
            m.insert(.init("@type", .string("type.googleapis.com/google.firestore.admin.v1.Index")), at: 0)
            response = .object(m)
        }
        return .object([
            "name": .string("\(database.name)/operations/\(operationID)"),
            "metadata": .object([
                "@type": .string("type.googleapis.com/google.firestore.admin.v1.IndexOperationMetadata"),
                "index": .string(name),
                "state": .string("SUCCESSFUL"),
            ]),
            "done": .bool(true),
            "response": response,
        ])
    }

    /// Decodes the REST JSON of a resource (a list entry).
    /// - Throws: `.invalidArgument` for a missing or malformed `name`, `queryScope`,
    ///   `fields` or `state`.
    public static func decode(_ json: JSONValue) throws(FirestoreError) -> AdminIndexResource {
        guard case .string(let name)? = json["name"], let parts = parseName(name) else {
            throw .invalidArgument("Index name must be projects/{p}/databases/{d}/collectionGroups/{g}/indexes/{id}.")
        }
        let index = try decodeIndex(json, collectionGroup: parts.collectionGroup)
        var state = State.ready
        if let s = json["state"] {
            guard case .string(let text) = s, let st = State(rawValue: text) else {
                throw .invalidArgument("Invalid value for Index.state.")
            }
            state = st
        }
        return AdminIndexResource(database: parts.database, indexID: parts.indexID, index: index, state: state)
    }

    /// Decodes the `Index` body of a create request (`POST …/collectionGroups/{g}/indexes`):
    /// `queryScope` (default `COLLECTION`) and `fields`, each with `fieldPath` and exactly
    /// one of `order`, `arrayConfig`. Output-only `name` and `state` are ignored.
    /// - Throws: `.invalidArgument` naming the bad member.
    public static func decodeIndex(_ json: JSONValue, collectionGroup: String) throws(FirestoreError) -> CompositeIndex {
        // The group comes from the (percent-decoded) path: an id as collection ids are
        // checked everywhere else (no '/', not `__.*__`), docs/reference/indexes.md §6.2.
        try ResourcePath([collectionGroup]).validateIDs()
        guard case .object = json else { throw .invalidArgument("Index must be a JSON object.") }
        var scope = IndexQueryScope.collection
        if let s = json["queryScope"], s != .null {
            guard let text = enumName(s, [1: "COLLECTION", 2: "COLLECTION_GROUP"]), let sc = IndexQueryScope(rawValue: text) else {
                throw .invalidArgument("Invalid value for Index.queryScope: must be COLLECTION or COLLECTION_GROUP.")
            }
            scope = sc
        }
        guard case .array(let list)? = json["fields"], !list.isEmpty else {
            throw .invalidArgument("Index.fields must list at least one field.")
        }
        var fields: [IndexField] = []
        for (i, f) in list.enumerated() {
            guard case .string(let p)? = f["fieldPath"] else { throw .invalidArgument("Index.fields[\(i)].fieldPath is required.") }
            let path = try FieldPath(parsing: p)
            let order = f["order"].map { enumName($0, [1: "ASCENDING", 2: "DESCENDING"]) }
            let array = f["arrayConfig"].map { enumName($0, [1: "CONTAINS"]) }
            switch (order, array) {
            case ("ASCENDING"?, nil): fields.append(IndexField(path, .ascending))
            case ("DESCENDING"?, nil): fields.append(IndexField(path, .descending))
            case (nil, "CONTAINS"?): fields.append(IndexField(path, .arrayContains))
            default:
                throw .invalidArgument(
                    "Index.fields[\(i)] needs exactly one of order (ASCENDING, DESCENDING) or arrayConfig (CONTAINS).")
            }
            if let second = IndexesFile.secondArrayField(fields) {
                throw .invalidArgument("Index.fields[\(second)]: an index may have at most one array field (arrayConfig CONTAINS).")
            }
        }
        return CompositeIndex(collectionGroup: collectionGroup, queryScope: scope, fields: fields)
    }

    /// A proto3 JSON enum value: its name, or its number (what clients asking for
    /// `enum-encoding=int`, as the Python Admin client's REST transport does, send); nil
    /// for anything else.
    static func enumName(_ value: JSONValue, _ names: [Int: String]) -> String? {
        switch value {
        case .string(let name): return name
        case .number(let text): return Int(text).flatMap { names[$0] }
        default: return nil
        }
    }
}
