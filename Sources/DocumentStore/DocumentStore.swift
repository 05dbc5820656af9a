import FirestoreModel

/// One change a commit makes to the stored state.
public enum Mutation: Sendable, Hashable {
    /// Store `document` (create or replace) under its path.
    case put(Document)
    /// Remove the document at the path (no-op when missing).
    case delete(ResourcePath)

    /// The document path the mutation touches.
    public var path: ResourcePath {
        switch self {
        case .put(let d): return d.path
        case .delete(let p): return p
        }
    }
}

/// Durable storage of documents for every database, behind which SQLite and the in-memory
/// reference implementation sit. Both pass one contract suite (`DocumentStoreTests`).
///
/// Concurrency: `commit` calls are serialised by the caller (one writer, the engine);
/// snapshots may be opened and read from any task concurrently with a commit.
/// One commit of a group (`DocumentStore.commit(_:)`): its net mutations, its database and
/// its commit time.
public struct CommitBatch: Sendable, Hashable {
    /// The net mutations, applied in order.
    public var mutations: [Mutation]
    /// The database they apply to.
    public var database: DatabaseID
    /// The commit's time, recorded as the update time of its puts.
    public var commitTime: Timestamp

    /// Creates a batch.
    public init(mutations: [Mutation], database: DatabaseID, commitTime: Timestamp) {
        self.mutations = mutations
        self.database = database
        self.commitTime = commitTime
    }
}

public protocol DocumentStore: Sendable {
    /// Opens a consistent read view of the current state. Release it with `close()`.
    /// - Throws: `.internalError` when storage fails.
    func snapshot() throws(FirestoreError) -> any StoreSnapshot

    /// Opens a consistent read view of the state as of `readTime`: the effect of every commit
    /// with a commit time at or before it and of none after. Release it with `close()`.
    ///
    /// Exact as long as the versions that ended after `readTime` have not been collected
    /// (`collectVersions`); callers refuse read times older than their retention window.
    /// - Throws: `.internalError` when storage fails.
    func snapshot(at readTime: Timestamp) throws(FirestoreError) -> any StoreSnapshot

    /// Applies `mutations` atomically and durably; once this returns the change survives
    /// `kill -9`. Records `commitTime` as the store's last commit time. Every version it
    /// replaces or deletes is kept, ended at `commitTime`, for point-in-time reads, until
    /// `collectVersions` drops it; a put whose update time equals the stored one (an
    /// unchanged document) ends nothing.
    /// - Throws: `.internalError` when storage fails (nothing is applied then).
    func commit(_ mutations: [Mutation], in database: DatabaseID, commitTime: Timestamp) throws(FirestoreError)

    /// Applies several commits, in order, as one atomic and durable unit (one transaction, one
    /// fsync: group commit): each batch exactly as `commit(_:in:commitTime:)` would, at its own
    /// commit time. When this returns every batch survives `kill -9`; when it throws none
    /// was applied.
    /// - Throws: `.internalError` when storage fails.
    func commit(_ batches: [CommitBatch]) throws(FirestoreError)

    /// Forgets at most `limit` superseded versions that ended before `horizon`, oldest first.
    /// Point-in-time reads at or after `horizon` are unaffected.
    /// - Returns: how many were dropped; fewer than `limit` means none older is left.
    /// - Throws: `.internalError` when storage fails.
    func collectVersions(endedBefore horizon: Timestamp, limit: Int) throws(FirestoreError) -> Int

    /// Deletes every document of `database`, and its history (the emulator's "clear" endpoint,
    /// an import). `time` becomes the database's `historyHorizon`: the state before it is gone.
    func deleteAll(in database: DatabaseID, at time: Timestamp) throws(FirestoreError)

    /// `deleteAll(in:at:)` then a commit of `documents` (as puts) at `time`, as one step: a
    /// reset to a snapshot. Stores that persist do both in one transaction.
    func replaceAll(in database: DatabaseID, with documents: [Document], at time: Timestamp) throws(FirestoreError)

    /// The earliest read time at which point-in-time reads of `database` are exact, or nil
    /// when its history is complete since the store began: the latest clear or import of the
    /// database, the moment a store that kept no versions started keeping them, or the
    /// upgrade of a file that predates version history. Reads before it must be refused.
    /// - Throws: `.internalError` when storage fails.
    func historyHorizon(in database: DatabaseID) throws(FirestoreError) -> Timestamp?

    /// The greatest commit time ever recorded (persisted across restarts), or nil for a new store.
    func lastCommitTime() throws(FirestoreError) -> Timestamp?

    /// Flushes and closes storage; later calls fail.
    func close()

