import FirestoreModel
import FoundationEssentials
import Synchronization

/// The durable `DocumentStore`: one SQLite file in WAL mode.
///
/// **Connections.** One writer connection, owned by `writerLock`, runs every commit, clear and
/// index build. Readers come from a small pool; a snapshot is a reader connection inside
/// `BEGIN` (a WAL read transaction is a consistent snapshot that never blocks the writer),
/// released by `close()`.
///
/// **Durability.** `Durability.full` (the default) runs `synchronous=FULL`: each commit
/// fsyncs the WAL before `commit` returns, so an acknowledged commit survives `kill -9` *and*
/// power loss. `.normal` (WAL + `synchronous=NORMAL`) survives `kill -9` (the WAL is in the
/// OS page cache) but may lose the last commits on power loss; `.off` is for throwaway stores.
/// FULL is affordable: a one-document commit took a median 0.24–0.41 ms with FULL against
/// 0.04–0.06 ms with NORMAL on the development machine (ext4 on a virtio disk;
/// `StoreBenchmarks.commitLatency`, release build, several runs on a shared 2-core machine).
/// Checkpoints (copying the WAL into the file) run on a queue of their own
/// (`SQLiteCheckpointer`), not inside the commit that crosses SQLite's threshold.
///
/// **Indexes on demand** (docs/ARCHITECTURE.md rule 6). A query reads a single-field index chosen by
/// `QueryPlanner`. The first query that needs index (collection id, field, mode, scope) builds
/// it in one write transaction (one pass over that collection id, reading only that field) and
/// records it in `field_indexes`; from then on every commit maintains it in the same
/// transaction as the document write. If nothing was committed since the query's snapshot
/// was taken, the snapshot moves past the build and reads the new index at once (`repin`);
/// otherwise that one query scans its own view.
///
/// Chosen over indexing every field of every document, as Firestore does, because writes then
/// pay only for fields that are queried. Figures (`StoreBenchmarks`, release build, 10-field
/// documents, ratios within one run): inserting 100,000 documents in one commit took 0.81 s
/// with no index built, 1.07 s with one, and 5.25 s with all 10 fields indexed (6.4× slower;
/// a loaded rerun gave 2.9 / 4.4 / 14.3 s); the file grew from 76 MB to 207 MB (2.7×). Real
/// all-fields indexing costs more still (array elements, nested map fields, collection-group
/// scope). Query latency is the same either way once the index exists: a range query returning
/// 100 documents took 0.8–1.6 ms over 10,000 documents and 1.0–1.6 ms over 1,000,000, decoding
/// exactly 100. The price of on-demand is the first query on a new field: 0.1 s at 10,000
/// documents, 4.9–7.3 s at 1,000,000 (the index build).
///
/// **Composite indexes** (`defineCompositeIndexes`, from the app's `firestore.indexes.json`)
/// are built when defined, for every database of the project, and for databases created
/// later when they are created; every commit maintains them in its transaction. The planner
/// reads one when it serves the query's pinned fields and order (`QueryPlanner.compositePlan`),
/// so `where bucket == 3 order by i desc limit 20` reads about 20 entries whatever the size
/// of the collection. Definitions and entries persist: a restart rebuilds nothing.
///
/// **Ephemeral mode.** `init(inMemory:)` uses a private temporary file that is deleted on
/// `close()`, with `synchronous=OFF`. (A true `:memory:` database has a single connection,
/// and snapshot isolation needs separate connections over one WAL.)
///
/// Thread-safe; `commit` calls may come from any task (they are serialised by `writerLock`).
public final class SQLiteDocumentStore: DocumentStore, @unchecked Sendable {
    // @unchecked Sendable: `writer`, `databaseIDs`, `catalog`, `composites`, `definitions` and
    // `lastCommit` are only touched
    // with `writerLock` held; `idleReaders` and `isClosed` only with `poolLock` held; `path`,
    // `durability`, `deleteOnClose` and `keepsVersions` are immutable. Those two locks stay
    // plain locks: they guard non-Sendable `SQLiteConnection`s (C handles) that flow in from
    // snapshots' properties and out to caller closures, which a Mutex's `inout sending` state refuses.

