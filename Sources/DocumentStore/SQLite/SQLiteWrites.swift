import FirestoreModel

/// The write path of one commit (or index build) inside the writer's open transaction:
/// document rows, the versions they end (`document_versions`), and the entries of every
/// built single-field and composite index of the touched collections.
struct SQLiteWrites {
    /// The writer connection, inside `BEGIN IMMEDIATE`.
    let connection: SQLiteConnection
    /// Row id of the database written.
    let database: Int64
    /// Built indexes of that database by collection id, with their row ids.
    let indexes: [String: [(id: Int64, index: SingleFieldIndex)]]
    /// Built composite indexes of that database by collection id, with their row ids.
    var composites: [String: [(id: Int64, index: CompositeIndex)]] = [:]
    /// The commit's time: the end of every version it replaces or deletes; nil keeps none.
    let commitTime: Timestamp?

    /// Moves the stored version at `pathKey` to `document_versions`, ended at `commitTime`,
    /// unless its update time is `unchanged` (the write left the document as it was).
    private func archive(pathKey: [UInt8], unchanged: Timestamp?) throws {
        guard let commitTime else { return }
        let archive = try connection.prepare(SQLiteSchema.archiveVersion)
        try archive.bind(database, at: 1)
        try archive.bind(pathKey, at: 2)
        try archive.bind(commitTime.seconds, at: 3)
        try archive.bind(Int64(commitTime.nanos), at: 4)
        try archive.bind(unchanged?.seconds ?? -1, at: 5)
        try archive.bind(Int64(unchanged?.nanos ?? -1), at: 6)
        try archive.run()
    }

    /// Creates or replaces `document`, moving its index entries from the old fields to the new.
    /// - Throws: `SQLiteError`, or `FirestoreError` when stored fields are corrupt.
    func put(_ document: Document) throws {
        let pathKey = OrderedKey.path(document.path)
        let parentKey = OrderedKey.path(document.path.parent)
        let built = indexes[document.path.parent.lastSegment] ?? []
        let composite = composites[document.path.parent.lastSegment] ?? []
        // Composite entries the old and new versions share stay as they are: with 4 composite
        // indexes, a write changing no indexed field took a median 0.085 ms instead of 0.12 ms
        // (`StoreBenchmarks.indexWriteCost`, one run each; 0.044 ms with no index).
        var newKeys: [Int64: Set<[UInt8]>] = [:]
        for (id, index) in composite {
            newKeys[id] = Set(index.entryKeys(path: document.path) { document.fields.value(at: $0) })
        }
        var oldKeys: [Int64: Set<[UInt8]>] = [:]
        if !built.isEmpty || !composite.isEmpty {
            oldKeys = try removeEntries(
                path: document.path, pathKey: pathKey, parentKey: parentKey, built: built, composite: composite, keeping: newKeys)
        }
        try archive(pathKey: pathKey, unchanged: document.updateTime)

        let upsert = try connection.prepare(
            """
            INSERT INTO documents(db, path, parent, collection_id, fields,
                                  create_seconds, create_nanos, update_seconds, update_nanos)
            VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
            ON CONFLICT(db, path) DO UPDATE SET fields = excluded.fields,
                create_seconds = excluded.create_seconds, create_nanos = excluded.create_nanos,
                update_seconds = excluded.update_seconds, update_nanos = excluded.update_nanos
            """)
        try upsert.bind(database, at: 1)
        try upsert.bind(pathKey, at: 2)
        try upsert.bind(parentKey, at: 3)
        try upsert.bind(document.path.parent.lastSegment, at: 4)
        try upsert.bind(FieldsCodec.encode(document.fields), at: 5)
        try upsert.bind(document.createTime.seconds, at: 6)
        try upsert.bind(Int64(document.createTime.nanos), at: 7)
        try upsert.bind(document.updateTime.seconds, at: 8)
        try upsert.bind(Int64(document.updateTime.nanos), at: 9)
        try upsert.run()

        for (id, index) in built {
            try Self.insertEntries(
                index.entryKeys(for: document.fields.value(at: index.field)), index: id, parent: index.entryParent(parentKey), path: pathKey,
                with: Self.insertEntry, connection: connection)
        }
        for (id, index) in composite {
            let keys = (newKeys[id] ?? []).subtracting(oldKeys[id] ?? [])
            try Self.insertEntries(
                keys.sorted(by: bytesLess), index: id, parent: index.entryParent(parentKey), path: pathKey,
                with: Self.insertCompositeEntry, connection: connection)
        }
    }

