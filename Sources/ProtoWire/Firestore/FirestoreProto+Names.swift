import FirestoreModel

/// Resource names in requests: `projects/{p}/databases/{d}`, `…/documents`, `…/documents/{path}`.
/// Source: docs/reference/grpc-and-listen.md §6.5 (database / parent / name fields), §11 (take the database from the body).
extension FirestoreProto {
    /// Parses `projects/{project}/databases/{database}`.
    /// - Throws: `.invalidArgument` when `name` has another shape or an empty id.
    public static func databaseID(fromName name: String) throws(FirestoreError) -> DatabaseID {
        let segments = name.split(separator: "/", omittingEmptySubsequences: false)
        guard segments.count == 4 else { throw .invalidArgument("Invalid database name \"\(name)\".") }
        return try databaseID(segments, name)
    }

    /// Parses a `parent`: `projects/{p}/databases/{d}/documents` (the root) or
    /// `…/documents/{document path}`.
    /// - Returns: the database and the parent's path relative to its documents root.
    /// - Throws: `.invalidArgument` for another shape, a trailing `/`, or invalid path segments.
    public static func parseParent(_ name: String) throws(FirestoreError) -> (database: DatabaseID, path: ResourcePath) {
        try split(name, expected: "parent", "projects/{p}/databases/{d}/documents[/…]")
    }

    /// Parses a full document name `projects/{p}/databases/{d}/documents/{path}`.
    /// - Throws: `.invalidArgument` for another shape or a path that is not a document.
    public static func parseDocumentName(_ name: String) throws(FirestoreError) -> (database: DatabaseID, path: ResourcePath) {
        let (database, _) = try split(name, expected: "document name", "projects/{p}/databases/{d}/documents/{path}")
        return (database, try database.documentPath(fromName: name))
    }

    /// A parent name that must lie in `database` (e.g. a Listen query target's parent).
    /// - Throws: `.invalidArgument` for a malformed name or one in another database.
    static func parentPath(_ name: String, in database: DatabaseID) throws(FirestoreError) -> ResourcePath {
        let (named, path) = try parseParent(name)
        guard named == database else {
            throw .invalidArgument("Name \"\(name)\" is not in database \"\(database.name)\".")
        }
        return path
    }

    /// Splits `…/documents[/path]` into its database and relative path.
    private static func split(_ name: String, expected what: String, _ shape: String) throws(FirestoreError)
        -> (database: DatabaseID, path: ResourcePath)
    {
        let segments = name.split(separator: "/", maxSplits: 5, omittingEmptySubsequences: false)
        guard segments.count >= 5, segments[4] == "documents", !name.hasSuffix("/") else {
            throw .invalidArgument("Invalid \(what) \"\(name)\": expected \(shape).")
        }
        let database = try databaseID(segments.prefix(4), name)
        return (database, try database.path(fromName: name))
    }

    private static func databaseID(_ segments: some Collection<Substring>, _ name: String) throws(FirestoreError) -> DatabaseID {
        let s = Array(segments)
        guard s.count == 4, s[0] == "projects", s[2] == "databases", !s[1].isEmpty, !s[3].isEmpty else {
            throw .invalidArgument("Invalid database name in \"\(name)\": expected projects/{p}/databases/{d}.")
        }
        return DatabaseID(project: String(s[1]), database: String(s[3]))
    }

    /// `databaseID(fromName:)` inside a decoder.
    static func decodeDatabase(_ name: String, at offset: Int) throws(ProtoWireError) -> DatabaseID {
        guard !name.isEmpty else { throw ProtoWireError(.invalidValue("database is required."), offset: offset) }
        return try checked(at: offset) { () throws(FirestoreError) in try databaseID(fromName: name) }
    }

    /// A document name inside `database`, inside a decoder.
    static func decodeDocumentPath(_ name: String, in database: DatabaseID, at offset: Int) throws(ProtoWireError) -> ResourcePath {
        guard !name.isEmpty else { throw ProtoWireError(.invalidValue("a document name is required."), offset: offset) }
        return try checked(at: offset) { () throws(FirestoreError) in try database.documentPath(fromName: name) }
    }
}

extension FirestoreProto {
    /// `parseDocumentName` inside a decoder.
    static func decodeDocumentName(_ name: String, at offset: Int) throws(ProtoWireError) -> (DatabaseID, ResourcePath) {
        guard !name.isEmpty else { throw ProtoWireError(.invalidValue("a document name is required."), offset: offset) }
        return try checked(at: offset) { () throws(FirestoreError) in try parseDocumentName(name) }
    }

    /// `parseParent` inside a decoder.
    static func decodeParent(_ name: String, at offset: Int) throws(ProtoWireError) -> (DatabaseID, ResourcePath) {
        guard !name.isEmpty else { throw ProtoWireError(.invalidValue("parent is required."), offset: offset) }
        return try checked(at: offset) { () throws(FirestoreError) in try parseParent(name) }
    }

    /// Accumulates the query target every query request (RunQuery, PartitionQuery) and a
    /// Listen `QueryTarget` carry: 1 parent (string), 2 structured_query.
    struct QueryTargetFields {
        /// The parent's resource name as sent ("" when absent).
        var parentName = ""
        /// Where the parent's bytes start (for error offsets).
        var parentAt = 0
        /// The decoded query, when sent.
        var query: StructuredQuery?

        /// Reads `tag` when it is one of the two fields; returns false otherwise.
        mutating func read(_ tag: ProtoTag, from r: inout ProtoReader) throws(ProtoWireError) -> Bool {
            guard tag.wireType == .len else { return false }
            switch tag.fieldNumber {
            case 1:
                parentAt = r.offset
                parentName = try within("parent") { () throws(ProtoWireError) in try r.readString() }
            case 2:
                query = try within("structured_query") { () throws(ProtoWireError) in try decodeStructuredQuery(r.readSubmessage()) }
            default: return false
            }
            return true
        }

        /// The target of a query request (RunQueryRequest, PartitionQueryRequest): the decoded
        /// `parent` and the required `structured_query`.
        /// - Throws: as `decodeParent`; `.invalidValue` when the query is missing (at `start`).
        func queryTarget(start: Int) throws(ProtoWireError) -> (DatabaseID, QueryTarget) {
            let (database, parent) = try within("parent") { () throws(ProtoWireError) in try decodeParent(parentName, at: parentAt) }
            guard let query else {
                throw ProtoWireError(.invalidValue("structured_query is required."), offset: start, fieldPath: ["structured_query"])
            }
            return (database, QueryTarget(parent: parent, query: query))
        }
    }
}