    /// How hard a commit waits for the disk before returning.
    public enum Durability: Sendable {
        /// `synchronous=FULL`: survives process kill and power loss.
        case full
        /// `synchronous=NORMAL`: survives process kill, not power loss.
        case normal
        /// `synchronous=OFF`: for temporary stores only.
        case off
    }

    /// The database file.
    public let path: String
    private let durability: Durability
    private let deleteOnClose: Bool
    /// False when superseded versions are not kept (`--version-retention 0`).
    public let keepsVersions: Bool

    /// Copies the WAL into the file off the commit path (`SQLiteCheckpointer`).
    let checkpointer: SQLiteCheckpointer
    private let writerLock = ThreadLock()
    private var writer: SQLiteConnection?
    /// Committed database ids by `DatabaseID.name`.
    private var databaseIDs: [String: Int64] = [:]
    /// Committed indexes: database row id → collection id → (index row id, index).
    private var catalog: [Int64: [String: [(id: Int64, index: SingleFieldIndex)]]] = [:]
    /// Committed composite indexes: database row id → collection id → (index row id, normalised index).
    private var composites: [Int64: [String: [(id: Int64, index: CompositeIndex)]]] = [:]
    /// Committed composite definitions by project (normalised), for databases created later.
    private var definitions: [String: [CompositeIndex]] = [:]
    private var lastCommit: Timestamp?
    /// `history_horizons` by database row id (0 = every database); under `writerLock`.
    private var horizons: [Int64: Timestamp] = [:]

    /// Counts commits and clears (document changes), bumped after each one's COMMIT, while
    /// `writerLock` is held. Lets a snapshot prove it is still current (see `repin`).
    private let sequence = Mutex<UInt64>(0)

    private let poolLock = ThreadLock()
    private var idleReaders: [SQLiteConnection] = []
    private var isClosed = false
    /// Idle reader connections kept open for reuse: with `readerCacheKiB` each, at most
    /// 8 MiB of reader caches stay allocated while the server is idle.
    private static let maxIdleReaders = 4
    /// How much of the file a reader maps into memory (`PRAGMA mmap_size`): pages outside its
    /// own cache are then read without a system call each. Measured together with sorted
    /// composite index builds: `bucket == 3 order by i desc limit 20` at 1,000,000 documents
    /// took a median 0.40 ms against 0.43 ms before (within run-to-run noise; one run each).
    static let readerMapBytes = 1 << 30
    /// The writer's page cache (`PRAGMA cache_size`), KiB. It holds the pages one commit
    /// dirties (a commit of 500 ten-field documents with their index entries and versions: well
    /// under 1 MiB) and the interior B-tree pages its descents read; every other page comes from
    /// the kernel's page cache, which holds the file anyway, with one `pread`. It was 32 MiB,
    /// which at 10,000 documents (a 7 MiB file) kept a second copy of the whole file in the
    /// process: `hearth-bench --only memory` measured RSS after loading 10,000 documents
    /// before and after (Benchmarks/README.md, "Memory budget").
    static let writerCacheKiB = 2048
    /// Each reader's page cache, KiB. Readers map the file (`readerMapBytes`), and SQLite reads
    /// mapped pages in place without copying them into its cache, so the cache holds only pages
    /// read from the WAL (the latest commits, until a checkpoint moves them into the file).
    static let readerCacheKiB = 2048
    /// How long a connection waits for a lock before failing with `SQLITE_BUSY`.
    static let busyTimeoutMilliseconds = 5000

    /// Opens (creating when missing) the store in the file at `path`.
    /// - Parameters:
    ///   - durability: see `Durability`; `.full` unless you have measured a reason.
    ///   - keepsVersions: false to keep no superseded versions (point-in-time reads then see
    ///     only latest versions; for `--version-retention 0` and benchmarks).
    /// - Throws: `.internalError` when the file cannot be opened or has another schema version.
    public convenience init(path: String, durability: Durability = .full, keepsVersions: Bool = true) throws(FirestoreError) {
        try self.init(path: path, durability: durability, deleteOnClose: false, keepsVersions: keepsVersions)
    }

    /// Opens an ephemeral store in a private temporary file removed by `close()`.
    /// - Throws: `.internalError` when the temporary file cannot be created.
    public convenience init(inMemory: (), keepsVersions: Bool = true) throws(FirestoreError) {
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("hearth-store-\(UUID().uuidString).sqlite").path
        try self.init(path: file, durability: .off, deleteOnClose: true, keepsVersions: keepsVersions)
    }

