import DocumentStore
import FirestoreModel
import Synchronization

/// Open transactions: read-write ones record the version of each document they read
/// (validated at commit — optimistic, so a conflict is an immediate ABORTED, never a lock
/// stall); read-only ones hold one store snapshot so every read sees the same state.
///
/// Limits as production: 270 s lifetime, 60 s idle. Source: docs/reference/firestore-wire.md §1.10, §1.4.
final class TransactionRegistry: Sendable {
    struct Entry {
        var database: DatabaseID
        var mode: TransactionMode
        /// Version read per document: its update time, or nil when it was missing.
        var readVersions: [ResourcePath: Timestamp?] = [:]
        var snapshot: SnapshotBox?
        var readTime: Timestamp?
        var created: Timestamp
        var lastUsed: Timestamp

        /// A retry (`retryTransaction` set) keeps its "place in line": while it is active, a
        /// competing first-attempt transaction that writes what it read is aborted instead.
        var hasPriority: Bool {
            if case .readWrite(let retrying?) = mode { return !retrying.isEmpty }
            return false
        }
    }

    /// A held read-only snapshot.
    /// `@unchecked Sendable`: the snapshot is only touched while `TransactionRegistry.entries`'
    /// lock is held, so no two threads use it at once.
    final class SnapshotBox: @unchecked Sendable {
        let snapshot: any StoreSnapshot
        init(_ s: any StoreSnapshot) { snapshot = s }
        deinit { snapshot.close() }
    }

    let entries = Mutex<[[UInt8]: Entry]>([:])
    /// Ids of transactions that ended (committed, failed or rolled back), newest last: rolling
    /// one back again succeeds, as the emulator answers; an id never issued is refused.
    let finished = Mutex<(ids: Set<[UInt8]>, order: [[UInt8]])>((Set(), []))
    static let finishedKept = 10_000
    let counter = Atomic<UInt64>(0)
    let clock: @Sendable () -> Timestamp
    static let maxLifetimeMicros: Int64 = 270_000_000
    static let maxIdleMicros: Int64 = 60_000_000

    init(clock: @escaping @Sendable () -> Timestamp) { self.clock = clock }

    /// Most read-only transactions open at once: each holds a store snapshot (for SQLite a
    /// reader connection and its descriptors) until it ends or expires.
    static let maxHeldSnapshots = 16
    /// Most transactions open at once.
    static let maxOpen = 10_000

    /// Opens a transaction and returns its id.
    /// - Throws: `.resourceExhausted` when too many transactions (or read-only snapshots) are open.
    func begin(database: DatabaseID, mode: TransactionMode, snapshot: (any StoreSnapshot)?, readTime: Timestamp?)
        throws(FirestoreError) -> [UInt8]
    {
        let n = counter.add(1, ordering: .relaxed).newValue
        var id: [UInt8] = withUnsafeBytes(of: n.bigEndian, Array.init)
        var rng = SystemRandomNumberGenerator()
        id += withUnsafeBytes(of: rng.next() as UInt64, Array.init)
        let now = clock()
        let entry = Entry(
            database: database, mode: mode, snapshot: snapshot.map(SnapshotBox.init), readTime: readTime,
            created: now, lastUsed: now)
        let admitted = entries.withLock { table -> Bool in
            expire(&table, now: now)
            if case .readWrite(let retrying?) = mode { table[retrying] = nil }
            if table.count >= Self.maxOpen { return false }
            if snapshot != nil, table.values.lazy.filter({ $0.snapshot != nil }).count >= Self.maxHeldSnapshots {
                return false
            }
            table[id] = entry
            return true
        }
        guard admitted else {
            throw FirestoreError(
                .resourceExhausted,
                "Too many open transactions: commit or roll back some (read-only ones hold a snapshot until they end or expire after 60 s idle).")
        }
        return id
    }

    /// Runs `body` with the live entry of `id` (touching its idle timer).
    /// - Throws: `.invalidArgument` when the id is unknown, expired, or of another database.
    func with<T>(_ id: [UInt8], database: DatabaseID, _ body: (inout Entry) throws(FirestoreError) -> T)
        throws(FirestoreError) -> T
    {
        let now = clock()
        return try entries.withLock { (table: inout [[UInt8]: Entry]) throws(FirestoreError) -> T in
            expire(&table, now: now)
            guard var e = table[id], e.database == database else {
                throw .invalidArgument("The referenced transaction has expired or is no longer valid.")
            }
            e.lastUsed = now
            let r = try body(&e)
            table[id] = e
            return r
        }
    }

    /// Removes and returns the entry (commit or rollback), remembering that it ended.
    /// - Throws: `.invalidArgument` when the id is unknown, expired or already ended.
    func take(_ id: [UInt8], database: DatabaseID) throws(FirestoreError) -> Entry {
        let now = clock()
        let entry = try entries.withLock { (table: inout [[UInt8]: Entry]) throws(FirestoreError) -> Entry in
            expire(&table, now: now)
            guard let e = table[id], e.database == database else {
                throw .invalidArgument("Transaction is invalid or closed.")
            }
            table[id] = nil
            return e
        }
        finished.withLock { f in
            if f.ids.insert(id).inserted { f.order.append(id) }
            if f.order.count > Self.finishedKept {
                let drop = f.order.count - Self.finishedKept
                for old in f.order.prefix(drop) { f.ids.remove(old) }
                f.order.removeFirst(drop)
            }
        }
        return entry
    }

    /// True when `id` named a transaction that has ended.
    func hasEnded(_ id: [UInt8]) -> Bool { finished.withLock { $0.ids.contains(id) } }

    /// How long a retrying transaction keeps priority after its last use (a crashed client
    /// must not block writers for the whole 60 s idle timeout).
    static let priorityHoldMicros: Int64 = 10_000_000

    /// True when an active retrying transaction of `database` has read one of `paths`.
    func retryHasRead(any paths: Set<ResourcePath>, in database: DatabaseID) -> Bool {
        let now = clock().microseconds
        return entries.withLock { table in
            table.values.contains { e in
                e.database == database && e.hasPriority && now - e.lastUsed.microseconds < Self.priorityHoldMicros
                    && e.readVersions.keys.contains(where: paths.contains)
            }
        }
    }

    /// Number of open transactions (for tests and diagnostics).
    var count: Int { entries.withLock { $0.count } }

    private func expire(_ table: inout [[UInt8]: Entry], now: Timestamp) {
        let n = now.microseconds
        table = table.filter { _, e in
            n - e.created.microseconds < Self.maxLifetimeMicros && n - e.lastUsed.microseconds < Self.maxIdleMicros
        }
    }
}
