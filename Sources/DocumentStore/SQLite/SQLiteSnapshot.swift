import FirestoreModel

/// A WAL read transaction on one pooled reader connection: a consistent view of the store
/// at the moment `SQLiteDocumentStore.snapshot()` returned. Used by one task at a time.
final class SQLiteSnapshot: StoreSnapshot {
    /// The store the connection returns to on `close()`.
    let store: SQLiteDocumentStore
    /// The reader connection inside its read transaction; nil once closed.
    private(set) var connection: SQLiteConnection?
    /// Database row ids looked up in this snapshot (nil = no such database yet).
    private var databaseIDs: [String: Int64?] = [:]
    /// Documents decoded by queries so far: lets tests check a query did not read everything.
    var documentsDecoded = 0
    /// Index entries (or, for a name-order scan, document rows) queries have read so far.
    var indexRowsRead = 0
    /// The plan of the last `runQuery`, for tests and diagnostics.
    var lastPlan: QueryPlan?

    /// The store's commit count this view is known to show, or nil when unknown.
    let sequence: UInt64?
    /// For a point-in-time view, the read time: only versions current at that moment are
    /// seen (latest versions updated at or before it, archived ones that ended after it).
    let readTime: Timestamp?

    /// Takes over `connection`, already inside `BEGIN` with its snapshot pinned at `sequence`.
    init(store: SQLiteDocumentStore, connection: SQLiteConnection, sequence: UInt64?, readTime: Timestamp? = nil) {
        self.store = store
        self.connection = connection
        self.sequence = sequence
        self.readTime = readTime
    }

    deinit { close() }

    /// Ends the read transaction and returns the connection to the pool.
    func close() {
        guard let connection else { return }
        self.connection = nil
        do {
            try connection.run("COMMIT")
            store.returnReader(connection)
        } catch {
            connection.close()  // state unknown: do not reuse it
        }
    }

    /// Runs `body` with the open connection, converting errors to `FirestoreError`.
    func reading<T>(_ body: (SQLiteConnection) throws -> T) throws(FirestoreError) -> T {
        guard let connection else { throw .internalError("The snapshot is closed.") }
        do {
            return try body(connection)
        } catch {
            throw error.firestoreError
        }
    }

    /// The row id of `database` in this snapshot, or nil when it has no rows yet.
    func databaseRowID(_ database: DatabaseID, _ connection: SQLiteConnection) throws -> Int64? {
        if let known = databaseIDs[database.name] { return known }
        let select = try connection.prepare("SELECT id FROM databases WHERE name = ?1")
        defer { select.reset() }
        try select.bind(database.name, at: 1)
        let id = try select.step() ? select.int64(at: 0) : nil
        databaseIDs[database.name] = id
        return id
    }

    /// Decodes the document columns (`SQLiteSchema.documentColumns`) starting at `column`.
    func decodeDocument(_ statement: SQLiteStatement, from column: Int32) throws -> Document {
        documentsDecoded += 1
        return Document(
            path: try OrderedKey.decodePath(statement.blob(at: column)),
            encodedFields: try EncodedFields(validating: Array(statement.blob(at: column + 1))),
            createTime: Timestamp(
                seconds: statement.int64(at: column + 2), nanos: Int32(truncatingIfNeeded: statement.int64(at: column + 3))),
            updateTime: Self.updateTime(statement, documentColumnsFrom: column))
    }

    /// The update time in the document columns (`SQLiteSchema.documentColumns`) starting at `column`.
    static func updateTime(_ statement: SQLiteStatement, documentColumnsFrom column: Int32) -> Timestamp {
        Timestamp(seconds: statement.int64(at: column + 4), nanos: Int32(truncatingIfNeeded: statement.int64(at: column + 5)))
    }

    /// One point lookup on `documents_by_path` (and `document_versions_by_path` at a read time).
    func document(_ path: ResourcePath, in database: DatabaseID) throws(FirestoreError) -> Document? {
        if let readTime {
            return try versions(at: readTime, in: database, .path(OrderedKey.path(path))).first
        }
        return try reading { connection in
            guard path.isDocument, let db = try databaseRowID(database, connection) else { return nil }
            let select = try connection.prepare(
                "SELECT \(SQLiteSchema.documentColumns) FROM documents AS d WHERE d.db = ?1 AND d.path = ?2")
            defer { select.reset() }
            try select.bind(db, at: 1)
            try select.bind(OrderedKey.path(path), at: 2)
            return try select.step() ? try decodeDocument(select, from: 0) : nil
        }
    }

