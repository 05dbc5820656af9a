import DocumentStore
import FirestoreModel
import Synchronization

/// Firestore semantics over a `DocumentStore`: reads, queries, aggregations, commits,
/// transactions, the rules gate and the change feed — the one engine behind REST, gRPC and
/// the in-process Admin client.
///
/// Concurrency: commits are serialised by the writer lock (one writer, docs/ARCHITECTURE.md
/// "Concurrency"); reads open their own store snapshot and run concurrently. Every method but
/// `groupCommit` is synchronous and may block on storage I/O for the duration of one SQLite
/// transaction; `groupCommit` waits without a thread while the writer queue commits its group.
public final class FirestoreEngine: Sendable {
    /// Storage.
    let store: any DocumentStore
    /// The clock; injected so tests control commit times.
    let clock: @Sendable () -> Timestamp
    /// Commit-time bookkeeping; its lock is the writer lock.
    let writer: Mutex<WriterState>
    /// Commits waiting for the writer queue (`groupCommit`).
    let groupCommits = GroupCommitQueue()
    /// Open transactions.
    let transactions: TransactionRegistry
    /// The access policy per project (security rules), with a default for every other project.
    let policies: Mutex<PolicyTable>
    /// Observers of committed changes (listen targets, function triggers).
    let observers: Mutex<[Int: @Sendable (CommittedChange) -> Void]>
    /// Writes stored in the same store transaction as each commit (`setCommitOutbox`).
    let outbox = Mutex<CommitOutbox?>(nil)
    /// Told once when writes start failing for storage (disk full, read-only file) and once
    /// when they succeed again (`onStorageTrouble`); the flag says which state holds, so a
    /// commit in the normal state reads one atomic and takes no lock.
    let storageTrouble = Mutex<(@Sendable (String) -> Void)?>(nil)
    let storageFailing = Atomic<Bool>(false)
    /// Listen targets by collection, collection group and document (lock order: writer, then this).
    let listenRoutes: Mutex<ListenRoutes>
    /// How long superseded document versions stay readable at a `read_time` (production: one hour).
    public let versionRetention: Duration
    /// Index definitions, `--require-indexes`, and the missing indexes seen.
    public let indexes: IndexCatalog

    struct WriterState {
        /// Greatest commit time issued; commits are strictly increasing.
        var lastCommitTime: Timestamp
        /// Greatest read time handed out; every later commit is strictly greater.
        var lastReadTime: Timestamp
        var nextObserverID = 0
    }

    struct PolicyTable {
        var defaultPolicy: any AccessPolicy
        var byProject: [String: any AccessPolicy] = [:]
    }

    /// Creates an engine over `store`.
    /// - Parameters:
    ///   - policy: the access policy for every project (security rules, or open).
    ///   - clock: the wall clock in UTC; defaults to the system clock with microsecond precision.
    ///   - versionRetention: how far back `read_time` reads reach (`defaultVersionRetention`).
    ///   - indexes: the index catalog (definitions and whether missing indexes are refused).
    /// - Throws: `.internalError` when the store cannot report its last commit time.
    public init(
        store: any DocumentStore, policy: any AccessPolicy = OpenAccessPolicy(),
        clock: @escaping @Sendable () -> Timestamp = FirestoreEngine.systemClock,
        versionRetention: Duration = FirestoreEngine.defaultVersionRetention,
        indexes: IndexCatalog = IndexCatalog()
    ) throws(FirestoreError) {
        self.store = store
        self.indexes = indexes
        self.clock = clock
        self.versionRetention = versionRetention
        let last = try store.lastCommitTime() ?? Timestamp(seconds: 0, nanos: 0)
        self.writer = Mutex(WriterState(lastCommitTime: last, lastReadTime: last))
        self.transactions = TransactionRegistry(clock: clock)
        self.policies = Mutex(PolicyTable(defaultPolicy: policy))
        self.observers = Mutex([:])
        self.listenRoutes = Mutex(ListenRoutes())
    }

    /// The system clock truncated to microseconds (Firestore stores microseconds).
    public static let systemClock: @Sendable () -> Timestamp = {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Timestamp(seconds: Int64(ts.tv_sec), nanos: Int32(ts.tv_nsec / 1000 * 1000))
    }

    /// Production's version retention: reads at a `read_time` reach back one hour (without
    /// point-in-time recovery). Source: Firestore v1 `read_time` ("a microsecond precision
    /// timestamp within the past one hour").
    public static let defaultVersionRetention: Duration = .seconds(3600)

    /// Replaces the policy of every project without its own.
    public func setDefaultPolicy(_ policy: any AccessPolicy) {
        policies.withLock { $0.defaultPolicy = policy }
    }

    /// Replaces the policy of one project (`PUT …:securityRules`).
    public func setPolicy(_ policy: any AccessPolicy, forProject project: String) {
        policies.withLock { $0.byProject[project] = policy }
    }

    /// The policy in force for `project`.
    public func policy(forProject project: String) -> any AccessPolicy {
        policies.withLock { $0.byProject[project] ?? $0.defaultPolicy }
    }

    /// Deletes every document of `database` (emulator clear endpoint). Not seen by rules.
    /// - Throws: `.internalError` on storage failure.
    public func clear(_ database: DatabaseID) throws(FirestoreError) {
        try writer.withLock { (state: inout WriterState) throws(FirestoreError) in
            let t = nextCommitTime(&state)
            try store.deleteAll(in: database, at: t)
            state.lastCommitTime = t
            notify(CommittedChange(database: database, commitTime: t, changes: [], cleared: true))
        }
    }

    /// Closes the store. Later calls fail.
    public func close() { store.close() }

    /// A read time no later commit can precede: max(now, last commit), recorded under the writer lock.
    func issueReadTime(_ state: inout WriterState) -> Timestamp {
        var t = clock()
        if t < state.lastCommitTime { t = state.lastCommitTime }
        if state.lastReadTime < t { state.lastReadTime = t }
        return t
    }

    /// The next commit time: strictly after every commit and read time issued so far.
    func nextCommitTime(_ state: inout WriterState) -> Timestamp {
        var t = clock()
        let floor = max(state.lastCommitTime, state.lastReadTime)
        if !(floor < t) { t = Timestamp(microseconds: floor.microseconds + 1) }
        return t
    }
}

import Glibc

extension FirestoreEngine {
    /// Drops the superseded document versions no `read_time` read may reach any more (ended
    /// more than `versionRetention` ago), in batches of `batchSize`, so a writer waits for one
    /// batch at most. Run it periodically (the composition root does, every few seconds).
    /// - Returns: how many versions were dropped.
    /// - Throws: `.internalError` on storage failure.
    @discardableResult
    public func collectExpiredVersions(batchSize: Int = 1000) throws(FirestoreError) -> Int {
        let horizon = Self.retentionHorizon(now: clock(), retention: versionRetention)
        var total = 0
        while true {
            let n = try store.collectVersions(endedBefore: horizon, limit: batchSize)
            total += n
            if n < batchSize { return total }
        }
    }
}