    private init(path: String, durability: Durability, deleteOnClose: Bool, keepsVersions: Bool) throws(FirestoreError) {
        self.path = path
        self.durability = durability
        self.deleteOnClose = deleteOnClose
        self.keepsVersions = keepsVersions
        let checkpointer = SQLiteCheckpointer(path: path)
        self.checkpointer = checkpointer
        do {
            let connection = try SQLiteConnection(path: path)
            let synchronous: String
            switch durability {
            case .full: synchronous = "FULL"
            case .normal: synchronous = "NORMAL"
            case .off: synchronous = "OFF"
            }
            try connection.execute(
                """
                PRAGMA busy_timeout=\(Self.busyTimeoutMilliseconds);
                PRAGMA journal_mode=WAL;
                PRAGMA synchronous=\(synchronous);
                PRAGMA cache_size=-\(Self.writerCacheKiB);
                PRAGMA temp_store=MEMORY;
                """)
            try connection.writeTransaction { () throws in try connection.execute(SQLiteSchema.create) }
            connection.onWALCommit { pages in checkpointer.walCommitted(pages: pages) }
            writer = connection
            try loadCatalog(connection)
        } catch let error as SQLiteError {
            throw error.firestoreError
        } catch let error as FirestoreError {
            throw error
        } catch {
            throw .internalError("Opening the store failed: \(error)")
        }
    }

    deinit { close() }

    /// Reads the committed schema version, database ids, indexes and last commit time.
    private func loadCatalog(_ connection: SQLiteConnection) throws {
        var meta: [String: Int64] = [:]
        let m = try connection.prepare("SELECT key, value FROM meta")
        defer { m.reset() }
        while try m.step() { meta[m.text(at: 0)] = m.int64(at: 1) }
        var historyStartsNow = false
        if let v = meta["schema_version"], SQLiteSchema.upgradable.contains(v) {
            // The DDL run on open already created what the newer version adds.
            try connection.execute("UPDATE meta SET value = \(SQLiteSchema.version) WHERE key = 'schema_version'")
            meta["schema_version"] = SQLiteSchema.version
            if v == 1 { historyStartsNow = true }  // no versions were kept before
        }
        if meta["keeps_versions"] == 0 && keepsVersions { historyStartsNow = true }
        guard meta["schema_version"] == SQLiteSchema.version else {
            throw FirestoreError.internalError(
                "Store \(path) has schema version \(meta["schema_version"].map(String.init) ?? "none"), expected \(SQLiteSchema.version).")
        }
        if let s = meta["last_commit_seconds"], let n = meta["last_commit_nanos"] {
            lastCommit = Timestamp(seconds: s, nanos: Int32(truncatingIfNeeded: n))
        }
        if historyStartsNow, let lastCommit {
            // Reads before the last commit made without history cannot be answered exactly.
            try Self.recordHorizon(lastCommit, database: 0, connection)
        }
        try connection.execute(
            "INSERT INTO meta(key, value) VALUES('keeps_versions', \(keepsVersions ? 1 : 0)) ON CONFLICT(key) DO UPDATE SET value = excluded.value")
        let h = try connection.prepare("SELECT db, seconds, nanos FROM history_horizons")
        defer { h.reset() }
        while try h.step() { horizons[h.int64(at: 0)] = Timestamp(seconds: h.int64(at: 1), nanos: Int32(truncatingIfNeeded: h.int64(at: 2))) }
        let d = try connection.prepare("SELECT id, name FROM databases")
        defer { d.reset() }
        while try d.step() { databaseIDs[d.text(at: 1)] = d.int64(at: 0) }
        let i = try connection.prepare("SELECT id, db, collection_id, field, kind, scope FROM field_indexes")
        defer { i.reset() }
        while try i.step() {
            guard let mode = SingleFieldIndex.Mode(rawValue: i.int64(at: 4)),
                let scope = SingleFieldIndex.QueryScope(rawValue: i.int64(at: 5))
            else { throw FirestoreError.internalError("Store has an index of unknown kind.") }
            let index = SingleFieldIndex(
                collectionID: i.text(at: 2), field: try OrderedKey.decodeFieldPath(i.blob(at: 3)), mode: mode,
                queryScope: scope)
            catalog[i.int64(at: 1), default: [:]][index.collectionID, default: []].append((i.int64(at: 0), index))
        }
        let c = try connection.prepare("SELECT id, db, collection_id, scope, fields FROM composite_indexes ORDER BY id")
        defer { c.reset() }
        while try c.step() {
            let index = try Self.compositeIndex(collectionID: c.text(at: 2), scope: c.int64(at: 3), fields: c.blob(at: 4))
            composites[c.int64(at: 1), default: [:]][index.collectionGroup, default: []].append((c.int64(at: 0), index))
        }
        let p = try connection.prepare("SELECT project, collection_id, scope, fields FROM composite_definitions ORDER BY project, position")
        defer { p.reset() }
        while try p.step() {
            let index = try Self.compositeIndex(collectionID: p.text(at: 1), scope: p.int64(at: 2), fields: p.blob(at: 3))
            definitions[p.text(at: 0), default: []].append(index)
        }
    }

