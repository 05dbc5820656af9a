import FirestoreModel
import Foundation

/// The reference `DocumentStore`: every database's documents in copy-on-write dictionaries.
///
/// A snapshot copies the dictionaries (O(1), copy-on-write), so it is consistent and never
/// blocks a commit. Queries scan the candidate documents and call
/// `StructuredQuery.evaluate(over:target:in:)`, which defines the answer every store must give.
/// Nothing survives the process. Thread-safe: one lock guards the state.
public final class InMemoryDocumentStore: DocumentStore, @unchecked Sendable {
    // @unchecked Sendable: every stored property below is read and written only while
    // `lock` is held; snapshots receive value copies.
    private let lock = NSLock()
    private var databases: [DatabaseID: [ResourcePath: Document]] = [:]
    /// The latest clear of each database: reads before it are refused (`historyHorizon`).
    private var horizons: [DatabaseID: Timestamp] = [:]
    /// Superseded versions in commit order: each was its path's state for
    /// `document.updateTime <= t < end`.
    private var history: [(database: DatabaseID, document: Document, end: Timestamp)] = []
    private var lastCommit: Timestamp?
    private var isClosed = false

    /// Creates an empty store.
    public init() {}

    private func withOpenState<T>(_ body: () -> T) throws(FirestoreError) -> T {
        lock.lock()
        defer { lock.unlock() }
        guard !isClosed else { throw .internalError("The document store is closed.") }
        return body()
    }

    /// Opens a consistent view: a copy of the current dictionaries.
    /// - Throws: `.internalError` after `close()`.
    public func snapshot() throws(FirestoreError) -> any StoreSnapshot {
        InMemorySnapshot(databases: try withOpenState { databases })
    }

    /// Applies `mutations` in order, all at once, and records `commitTime` (the greatest wins).
    /// - Throws: `.internalError` after `close()`.
    public func commit(_ mutations: [Mutation], in database: DatabaseID, commitTime: Timestamp) throws(FirestoreError) {
        try withOpenState {
            var documents = databases[database] ?? [:]
            for mutation in mutations {
                let old = documents[mutation.path]
                switch mutation {
                case .put(let d):
                    if let old, old.updateTime != d.updateTime { history.append((database, old, commitTime)) }
                    documents[d.path] = d
                case .delete(let p):
                    if let old { history.append((database, old, commitTime)) }
                    documents[p] = nil
                }
            }
            databases[database] = documents
            if lastCommit.map({ $0 < commitTime }) ?? true { lastCommit = commitTime }
        }
    }

    /// A copy of the state at `readTime`: latest versions updated at or before it, and the
    /// superseded versions current then.
    /// - Throws: `.internalError` after `close()`.
    public func snapshot(at readTime: Timestamp) throws(FirestoreError) -> any StoreSnapshot {
        let (current, past) = try withOpenState { (databases, history) }
        var state: [DatabaseID: [ResourcePath: Document]] = [:]
        for (database, documents) in current {
            state[database] = documents.filter { !(readTime < $0.value.updateTime) }
        }
        for v in past where !(readTime < v.document.updateTime) && readTime < v.end {
            state[v.database, default: [:]][v.document.path] = v.document
        }
        return InMemorySnapshot(databases: state)
    }

    /// Drops up to `limit` of the oldest superseded versions that ended before `horizon`.
    /// - Throws: `.internalError` after `close()`.
    public func collectVersions(endedBefore horizon: Timestamp, limit: Int) throws(FirestoreError) -> Int {
        try withOpenState {
            let n = min(history.prefix { $0.end < horizon }.count, max(limit, 0))
            history.removeFirst(n)
            return n
        }
    }

    /// Drops every document of `database` and its history; `time` becomes its horizon.
    /// - Throws: `.internalError` after `close()`.
    public func deleteAll(in database: DatabaseID, at time: Timestamp) throws(FirestoreError) {
        try withOpenState {
            databases[database] = nil
            history.removeAll { $0.database == database }
            horizons[database] = max(horizons[database] ?? time, time)
        }
    }

    /// The latest clear of `database`, if any (this store keeps every version from its start).
    /// - Throws: `.internalError` after `close()`.
    public func historyHorizon(in database: DatabaseID) throws(FirestoreError) -> Timestamp? {
        try withOpenState { horizons[database] }
    }

    /// The greatest commit time recorded since the store was created.
    /// - Throws: `.internalError` after `close()`.
    public func lastCommitTime() throws(FirestoreError) -> Timestamp? {
        try withOpenState { lastCommit }
    }

    /// Marks the store closed; later calls throw. Open snapshots keep their copies.
    public func close() {
        lock.lock()
        defer { lock.unlock() }
        isClosed = true
        databases = [:]
        history = []
    }
}
