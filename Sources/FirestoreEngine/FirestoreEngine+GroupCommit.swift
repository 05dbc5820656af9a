import Dispatch
import DocumentStore
import FirestoreModel
import Synchronization

extension FirestoreEngine {
    /// Commit for callers that can wait without holding a thread (REST, gRPC, the Write
    /// stream): the commit joins the commits queued while the store was busy, and the group
    /// is applied in one SQLite transaction with one fsync on the writer queue, off Swift's
    /// cooperative pool.
    ///
    /// Each commit of a group is checked and applied exactly as `commit` does, in arrival
    /// order, over the store as the group's earlier commits left it (preconditions, transforms,
    /// transaction reads and rules' `get()` see them), and gets its own commit time. A commit
    /// that fails its checks fails alone; a storage failure fails the whole group and stores
    /// nothing. Every commit is acknowledged only after the group's transaction is durable.
    /// `checksVerifyCombinations: false` skips `checkVerifyCombinations`, as the emulator's
    /// Write stream does (it takes a verify after a write of the same document, or two verifies).
    /// - Throws: as `commit`.
    /// Source: issue 14 item 2 (group commit); Firestore REST v1 Commit.
    public func groupCommit(
        _ writes: [Write], in database: DatabaseID, transaction: [UInt8]? = nil, auth: AuthContext,
        checksVerifyCombinations: Bool = true
    ) async throws(FirestoreError) -> CommitOutcome {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<CommitOutcome, FirestoreError>, Never>) in
            groupCommit(
                writes, in: database, transaction: transaction, auth: auth,
                checksVerifyCombinations: checksVerifyCombinations
            ) { continuation.resume(returning: $0) }
        }
        return try result.get()
    }

    /// `groupCommit` for a caller with no task to suspend (the HTTP event loop): `completion`
    /// gets the outcome on the writer's thread (or at once, on the caller's, when a write is
    /// invalid), after the group's transaction is durable.
    public func groupCommit(
        _ writes: [Write], in database: DatabaseID, transaction: [UInt8]? = nil, auth: AuthContext,
        checksVerifyCombinations: Bool = true,
        completion: @escaping @Sendable (Result<CommitOutcome, FirestoreError>) -> Void
    ) {
        do throws(FirestoreError) {
            try validate(writes, in: database, checksVerifyCombinations: checksVerifyCombinations)
        } catch {
            return completion(.failure(error))
        }
        groupCommits.enqueue(
            GroupCommitQueue.Job(writes: writes, database: database, transaction: transaction, auth: auth, complete: completion),
            engine: self)
    }

    /// Applies `jobs` as one group (see `groupCommit`) and answers every job. Runs on the
    /// writer queue only.
    func commitGroup(_ jobs: [GroupCommitQueue.Job]) {
        writer.withLock { (state: inout WriterState) in
            let snapshot: any StoreSnapshot
            do throws(FirestoreError) {
                snapshot = try store.snapshot()
            } catch {
                for job in jobs { job.complete(.failure(error)) }
                return
            }
            defer { snapshot.close() }
            let overlay = GroupOverlaySnapshot(base: snapshot)
            var accepted: [(job: GroupCommitQueue.Job, prepared: PreparedCommit)] = []
            for job in jobs {
                do throws(FirestoreError) {
                    let prepared = try prepareCommit(
                        job.writes, in: job.database, transaction: job.transaction, auth: job.auth, over: overlay, state: &state)
                    state.lastCommitTime = prepared.commitTime
                    overlay.record(prepared.batch.mutations, in: job.database)
                    accepted.append((job, prepared))
                } catch {
                    job.complete(.failure(error))
                }
            }
            // Released before the write, as in `commit`.
            snapshot.close()
            do throws(FirestoreError) {
                try storeCommits(accepted.map { ($0.job.database, $0.prepared) })
            } catch {
                for entry in accepted { entry.job.complete(.failure(error)) }
                return
            }
            for entry in accepted {
                entry.job.complete(.success(finishCommit(entry.prepared, in: entry.job.database, state: &state)))
            }
        }
    }
}