    /// A composite index from its stored columns.
    /// - Throws: `.internalError` for an unknown scope or corrupt fields.
    static func compositeIndex(collectionID: String, scope: Int64, fields: UnsafeRawBufferPointer) throws(FirestoreError)
        -> CompositeIndex
    {
        guard let queryScope = IndexQueryScope.allCases.first(where: { $0.storedValue == scope }) else {
            throw .internalError("Store has a composite index of unknown scope \(scope).")
        }
        return CompositeIndex(collectionGroup: collectionID, queryScope: queryScope, fields: try CompositeIndex.decodeFields(fields))
    }

    // MARK: DocumentStore

    /// Opens a WAL read transaction on a pooled reader connection.
    /// - Throws: `.internalError` when the store is closed or SQLite fails.
    public func snapshot() throws(FirestoreError) -> any StoreSnapshot {
        try openSnapshot(readTime: nil)
    }

    /// Applies `mutations` and records `commitTime` in one write transaction, maintaining
    /// every built index of the touched collections.
    /// - Throws: `.internalError` when SQLite fails; nothing is applied then.
    public func commit(_ mutations: [Mutation], in database: DatabaseID, commitTime: Timestamp) throws(FirestoreError) {
        try commit([CommitBatch(mutations: mutations, database: database, commitTime: commitTime)])
    }

    /// Applies the batches in order in one write transaction (one fsync), each at its own
    /// commit time, maintaining every built index of the touched collections.
    /// - Throws: `.internalError` when SQLite fails; nothing is applied then.
    public func commit(_ batches: [CommitBatch]) throws(FirestoreError) {
        try write(batches, clearing: nil)
    }

    /// Replaces every document of `database` with `documents` at `time` in one write
    /// transaction: the clear of `deleteAll(in:at:)` (history and horizon included) and the
    /// puts commit together or not at all, so a crash never leaves the database empty.
    /// - Throws: `.internalError` when SQLite fails; nothing is applied then.
    public func replaceAll(in database: DatabaseID, with documents: [Document], at time: Timestamp) throws(FirestoreError) {
        try write([CommitBatch(mutations: documents.map { .put($0) }, database: database, commitTime: time)], clearing: (database, time))
    }