    /// Deletes the document at `path` (no-op when missing) and its index entries.
    /// - Throws: `SQLiteError`, or `FirestoreError` when stored fields are corrupt.
    func delete(_ path: ResourcePath) throws {
        let pathKey = OrderedKey.path(path)
        let built = indexes[path.parent.lastSegment] ?? []
        let composite = composites[path.parent.lastSegment] ?? []
        if !built.isEmpty || !composite.isEmpty {
            _ = try removeEntries(
                path: path, pathKey: pathKey, parentKey: OrderedKey.path(path.parent), built: built, composite: composite, keeping: [:])
        }
        try archive(pathKey: pathKey, unchanged: nil)
        let delete = try connection.prepare("DELETE FROM documents WHERE db = ?1 AND path = ?2")
        try delete.bind(database, at: 1)
        try delete.bind(pathKey, at: 2)
        try delete.run()
    }

    /// Deletes the entries the currently stored version of the document at `path` has, if
    /// any, except the composite entries in `keeping` (by index row id).
    /// - Returns: the stored version's composite entry keys by index row id (empty when none is stored).
    private func removeEntries(
        path: ResourcePath, pathKey: [UInt8], parentKey: [UInt8], built: [(id: Int64, index: SingleFieldIndex)],
        composite: [(id: Int64, index: CompositeIndex)], keeping: [Int64: Set<[UInt8]>]
    ) throws -> [Int64: Set<[UInt8]>] {
        let select = try connection.prepare("SELECT fields FROM documents WHERE db = ?1 AND path = ?2")
        defer { select.reset() }
        try select.bind(database, at: 1)
        try select.bind(pathKey, at: 2)
        guard try select.step() else { return [:] }
        // Only the indexed fields of the old version are read, not the whole document.
        let stored = select.blob(at: 0)
        var old: [(id: Int64, index: SingleFieldIndex, value: Value?)] = []
        for (id, index) in built { old.append((id, index, try FieldsCodec.value(at: index.field, in: stored))) }
        var oldComposite: [Int64: Set<[UInt8]>] = [:]
        var parents: [Int64: [UInt8]] = [:]
        for (id, index) in composite {
            let keys = try index.entryKeys(path: path) { (field) throws(FirestoreError) in
                try FieldsCodec.value(at: field, in: stored)
            }
            oldComposite[id] = Set(keys)
            parents[id] = index.entryParent(parentKey)
        }
        select.reset()
        let deleteComposite = try connection.prepare(
            "DELETE FROM composite_entries WHERE index_id = ?1 AND parent = ?2 AND key = ?3")
        for (id, keys) in oldComposite {
            let parent = parents[id] ?? []
            for key in keys.subtracting(keeping[id] ?? []) {
                try deleteComposite.bind(id, at: 1)
                try deleteComposite.bind(parent, at: 2)
                try deleteComposite.bind(key, at: 3)
                try deleteComposite.run()
            }
        }
        let delete = try connection.prepare(
            "DELETE FROM index_entries WHERE index_id = ?1 AND parent = ?2 AND value = ?3 AND path = ?4")
        for (id, index, value) in old {
            for key in index.entryKeys(for: value) {
                try delete.bind(id, at: 1)
                try delete.bind(index.entryParent(parentKey), at: 2)
                try delete.bind(key, at: 3)
                try delete.bind(pathKey, at: 4)
                try delete.run()
            }
        }
        return oldComposite
    }

    /// Single-field entries: `(index_id, parent, value, path)`.
    static let insertEntry = "INSERT OR IGNORE INTO index_entries(index_id, parent, value, path) VALUES(?1, ?2, ?3, ?4)"
    /// Composite entries: `(index_id, parent, key, path)`.
    static let insertCompositeEntry =
        "INSERT OR IGNORE INTO composite_entries(index_id, parent, key, path) VALUES(?1, ?2, ?3, ?4)"

    /// Inserts one entry per key with `insert` (`insertEntry` or `insertCompositeEntry`).
    private static func insertEntries(
        _ keys: [[UInt8]], index id: Int64, parent: [UInt8], path: [UInt8], with insert: String,
        connection: SQLiteConnection
    ) throws {
        guard !keys.isEmpty else { return }
        let statement = try connection.prepare(insert)
        for key in keys {
            try statement.bind(id, at: 1)
            try statement.bind(parent, at: 2)
            try statement.bind(key, at: 3)
            try statement.bind(path, at: 4)
            try statement.run()
        }
    }