/// The commits waiting for the writer queue, and whether a drain is running.
///
/// `enqueue` starts a drain on the serial writer queue when none runs; the drain takes every
/// queued job at once (the group), commits it, and repeats until the queue is empty, so
/// commits that arrive during one fsync share the next.
final class GroupCommitQueue: Sendable {
    /// One waiting commit.
    struct Job: Sendable {
        var writes: [Write]
        var database: DatabaseID
        var transaction: [UInt8]?
        var auth: AuthContext
        /// Gets the outcome, once.
        var complete: @Sendable (Result<CommitOutcome, FirestoreError>) -> Void
    }

    private struct State {
        var pending: [Job] = []
        var draining = false
    }

    /// Most commits in one group: bounds one transaction's size and the wait of its first.
    static let maxGroup = 256

    private let state = Mutex(State())
    /// Groups taken so far (each one SQLite transaction, one fsync), and the commits in them.
    let groupsCommitted = Atomic<Int>(0)
    let commitsGrouped = Atomic<Int>(0)
    /// Serial, so one drain runs at a time; its thread is Dispatch's, not the cooperative pool.
    private let queue = DispatchQueue(label: "hearth.firestore.writer", qos: .userInitiated)

    /// Commits ever queued.
    let commitsQueued = Atomic<Int>(0)

    func enqueue(_ job: Job, engine: FirestoreEngine) {
        commitsQueued.add(1, ordering: .relaxed)
        let start = state.withLock { s -> Bool in
            s.pending.append(job)
            if s.draining { return false }
            s.draining = true
            return true
        }
        if start { queue.async { self.drain(engine) } }
    }

    private func drain(_ engine: FirestoreEngine) {
        while true {
            let group = state.withLock { s -> [Job] in
                let n = min(s.pending.count, Self.maxGroup)
                let taken = Array(s.pending.prefix(n))
                s.pending.removeFirst(n)
                if taken.isEmpty { s.draining = false }
                return taken
            }
            if group.isEmpty { return }
            groupsCommitted.add(1, ordering: .relaxed)
            commitsGrouped.add(group.count, ordering: .relaxed)
            engine.commitGroup(group)
        }
    }
}

/// A store snapshot with the earlier commits of a group applied on top: `document` answers
/// from them first. Only `document` is overlaid (a commit reads nothing else); the listing
/// and query methods refuse once the overlay holds writes to the database asked about.
///
/// Used on the writer queue only, under the writer lock.
final class GroupOverlaySnapshot: StoreSnapshot {
    private let base: any StoreSnapshot
    private var written: [DatabaseID: [ResourcePath: Document?]] = [:]

    init(base: any StoreSnapshot) { self.base = base }

    /// Lays `mutations` over the snapshot.
    func record(_ mutations: [Mutation], in database: DatabaseID) {
        for m in mutations {
            switch m {
            case .put(let d): written[database, default: [:]][d.path] = .some(d)
            case .delete(let p): written[database, default: [:]][p] = .some(nil)
            }
        }
    }

    func document(_ path: ResourcePath, in database: DatabaseID) throws(FirestoreError) -> Document? {
        if let overlaid = written[database]?[path] { return overlaid }
        return try base.document(path, in: database)
    }

    private func unlayered(_ database: DatabaseID) throws(FirestoreError) {
        if written[database]?.isEmpty == false {
            throw .internalError("A commit of a group read more than documents by name.")
        }
    }

    func listDocuments(in collection: ResourcePath, database: DatabaseID, startAfter: ResourcePath?, limit: Int?)
        throws(FirestoreError) -> [Document]
    {
        try unlayered(database)
        return try base.listDocuments(in: collection, database: database, startAfter: startAfter, limit: limit)
    }

    func missingDocuments(in collection: ResourcePath, database: DatabaseID) throws(FirestoreError) -> [ResourcePath] {
        try unlayered(database)
        return try base.missingDocuments(in: collection, database: database)
    }

    func collectionIDs(under parent: ResourcePath, in database: DatabaseID) throws(FirestoreError) -> [String] {
        try unlayered(database)
        return try base.collectionIDs(under: parent, in: database)
    }

    func runQuery(_ target: QueryTarget, in database: DatabaseID, statistics: inout QueryStatistics)
        throws(FirestoreError) -> (documents: [Document], skipped: Int)
    {
        try unlayered(database)
        return try base.runQuery(target, in: database, statistics: &statistics)
    }

    func close() {}
}