    /// `commit(_:)`, after clearing one database first when `clearing` names it.
    private func write(_ batches: [CommitBatch], clearing: (database: DatabaseID, time: Timestamp)?) throws(FirestoreError) {
        guard let latest = batches.map(\.commitTime).max() else { return }
        try withWriter { (connection) throws in
            var newDatabases: [String: (id: Int64, composites: [String: [(id: Int64, index: CompositeIndex)]])] = [:]
            var cleared: (id: Int64, horizon: Timestamp)?
            if let clearing, let dbID = databaseIDs[clearing.database.name] {
                cleared = (dbID, max(horizons[dbID] ?? clearing.time, clearing.time))
            }
            try connection.writeTransaction { () throws in
                if let cleared { try Self.deleteRows(of: cleared.id, horizon: cleared.horizon, connection) }
                for batch in batches {
                    let database = batch.database
                    // A database the group created earlier is not in the caches yet.
                    let dbID: Int64
                    if let earlier = newDatabases[database.name] {
                        dbID = earlier.id
                    } else {
                        let (id, created) = try databaseRowID(database, connection)
                        dbID = id
                        if created { newDatabases[database.name] = (id, try recordDefinitions(of: database, id, connection)) }
                    }
                    var writes = SQLiteWrites(
                        connection: connection, database: dbID, indexes: catalog[dbID] ?? [:],
                        commitTime: keepsVersions ? batch.commitTime : nil)
                    writes.composites = newDatabases[database.name]?.composites ?? composites[dbID] ?? [:]
                    for mutation in Self.inKeyOrder(batch.mutations) {
                        switch mutation {
                        case .put(let document): try writes.put(document)
                        case .delete(let path): try writes.delete(path)
                        }
                    }
                }
                if lastCommit.map({ $0 < latest }) ?? true {
                    let meta = try connection.prepare(
                        "INSERT INTO meta(key, value) VALUES(?1, ?2) ON CONFLICT(key) DO UPDATE SET value = excluded.value")
                    try meta.bind("last_commit_seconds", at: 1)
                    try meta.bind(latest.seconds, at: 2)
                    try meta.run()
                    try meta.bind("last_commit_nanos", at: 1)
                    try meta.bind(Int64(latest.nanos), at: 2)
                    try meta.run()
                }
            }
            // Only committed state reaches the caches.
            if let cleared { horizons[cleared.id] = cleared.horizon }
            for (name, created) in newDatabases {
                databaseIDs[name] = created.id
                composites[created.id] = created.composites
            }
            if lastCommit.map({ $0 < latest }) ?? true { lastCommit = latest }
            bumpSequence()
        }
    }

    /// Opens a view of the state as of `readTime` (every commit at or before it, none after):
    /// a WAL read transaction that reads each path's latest version when its update time is
    /// at or before `readTime`, else the archived version that was current then.
    ///
    /// Exact for any `readTime` whose superseded versions `collectVersions` has not yet
    /// dropped; the engine refuses older read times.
    /// - Throws: `.internalError` when the store is closed or SQLite fails.
    public func snapshot(at readTime: Timestamp) throws(FirestoreError) -> any StoreSnapshot {
        try openSnapshot(readTime: readTime)
    }

    private func openSnapshot(readTime: Timestamp?) throws(FirestoreError) -> SQLiteSnapshot {
        let connection = try checkoutReader()
        let before = currentSequence
        do {
            try Self.beginRead(connection)
        } catch {
            try? connection.run("ROLLBACK")
            returnReader(connection)
            throw error.firestoreError
        }
        // Equal counts before and after the pin prove which commit the view shows (a commit
        // bumps the count only after its COMMIT); otherwise the view's position is unknown.
        let after = currentSequence
        return SQLiteSnapshot(
            store: self, connection: connection, sequence: before == after ? before : nil, readTime: readTime)
    }

    /// Deletes at most `limit` archived versions that ended before `horizon` (the oldest first),
    /// in one short write transaction, so writers wait for one batch at most.
    /// - Returns: how many were deleted; fewer than `limit` means none older is left.
    /// - Throws: `.internalError` when SQLite fails.
    public func collectVersions(endedBefore horizon: Timestamp, limit: Int) throws(FirestoreError) -> Int {
        try withWriter { (connection) throws -> Int in
            let dropped = try connection.writeTransaction { () throws -> Int in
                // Rowid order is end-time order: the candidates are a prefix of the table.
                let delete = try connection.prepare(
                    """
                    DELETE FROM document_versions WHERE id IN (
                        SELECT id FROM document_versions ORDER BY id LIMIT ?3)
                      AND (end_seconds, end_nanos) < (?1, ?2)
                    """)
                try delete.bind(horizon.seconds, at: 1)
                try delete.bind(Int64(horizon.nanos), at: 2)
                try delete.bind(Int64(max(limit, 0)), at: 3)
                try delete.run()
                return connection.changes
            }
            // The newest state changed for point-in-time views (their versions are gone), so a
            // view pinned before must not be moved past this deletion by `repin`.
            if dropped > 0 { bumpSequence() }
            return dropped
        }
    }

    /// Deletes `database`'s documents and index entries (its index definitions stay valid:
    /// an index of nothing is complete).
    /// - Throws: `.internalError` when SQLite fails.
    public func deleteAll(in database: DatabaseID, at time: Timestamp) throws(FirestoreError) {
        try withWriter { (connection) throws in
            guard let dbID = databaseIDs[database.name] else { return }
            let horizon = max(horizons[dbID] ?? time, time)
            try connection.writeTransaction { () throws in try Self.deleteRows(of: dbID, horizon: horizon, connection) }
            horizons[dbID] = horizon
            bumpSequence()
        }
    }

