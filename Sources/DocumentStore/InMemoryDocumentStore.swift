import FirestoreModel
import FoundationEssentials
import Synchronization

/// The reference `DocumentStore`: every database's documents in copy-on-write dictionaries.
///
/// A snapshot copies the dictionaries (O(1), copy-on-write), so it is consistent and never
/// blocks a commit. Queries scan the candidate documents and call
/// `StructuredQuery.evaluate(over:target:in:)`, which defines the answer every store must give.
/// Nothing survives the process. Thread-safe: one lock guards the state.
public final class InMemoryDocumentStore: DocumentStore, Sendable {
    /// Everything the store holds; snapshots receive value copies.
    private struct State {
        var databases: [DatabaseID: [ResourcePath: Document]] = [:]
        /// The latest clear of each database: reads before it are refused (`historyHorizon`).
        var horizons: [DatabaseID: Timestamp] = [:]
        /// Superseded versions in commit order: each was its path's state for
        /// `document.updateTime <= t < end`.
        var history: [(database: DatabaseID, document: Document, end: Timestamp)] = []
        var lastCommit: Timestamp?
        /// Composite index definitions by project (normalised); queries do not read them.
        var compositeIndexes: [String: [CompositeIndex]] = [:]
        var isClosed = false
    }

    private let state = Mutex(State())

    /// Creates an empty store.
    public init() {}

    private func withOpenState<T: Sendable>(_ body: (inout State) -> T) throws(FirestoreError) -> T {
        try state.withLock { state throws(FirestoreError) in
            guard !state.isClosed else { throw .internalError("The document store is closed.") }
            return body(&state)
        }
    }

    /// Opens a consistent view: a copy of the current dictionaries.
    /// - Throws: `.internalError` after `close()`.
    public func snapshot() throws(FirestoreError) -> any StoreSnapshot {
        InMemorySnapshot(databases: try withOpenState { $0.databases })
    }

    /// Applies `mutations` in order, all at once, and records `commitTime` (the greatest wins).
    /// - Throws: `.internalError` after `close()`.
    public func commit(_ mutations: [Mutation], in database: DatabaseID, commitTime: Timestamp) throws(FirestoreError) {
        try commit([CommitBatch(mutations: mutations, database: database, commitTime: commitTime)])
    }

    /// Applies the batches in order, all at once (one lock).
    /// - Throws: `.internalError` after `close()`.
    public func commit(_ batches: [CommitBatch]) throws(FirestoreError) {
        try withOpenState { state in
            for batch in batches {
                Self.apply(batch, to: &state)
            }
        }
    }

    private static func apply(_ batch: CommitBatch, to state: inout State) {
        let (database, commitTime) = (batch.database, batch.commitTime)
        // Taken out of the state, so the dictionary is uniquely referenced and changes in place
        // (when no snapshot holds it) instead of being copied whole on every commit.
        var documents = state.databases.removeValue(forKey: database) ?? [:]
        for mutation in batch.mutations {
            let old = documents[mutation.path]
            switch mutation {
            case .put(let d):
                if let old, old.updateTime != d.updateTime { state.history.append((database, old, commitTime)) }
                documents[d.path] = d
            case .delete(let p):
                if let old { state.history.append((database, old, commitTime)) }
                documents[p] = nil
            }
        }
        state.databases[database] = documents
        if state.lastCommit.map({ $0 < commitTime }) ?? true { state.lastCommit = commitTime }
    }

    /// A copy of the state at `readTime`: latest versions updated at or before it, and the
    /// superseded versions current then.
    /// - Throws: `.internalError` after `close()`.
    public func snapshot(at readTime: Timestamp) throws(FirestoreError) -> any StoreSnapshot {
        let (current, past) = try withOpenState { ($0.databases, $0.history) }
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
        try withOpenState { state in
            let n = min(state.history.prefix { $0.end < horizon }.count, max(limit, 0))
            state.history.removeFirst(n)
            return n
        }
    }

    /// Drops every document of `database` and its history; `time` becomes its horizon.
    /// - Throws: `.internalError` after `close()`.
    public func deleteAll(in database: DatabaseID, at time: Timestamp) throws(FirestoreError) {
        try withOpenState { state in
            state.databases[database] = nil
            state.history.removeAll { $0.database == database }
            state.horizons[database] = max(state.horizons[database] ?? time, time)
        }
    }

    /// The latest clear of `database`, if any (this store keeps every version from its start).
    /// - Throws: `.internalError` after `close()`.
    public func historyHorizon(in database: DatabaseID) throws(FirestoreError) -> Timestamp? {
        try withOpenState { $0.horizons[database] }
    }

    /// The greatest commit time recorded since the store was created.
    /// - Throws: `.internalError` after `close()`.
    public func lastCommitTime() throws(FirestoreError) -> Timestamp? {
        try withOpenState { $0.lastCommit }
    }

    /// Records `indexes` as `project`'s composite indexes (duplicates once). Queries here scan
    /// every document, so no index is built: the answer is the same.
    /// - Throws: `.internalError` after `close()`.
    public func defineCompositeIndexes(_ indexes: [CompositeIndex], project: String) throws(FirestoreError) {
        var wanted: [CompositeIndex] = []
        for index in indexes.map(\.normalized) where !wanted.contains(index) { wanted.append(index) }
        try withOpenState { $0.compositeIndexes[project] = wanted }
    }

    /// The normalised definitions the last `defineCompositeIndexes` of `project` recorded.
    /// - Throws: `.internalError` after `close()`.
    public func compositeIndexes(project: String) throws(FirestoreError) -> [CompositeIndex] {
        try withOpenState { $0.compositeIndexes[project] ?? [] }
    }

    /// Marks the store closed; later calls throw. Open snapshots keep their copies.
    public func close() {
        state.withLock { state in
            state.isClosed = true
            state.databases = [:]
            state.history = []
        }
    }
}