    /// Defines the composite indexes of every database of `project`, existing or created
    /// later (replacing the previous definitions, compared by `CompositeIndex.normalized`):
    /// new ones are built for the stored documents, removed ones dropped with their entries,
    /// unchanged ones kept as they are. Every later commit maintains them in its transaction;
    /// a durable store keeps them across restarts. The planner reads them for the queries they
    /// serve; answers never change, only what a query reads (`QueryStatistics`).
    /// - Complexity: one pass over the documents of each new index's collection id.
    /// - Throws: `.internalError` when storage fails (the previous definitions stay then).
    func defineCompositeIndexes(_ indexes: [CompositeIndex], project: String) throws(FirestoreError)

    /// The composite indexes defined for `project` (the last `defineCompositeIndexes`, kept
    /// across restarts), each normalised (`__name__` last) and once, in definition order.
    /// - Throws: `.internalError` when the store is closed.
    func compositeIndexes(project: String) throws(FirestoreError) -> [CompositeIndex]
}

/// A consistent, read-only view of a `DocumentStore` at one moment.
///
/// Not shared between tasks: one request opens it, reads, and closes it.
public protocol StoreSnapshot: AnyObject {
    /// The document at `path`, or nil when missing.
    func document(_ path: ResourcePath, in database: DatabaseID) throws(FirestoreError) -> Document?

    /// Direct child documents of collection `collection`, in `__name__` order, starting after
    /// `startAfter` (exclusive) when given, at most `limit` of them.
    func listDocuments(in collection: ResourcePath, database: DatabaseID, startAfter: ResourcePath?, limit: Int?)
        throws(FirestoreError) -> [Document]

    /// Paths under `collection` that have no document but have descendants ("missing" documents
    /// that `showMissing` lists), in `__name__` order.
    func missingDocuments(in collection: ResourcePath, database: DatabaseID) throws(FirestoreError) -> [ResourcePath]

    /// Ids of the collections directly under `parent` (a document, or the root) that contain
    /// at least one document at any depth, ascending by UTF-8 bytes.
    func collectionIDs(under parent: ResourcePath, in database: DatabaseID) throws(FirestoreError) -> [String]

    /// The exact result of `target` (filters, order, cursors, offset, limit applied), using
    /// indexes so that a selective query does not read the whole collection; `statistics` is
    /// overwritten with what answering it read (plan text, indexes used, index entries and
    /// documents scanned).
    /// - Returns: the documents in query order and the count skipped by `offset`.
    /// - Throws: `.invalidArgument` for queries that cannot run; `.internalError` on storage failure.
    func runQuery(_ target: QueryTarget, in database: DatabaseID, statistics: inout QueryStatistics)
        throws(FirestoreError) -> (documents: [Document], skipped: Int)

    /// The answer of `scan` (defined in `RangeScan`), each document passed to `accept` as a
    /// `ProjectedDocument`; the non-nil results are returned in answer order.
    ///
    /// The protocol's own implementation is `scanRangesByQueries`; a store may answer faster
    /// (the SQLite store reads the stored bytes of only the projected and filtered fields),
    /// never differently.
    /// - Throws: `.invalidArgument` for ranges the general queries refuse; `.internalError` on
    ///   storage failure; what `accept` throws (the scan stops there).
    func scanRanges<T>(
        _ scan: RangeScan, in database: DatabaseID, _ accept: (ProjectedDocument) throws(FirestoreError) -> T?
    ) throws(FirestoreError) -> [T]

    /// Releases the view.
    func close()
}

extension StoreSnapshot {
    /// The general path, `scanRangesByQueries`.
    /// - Throws: as `scanRangesByQueries`.
    public func scanRanges<T>(
        _ scan: RangeScan, in database: DatabaseID, _ accept: (ProjectedDocument) throws(FirestoreError) -> T?
    ) throws(FirestoreError) -> [T] {
        try scanRangesByQueries(scan, in: database, accept)
    }
}

extension StoreSnapshot {
    /// `runQuery(_:in:statistics:)` for callers that do not want the statistics.
    /// - Throws: as `runQuery(_:in:statistics:)`.
    public func runQuery(_ target: QueryTarget, in database: DatabaseID) throws(FirestoreError)
        -> (documents: [Document], skipped: Int)
    {
        var ignored = QueryStatistics()
        return try runQuery(target, in: database, statistics: &ignored)
    }
}

extension DocumentStore {
    /// The two steps one after the other (the in-memory store loses nothing in between).
    public func replaceAll(in database: DatabaseID, with documents: [Document], at time: Timestamp) throws(FirestoreError) {
        try deleteAll(in: database, at: time)
        try commit(documents.map { .put($0) }, in: database, commitTime: time)
    }
}