    /// Deletes a database's documents, history and index entries and records its horizon,
    /// inside the caller's write transaction.
    private static func deleteRows(of dbID: Int64, horizon: Timestamp, _ connection: SQLiteConnection) throws {
        try recordHorizon(horizon, database: dbID, connection)
        for sql in [
            "DELETE FROM index_entries WHERE index_id IN (SELECT id FROM field_indexes WHERE db = ?1)",
            "DELETE FROM composite_entries WHERE index_id IN (SELECT id FROM composite_indexes WHERE db = ?1)",
        ] {
            let entries = try connection.prepare(sql)
            try entries.bind(dbID, at: 1)
            try entries.run()
        }
        for table in ["documents", "document_versions"] {
            let delete = try connection.prepare("DELETE FROM \(table) WHERE db = ?1")
            try delete.bind(dbID, at: 1)
            try delete.run()
        }
    }

    /// The later of `database`'s latest clear and the store-wide horizon; the last commit
    /// time when this store keeps no versions.
    /// - Throws: `.internalError` when the store is closed.
    public func historyHorizon(in database: DatabaseID) throws(FirestoreError) -> Timestamp? {
        try withWriter { _ -> Timestamp? in
            if !keepsVersions { return lastCommit }
            let own = databaseIDs[database.name].flatMap { horizons[$0] }
            return [horizons[0], own].compactMap { $0 }.max()
        }
    }

    private static func recordHorizon(_ time: Timestamp, database: Int64, _ connection: SQLiteConnection) throws {
        let upsert = try connection.prepare(
            "INSERT INTO history_horizons(db, seconds, nanos) VALUES(?1, ?2, ?3) ON CONFLICT(db) DO UPDATE SET seconds = excluded.seconds, nanos = excluded.nanos")
        try upsert.bind(database, at: 1)
        try upsert.bind(time.seconds, at: 2)
        try upsert.bind(Int64(time.nanos), at: 3)
        try upsert.run()
    }

    /// `mutations` in path-key order (stable: two of one path keep theirs), the order the
    /// B-trees of `documents` are keyed in. Their effects do not depend on the order across
    /// paths (the versions they end all end at the batch's commit time); inserting in key
    /// order walks each tree once instead of jumping about it: 10,001 new feed documents in
    /// one transaction took 45 + 20 ms (insert + COMMIT) sorted against 70 + 28 ms in
    /// arrival order (`sqlite3` on a copy of the fan-out bench store, one run each of three
    /// alike). Batches of fewer than two mutations come back as they are.
    static func inKeyOrder(_ mutations: [Mutation]) -> [Mutation] {
        guard mutations.count > 1 else { return mutations }
        let keys = mutations.map { OrderedKey.path($0.path) }
        let order = mutations.indices.sorted { a, b in
            bytesLess(keys[a], keys[b]) || (keys[a] == keys[b] && a < b)
        }
        return order.map { mutations[$0] }
    }

    /// The greatest commit time recorded in this file.
    /// - Throws: `.internalError` when the store is closed.
    public func lastCommitTime() throws(FirestoreError) -> Timestamp? {
        try withWriter { _ in lastCommit }
    }