    /// One range of `documents_by_parent` in name order, starting after `startAfter`.
    func listDocuments(in collection: ResourcePath, database: DatabaseID, startAfter: ResourcePath?, limit: Int?)
        throws(FirestoreError) -> [Document]
    {
        if let readTime {
            var children = try versions(at: readTime, in: database, .children(of: collection))
            if let startAfter { children.removeAll { !(startAfter < $0.path) } }
            children.sort { $0.path < $1.path }
            if let limit, children.count > limit { children.removeLast(children.count - max(limit, 0)) }
            return children
        }
        return try reading { connection in
            guard let db = try databaseRowID(database, connection) else { return [] }
            let select = try connection.prepare(
                """
                SELECT \(SQLiteSchema.documentColumns) FROM documents AS d
                WHERE d.db = ?1 AND d.parent = ?2 AND d.path > ?3 ORDER BY d.path LIMIT ?4
                """)
            defer { select.reset() }
            try select.bind(db, at: 1)
            try select.bind(OrderedKey.path(collection), at: 2)
            try select.bind(startAfter.map(OrderedKey.path) ?? [], at: 3)
            try select.bind(Int64(limit.map { max($0, 0) } ?? -1), at: 4)
            var out: [Document] = []
            while try select.step() { out.append(try decodeDocument(select, from: 0)) }
            return out
        }
    }

    /// Skip-scan: one index seek per child, whatever the size of the subtrees.
    func missingDocuments(in collection: ResourcePath, database: DatabaseID) throws(FirestoreError) -> [ResourcePath] {
        if let readTime {
            let paths = Set(try versions(at: readTime, in: database, .descendants(of: collection)).map(\.path))
            let depth = collection.segments.count + 1
            var missing = Set<ResourcePath>()
            for path in paths where path.segments.count > depth {
                let child = ResourcePath(Array(path.segments.prefix(depth)))
                if !paths.contains(child) { missing.insert(child) }
            }
            return missing.sorted()
        }
        return try reading { connection in
            guard let db = try databaseRowID(database, connection) else { return [] }
            let prefix = OrderedKey.path(collection)
            let depth = collection.segments.count + 1
            var missing: [ResourcePath] = []
            var cursor = prefix
            while let next = try firstPath(after: cursor, before: OrderedKey.descendantsEnd(of: prefix), db: db, connection) {
                guard next.segments.count >= depth else { break }
                let child = ResourcePath(Array(next.segments.prefix(depth)))
                if next.segments.count > depth { missing.append(child) }  // its own row would have come first
                cursor = OrderedKey.descendantsEnd(of: OrderedKey.path(child))
            }
            return missing
        }
    }

    /// Skip-scan over the subtree of `parent`: one index seek per collection id.
    func collectionIDs(under parent: ResourcePath, in database: DatabaseID) throws(FirestoreError) -> [String] {
        if let readTime {
            let depth = parent.segments.count
            let docs = try versions(at: readTime, in: database, .descendants(of: parent))
            return Set(docs.compactMap { $0.path.segments.count > depth ? $0.path.segments[depth] : nil })
                .sorted(by: utf8Less)
        }
        return try reading { connection in
            guard let db = try databaseRowID(database, connection) else { return [] }
            let prefix = OrderedKey.path(parent)
            let depth = parent.segments.count
            var ids: [String] = []
            var cursor = prefix
            while let next = try firstPath(after: cursor, before: OrderedKey.descendantsEnd(of: prefix), db: db, connection) {
                guard next.segments.count > depth else { break }
                let id = next.segments[depth]
                ids.append(id)
                cursor = OrderedKey.descendantsEnd(of: OrderedKey.path(parent.appending(id)))
            }
            return ids.sorted(by: utf8Less)
        }
    }

    /// The first document path with key in `(after, before)`.
    private func firstPath(after: [UInt8], before: [UInt8], db: Int64, _ connection: SQLiteConnection) throws -> ResourcePath? {
        let select = try connection.prepare(
            "SELECT path FROM documents WHERE db = ?1 AND path > ?2 AND path < ?3 ORDER BY path LIMIT 1")
        defer { select.reset() }
        try select.bind(db, at: 1)
        try select.bind(after, at: 2)
        try select.bind(before, at: 3)
        return try select.step() ? try OrderedKey.decodePath(select.blob(at: 0)) : nil
    }
}