    /// Records `index` for `database` and fills it from the stored documents.
    /// - Returns: the index's row id.
    /// - Throws: `SQLiteError`, or `FirestoreError` when stored fields are corrupt.
    static func build(_ index: SingleFieldIndex, database: Int64, connection: SQLiteConnection) throws -> Int64 {
        let record = try connection.prepare(
            "INSERT INTO field_indexes(db, collection_id, field, kind, scope) VALUES(?1, ?2, ?3, ?4, ?5)")
        try record.bind(database, at: 1)
        try record.bind(index.collectionID, at: 2)
        try record.bind(OrderedKey.fieldPath(index.field), at: 3)
        try record.bind(index.mode.rawValue, at: 4)
        try record.bind(index.queryScope.rawValue, at: 5)
        try record.run()
        let id = connection.lastInsertRowID

        let scan = try connection.prepare(
            "SELECT path, parent, fields FROM documents WHERE db = ?1 AND collection_id = ?2")
        defer { scan.reset() }
        try scan.bind(database, at: 1)
        try scan.bind(index.collectionID, at: 2)
        while try scan.step() {
            let keys = index.entryKeys(for: try FieldsCodec.value(at: index.field, in: scan.blob(at: 2)))
            try insertEntries(
                keys, index: id, parent: index.entryParent(scan.bytes(at: 1)), path: scan.bytes(at: 0),
                with: insertEntry, connection: connection)
        }
        return id
    }


    /// Entries a composite index build sorts and inserts at a time.
    static let buildBatchSize = 200_000

    /// Records composite `index` (normalised) for `database` and fills it from the stored
    /// documents of its collection id, reading only the indexed fields of each.
    /// - Returns: the index's row id.
    /// - Complexity: one pass over the documents with the collection id.
    /// - Throws: `SQLiteError`, or `FirestoreError` when stored fields are corrupt.
    static func build(_ index: CompositeIndex, database: Int64, connection: SQLiteConnection) throws -> Int64 {
        let record = try connection.prepare(
            "INSERT INTO composite_indexes(db, collection_id, scope, fields) VALUES(?1, ?2, ?3, ?4)")
        try record.bind(database, at: 1)
        try record.bind(index.collectionGroup, at: 2)
        try record.bind(index.queryScope.storedValue, at: 3)
        try record.bind(index.encodedFields, at: 4)
        try record.run()
        let id = connection.lastInsertRowID

        // Entries are inserted in key order, a batch at a time, so each batch walks the B-tree
        // once instead of writing pages all over it. Measured together with `mmap_size` on
        // readers, the build of a 1,000,000-entry index took 12.7 s instead of 17.9 s
        // (`hearth-bench --only index --full`, one run each, release build, shared 2-core machine).
        var batch: [(parent: [UInt8], key: [UInt8], path: [UInt8])] = []
        func flush() throws {
            batch.sort { $0.parent != $1.parent ? bytesLess($0.parent, $1.parent) : bytesLess($0.key, $1.key) }
            let insert = try connection.prepare(insertCompositeEntry)
            for entry in batch {
                try insert.bind(id, at: 1)
                try insert.bind(entry.parent, at: 2)
                try insert.bind(entry.key, at: 3)
                try insert.bind(entry.path, at: 4)
                try insert.run()
            }
            batch.removeAll(keepingCapacity: true)
        }
        let scan = try connection.prepare(
            "SELECT path, parent, fields FROM documents WHERE db = ?1 AND collection_id = ?2")
        defer { scan.reset() }
        try scan.bind(database, at: 1)
        try scan.bind(index.collectionGroup, at: 2)
        while try scan.step() {
            let fields = scan.blob(at: 2)
            let pathKey = scan.bytes(at: 0)
            let keys = try index.entryKeys(path: try OrderedKey.decodePath(scan.blob(at: 0))) { (field) throws(FirestoreError) in
                try FieldsCodec.value(at: field, in: fields)
            }
            let parent = index.entryParent(scan.bytes(at: 1))
            for key in keys { batch.append((parent, key, pathKey)) }
            if batch.count >= buildBatchSize { try flush() }
        }
        try flush()
        return id
    }

    /// Forgets composite index row `id` and its entries.
    /// - Throws: `SQLiteError`.
    static func drop(compositeIndex id: Int64, connection: SQLiteConnection) throws {
        for sql in ["DELETE FROM composite_entries WHERE index_id = ?1", "DELETE FROM composite_indexes WHERE id = ?1"] {
            let delete = try connection.prepare(sql)
            try delete.bind(id, at: 1)
            try delete.run()
        }
    }
}