    /// Closes every idle connection and the writer (checkpointing the WAL); snapshots still
    /// open close their connections when they are closed. Later calls throw.
    public func close() {
        poolLock.lock()
        isClosed = true
        let readers = idleReaders
        idleReaders = []
        poolLock.unlock()
        for r in readers { r.close() }
        checkpointer.close()
        writerLock.lock()
        writer?.close()
        writer = nil
        writerLock.unlock()
        if deleteOnClose {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
    }

    // MARK: Indexes

    /// Builds `index` for `database` now, unless it exists; later commits maintain it.
    ///
    /// Queries build what they need on first use; call this to pay that cost up front (for
    /// example from `firestore.indexes.json` field overrides at start-up).
    /// - Complexity: one scan of the documents with `index.collectionID`, decoding each.
    /// - Throws: `.internalError` when SQLite fails.
    public func ensureIndex(_ index: SingleFieldIndex, in database: DatabaseID) throws(FirestoreError) {
        try withWriter { (connection) throws in
            if let dbID = databaseIDs[database.name],
                catalog[dbID]?[index.collectionID]?.contains(where: { $0.index == index }) == true
            {
                return
            }
            var newDatabase: (id: Int64, composites: [String: [(id: Int64, index: CompositeIndex)]])?
            let (dbID, rowID) = try connection.writeTransaction { () throws -> (Int64, Int64) in
                let (dbID, created) = try databaseRowID(database, connection)
                if created { newDatabase = (dbID, try recordDefinitions(of: database, dbID, connection)) }
                return (dbID, try SQLiteWrites.build(index, database: dbID, connection: connection))
            }
            if let newDatabase {
                databaseIDs[database.name] = newDatabase.id
                composites[newDatabase.id] = newDatabase.composites
            }
            catalog[dbID, default: [:]][index.collectionID, default: []].append((rowID, index))
        }
    }

    /// Makes `indexes` the composite indexes of every database of `project`, now and created
    /// later, in one write transaction: an index already built (same collection id, scope and
    /// normalised fields) is kept as it is; a new one is built from the stored documents of its
    /// collection id; one no longer listed is dropped with its entries. Duplicates count once.
    ///
    /// Changes no document, so it is not a commit: snapshots taken before it keep planning
    /// with the indexes they saw.
    /// - Complexity: one pass over the documents of each new index's collection id, per database.
    /// - Throws: `.internalError` when SQLite fails (nothing changes then).
    public func defineCompositeIndexes(_ indexes: [CompositeIndex], project: String) throws(FirestoreError) {
        var wanted: [CompositeIndex] = []
        for index in indexes.map(\.normalized) where !wanted.contains(index) { wanted.append(index) }
        try withWriter { (connection) throws in
            let prefix = DatabaseID(project: project, database: "").name
            let databases = databaseIDs.filter { $0.key.hasPrefix(prefix) }.map(\.value)
            let rebuilt = try connection.writeTransaction { () throws -> [Int64: [String: [(id: Int64, index: CompositeIndex)]]] in
                let clear = try connection.prepare("DELETE FROM composite_definitions WHERE project = ?1")
                try clear.bind(project, at: 1)
                try clear.run()
                let insert = try connection.prepare(
                    "INSERT INTO composite_definitions(project, collection_id, scope, fields, position) VALUES(?1, ?2, ?3, ?4, ?5)")
                for (position, index) in wanted.enumerated() {
                    try insert.bind(project, at: 1)
                    try insert.bind(index.collectionGroup, at: 2)
                    try insert.bind(index.queryScope.storedValue, at: 3)
                    try insert.bind(index.encodedFields, at: 4)
                    try insert.bind(Int64(position), at: 5)
                    try insert.run()
                }
                var result: [Int64: [String: [(id: Int64, index: CompositeIndex)]]] = [:]
                for db in databases {
                    let existing = (composites[db] ?? [:]).values.flatMap { $0 }
                    for (id, index) in existing where !wanted.contains(index) {
                        try SQLiteWrites.drop(compositeIndex: id, connection: connection)
                    }
                    var next: [String: [(id: Int64, index: CompositeIndex)]] = [:]
                    for index in wanted {
                        let kept = existing.first { $0.index == index }?.id
                        let id = try kept ?? SQLiteWrites.build(index, database: db, connection: connection)
                        next[index.collectionGroup, default: []].append((id, index))
                    }
                    result[db] = next
                }
                return result
            }
            definitions[project] = wanted
            for (db, indexes) in rebuilt { composites[db] = indexes }
        }
    }

    /// The normalised definitions of `project`, as the last `defineCompositeIndexes` (of this
    /// process or an earlier one) left them.
    /// - Throws: `.internalError` when the store is closed.
    public func compositeIndexes(project: String) throws(FirestoreError) -> [CompositeIndex] {
        try withWriter { _ in definitions[project] ?? [] }
    }

    /// Records the composite definitions of `database`'s project for its new row `db` (inside
    /// the caller's transaction; a new database has no documents to index).
    /// - Returns: the new indexes by collection id.
    private func recordDefinitions(of database: DatabaseID, _ db: Int64, _ connection: SQLiteConnection) throws
        -> [String: [(id: Int64, index: CompositeIndex)]]
    {
        var result: [String: [(id: Int64, index: CompositeIndex)]] = [:]
        for index in definitions[database.project] ?? [] {
            result[index.collectionGroup, default: []].append((try SQLiteWrites.build(index, database: db, connection: connection), index))
        }
        return result
    }

    // MARK: Snapshots

    private var currentSequence: UInt64 {
        sequence.withLock { $0 }
    }

    private func bumpSequence() {
        sequence.withLock { $0 &+= 1 }
    }

    /// `BEGIN`, then a read: a deferred transaction takes its WAL snapshot at its first read.
    private static func beginRead(_ connection: SQLiteConnection) throws {
        try connection.run("BEGIN")
        let pin = try connection.prepare("SELECT value FROM meta WHERE key = 'schema_version'")
        defer { pin.reset() }
        _ = try pin.step()
    }

    /// Moves a snapshot's read transaction to the newest state when no commit or clear has
    /// happened since the snapshot was taken at `sequence`: the documents it sees are then
    /// identical, and it gains the indexes built since (an index build is not a commit).
    ///
    /// Runs under `writerLock`, so no commit can land between the check and the new pin.
    /// - Returns: true when moved; false when the state changed (the snapshot is untouched).
    /// - Throws: `.internalError` when SQLite fails (the connection is then unusable).
    func repin(_ connection: SQLiteConnection, ifAt sequence: UInt64) throws(FirestoreError) -> Bool {
        writerLock.lock()
        defer { writerLock.unlock() }
        guard currentSequence == sequence else { return false }
        do {
            try connection.run("COMMIT")
            try Self.beginRead(connection)
        } catch {
            throw error.firestoreError
        }
        return true
    }

    // MARK: Connections

    /// Runs `body` with the writer connection, holding `writerLock`; converts errors.
    private func withWriter<T>(_ body: (SQLiteConnection) throws -> T) throws(FirestoreError) -> T {
        writerLock.lock()
        defer { writerLock.unlock() }
        guard let writer else { throw .internalError("The document store is closed.") }
        do {
            return try body(writer)
        } catch {
            throw error.firestoreError
        }
    }

    /// The row id of `database`, inserting it (inside the caller's transaction) when new.
    private func databaseRowID(_ database: DatabaseID, _ connection: SQLiteConnection) throws -> (id: Int64, created: Bool) {
        if let id = databaseIDs[database.name] { return (id, false) }
        let insert = try connection.prepare("INSERT INTO databases(name) VALUES(?1)")
        try insert.bind(database.name, at: 1)
        try insert.run()
        return (connection.lastInsertRowID, true)
    }

    private func checkoutReader() throws(FirestoreError) -> SQLiteConnection {
        poolLock.lock()
        let closed = isClosed
        let reused = closed ? nil : idleReaders.popLast()
        poolLock.unlock()
        if closed { throw .internalError("The document store is closed.") }
        if let reused { return reused }
        do {
            let connection = try SQLiteConnection(path: path)
            try connection.execute(
                """
                PRAGMA busy_timeout=\(Self.busyTimeoutMilliseconds); PRAGMA query_only=1; PRAGMA cache_size=-\(Self.readerCacheKiB);
                PRAGMA mmap_size=\(Self.readerMapBytes);
                """)
            return connection
        } catch {
            throw error.firestoreError
        }
    }

    /// Gives a reader back to the pool (its transaction already ended), or closes it.
    func returnReader(_ connection: SQLiteConnection) {
        poolLock.lock()
        let keep = !isClosed && idleReaders.count < Self.maxIdleReaders
        if keep { idleReaders.append(connection) }
        poolLock.unlock()
        if !keep { connection.close() }
    }

    /// Builds the indexes a snapshot found missing (called by `SQLiteSnapshot.runQuery`).
    func buildMissing(_ indexes: [SingleFieldIndex], in database: DatabaseID) {
        // Best effort: if the build fails, queries keep running on scans.
        for index in indexes { try? ensureIndex(index, in: database) }
    }
}

extension Error {
    /// Any store-internal error as the `FirestoreError` the protocol throws.
    var firestoreError: FirestoreError {
        if let e = self as? FirestoreError { return e }
        if let e = self as? SQLiteError { return e.firestoreError }
        return .internalError("Storage failure: \(self)")
    }
}
