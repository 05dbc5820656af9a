import DocumentStore
import FirestoreModel

/// The reads of an exclusive transaction (`FirestoreEngine.exclusiveTransaction`): the latest
/// committed state, which no commit can change before the transaction's own. Valid only
/// inside the transaction's body.
public final class ExclusiveReads {
    private let snapshot: any StoreSnapshot
    /// The database read.
    public let database: DatabaseID
    /// The time the reads reflect: after every commit so far, before the transaction's own.
    public let readTime: Timestamp

    init(snapshot: any StoreSnapshot, database: DatabaseID, readTime: Timestamp) {
        self.snapshot = snapshot
        self.database = database
        self.readTime = readTime
    }

    /// The document at `path`, or nil when missing.
    /// - Throws: `.invalidArgument` for a path that is not a document's; `.internalError` on storage failure.
    public func document(_ path: ResourcePath) throws(FirestoreError) -> Document? {
        try path.validateIDs()
        guard path.isDocument else { throw .invalidArgument("\"\(path)\" is not a document path.") }
        return try snapshot.document(path, in: database)
    }

    /// The answer of `scan` (`RangeScan`), each document passed to `accept`; the non-nil
    /// results in answer order. On the SQLite store a large answer is read from the stored
    /// bytes of the projected fields only (`StoreSnapshot.scanRanges`).
    /// - Throws: `.invalidArgument` for a range query Firestore refuses; `.internalError` on
    ///   storage failure; what `accept` throws.
    public func scanRanges<T>(_ scan: RangeScan, _ accept: (ProjectedDocument) throws(FirestoreError) -> T?)
        throws(FirestoreError) -> [T]
    {
        guard scan.collection.isCollection else { throw .invalidArgument("\"\(scan.collection)\" is not a collection path.") }
        try scan.collection.validateIDs()
        for range in scan.ranges { try scan.query(for: range).query.validate() }
        return try snapshot.scanRanges(scan, in: database, accept)
    }
}

extension FirestoreEngine {
    /// A read-write transaction that holds the writer from its first read to its commit, so
    /// nothing it read can change before its writes land: `body` reads through
    /// `ExclusiveReads` and returns the writes, which are then committed as `commit` would
    /// (as admin: rules do not apply), with no read versions to check and no ABORTED retry.
    ///
    /// For server code whose reads are large (a fan-out's audience query): a read-write
    /// transaction would record and re-check every document it read. Commits of other callers
    /// wait while `body` runs, so keep it short.
    /// - Precondition: `body` calls no other method of this engine (the writer is held: it
    ///   would deadlock).
    /// - Returns: what `body` returned with its writes, and the commit's outcome.
    /// - Throws: what `body` throws (nothing is written then); then as `commit`.
    /// Source: issue 14 item 5; docs/app/shouts-and-whispers.md §4 steps 3–5.
    public func exclusiveTransaction<T>(
        in database: DatabaseID, _ body: (ExclusiveReads) throws -> (writes: [Write], value: T)
    ) throws -> (value: T, outcome: CommitOutcome) {
        try writer.withLock { (state: inout WriterState) throws -> (value: T, outcome: CommitOutcome) in
            let snapshot = try store.snapshot()
            defer { snapshot.close() }
            let readTime = issueReadTime(&state)
            let (writes, value) = try body(ExclusiveReads(snapshot: snapshot, database: database, readTime: readTime))
            try validate(writes, in: database)
            let prepared = try prepareCommit(writes, in: database, transaction: nil, auth: .admin, over: snapshot, state: &state)
            // Released before the write, as in `commit`.
            snapshot.close()
            try storeCommits([(database, prepared)])
            return (value, finishCommit(prepared, in: database, state: &state))
        }
    }

    /// Commits `batches` in order, each exactly as `commit` would (its own checks and commit
    /// time, over the state the earlier ones left), and stores them together in one store
    /// transaction: one fsync for all. Listeners and observers hear of each batch once, in
    /// order, after the store returned.
    ///
    /// The same outcome as committing the batches one by one: a batch that fails its checks
    /// stops the run there — the batches before it are stored (durably) and its error is
    /// thrown; a storage failure stores none.
    /// - Returns: one outcome per batch.
    /// - Throws: the first failing batch's error (as `commit`), after storing the earlier ones.
    /// Source: issue 14 item 5 (fan-out in one transaction, listeners notified once per batch).
    public func commitBatches(_ batches: [[Write]], in database: DatabaseID, auth: AuthContext) throws(FirestoreError)
        -> [CommitOutcome]
    {
        try writer.withLock { (state: inout WriterState) throws(FirestoreError) -> [CommitOutcome] in
            let snapshot = try store.snapshot()
            defer { snapshot.close() }
            let overlay = GroupOverlaySnapshot(base: snapshot)
            var prepared: [PreparedCommit] = []
            var failure: FirestoreError?
            for writes in batches {
                do throws(FirestoreError) {
                    try validate(writes, in: database)
                    let p = try prepareCommit(writes, in: database, transaction: nil, auth: auth, over: overlay, state: &state)
                    state.lastCommitTime = p.commitTime
                    overlay.record(p.batch.mutations, in: database)
                    prepared.append(p)
                } catch {
                    failure = error
                    break
                }
            }
            snapshot.close()
            try storeCommits(prepared.map { (database, $0) })
            let outcomes = prepared.map { finishCommit($0, in: database, state: &state) }
            if let failure { throw failure }
            return outcomes
        }
    }
}
