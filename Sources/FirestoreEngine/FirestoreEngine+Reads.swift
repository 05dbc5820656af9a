import DocumentStore
import FirestoreModel
import SecurityRules

extension FirestoreEngine {
    /// GetDocument.
    /// - Throws: `.notFound` (`Document "…" not found.`) when missing; `.permissionDenied`
    ///   when rules deny `get`; `.invalidArgument` for a bad or expired transaction.
    /// Source: Firestore REST v1 GetDocument; docs/reference/firestore-wire.md §1.3.
    public func getDocument(
        _ path: ResourcePath, in database: DatabaseID, consistency: ReadConsistency = .strong, auth: AuthContext
    ) throws(FirestoreError) -> ReadResult<Document> {
        try read(database, consistency) { (view, readTime) throws(FirestoreError) -> Document in
            let doc = try view.document(path)
            try authorize(
                [AccessRequest(database: database, method: .get, path: path, auth: auth, time: readTime, resource: doc)],
                lookup: view)
            guard let doc else {
                throw .notFound("Document \"\(database.resourceName(path))\" not found.")
            }
            return doc
        }
    }

    /// BatchGetDocuments: one result per distinct requested path, in request order.
    /// - Throws: `.permissionDenied` when rules deny any `get`.
    public func batchGet(
        _ paths: [ResourcePath], in database: DatabaseID, consistency: ReadConsistency = .strong, auth: AuthContext
    ) throws(FirestoreError) -> ReadResult<[BatchGetResult]> {
        try read(database, consistency) { (view, readTime) throws(FirestoreError) -> [BatchGetResult] in
            var seen = Set<ResourcePath>()
            var results: [BatchGetResult] = []
            var requests: [AccessRequest] = []
            for p in paths where seen.insert(p).inserted {
                let d = try view.document(p)
                requests.append(
                    AccessRequest(database: database, method: .get, path: p, auth: auth, time: readTime, resource: d))
                results.append(d.map(BatchGetResult.found) ?? .missing(p))
            }
            try authorize(requests, lookup: view)
            return results
        }
    }

    /// RunQuery: the documents of `target` and how many `offset` skipped.
    /// - Throws: `.invalidArgument` for invalid queries; `.permissionDenied` when the rules
    ///   cannot be proven for every possible result ("rules are not filters").
    ///   `.failedPrecondition` when the query lacks an index and `indexes.requireIndexes` is on.
    public func runQuery(
        _ target: QueryTarget, in database: DatabaseID, consistency: ReadConsistency = .strong, auth: AuthContext
    ) throws(FirestoreError) -> ReadResult<(documents: [Document], skipped: Int)> {
        let r = try explainQuery(target, in: database, consistency: consistency, auth: auth)
        return ReadResult(value: (r.value.documents, r.value.skipped), readTime: r.readTime, transaction: r.transaction)
    }

    /// `runQuery`, also reporting what the store read to answer (explain, the request log).
    /// - Throws: as `runQuery`.
    public func explainQuery(
        _ target: QueryTarget, in database: DatabaseID, consistency: ReadConsistency = .strong, auth: AuthContext
    ) throws(FirestoreError) -> ReadResult<(documents: [Document], skipped: Int, statistics: QueryStatistics)> {
        try validate(target)
        try prepareQuery(target, in: database)
        return try read(database, consistency) {
            (view, readTime) throws(FirestoreError) -> (documents: [Document], skipped: Int, statistics: QueryStatistics) in
            try authorizeList(target, database: database, auth: auth, time: readTime, view: view)
            var statistics = QueryStatistics()
            let r = try view.snapshot.runQuery(target, in: database, statistics: &statistics)
            if view.recording { for d in r.documents { view.record(d.path, d) } }
            return (r.documents, r.skipped, statistics)
        }
    }

    /// ListDocuments of collection `collection`, in `__name__` order, paged by `pageToken`
    /// (the last name returned). With `showMissing`, missing documents that have
    /// sub-documents are included (as documents without fields or times) — admin only, as
    /// on the emulator.
    /// - Throws: `.permissionDenied` for `showMissing` without admin or when rules deny `list`.
    public func listDocuments(
        in collection: ResourcePath, database: DatabaseID, pageSize: Int?, after: ResourcePath?, showMissing: Bool,
        consistency: ReadConsistency = .strong, auth: AuthContext
    ) throws(FirestoreError) -> ReadResult<(documents: [ListedDocument], next: ResourcePath?)> {
        guard collection.isCollection else { throw .invalidArgument("Invalid collection path: \(collection)") }
        if showMissing && !auth.isAdmin {
            throw .permissionDenied("Metadata operations require admin authentication.")
        }
        let pageLimit = pageSize.flatMap { $0 > 0 ? $0 : nil }
        return try read(database, consistency) { (view, readTime) throws(FirestoreError) -> (documents: [ListedDocument], next: ResourcePath?) in
            let target = QueryTarget(parent: collection.parent, query: StructuredQuery(collectionID: collection.lastSegment))
            try authorizeList(target, database: database, auth: auth, time: readTime, view: view)
            var items = try view.snapshot.listDocuments(
                in: collection, database: database, startAfter: after, limit: pageLimit.map { $0 + 1 }
            ).map(ListedDocument.document)
            if showMissing {
                let missing = try view.snapshot.missingDocuments(in: collection, database: database)
                    .filter { p in after.map { $0 < p } ?? true }
                items += missing.map(ListedDocument.missing)
                items.sort { $0.path < $1.path }
            }
            var next: ResourcePath?
            if let l = pageLimit, items.count > l {
                items.removeLast(items.count - l)
                next = items.last?.path
            }
            return (items, next)
        }
    }

    /// ListCollectionIds under `parent` (a document, or the root), at `readTime` when given.
    /// Admin only, as on the emulator.
    /// - Throws: `.permissionDenied` without admin; as `checkedReadTime` for a bad read time.
    public func listCollectionIDs(
        under parent: ResourcePath, in database: DatabaseID, readTime: Timestamp? = nil, auth: AuthContext
    ) throws(FirestoreError) -> [String] {
        guard auth.isAdmin else { throw .permissionDenied("Metadata operations require admin authentication.") }
        let snapshot = try openSnapshot(at: readTime, in: database).snapshot
        defer { snapshot.close() }
        return try snapshot.collectionIDs(under: parent, in: database)
    }

    /// BeginTransaction. A read-only transaction with a read time reads the database as of
    /// that time; without one, as of its start.
    /// - Returns: the transaction id (opaque bytes).
    /// - Throws: as `checkedReadTime` for a bad read time.
    public func beginTransaction(in database: DatabaseID, mode: TransactionMode) throws(FirestoreError) -> [UInt8] {
        if case .readOnly(let at) = mode {
            let (snapshot, readTime) = try openSnapshot(at: at, in: database)
            // On refusal the registry drops (and so closes) the snapshot.
            return try transactions.begin(database: database, mode: mode, snapshot: snapshot, readTime: readTime)
        }
        return try transactions.begin(database: database, mode: mode, snapshot: nil, readTime: nil)
    }

    /// Number of open (unexpired) transactions.
    public var openTransactionCount: Int { transactions.count }

    /// Rollback: forgets the transaction. Rolling back one that already ended (committed, or
    /// failed its commit) succeeds, as the emulator answers: clients roll back after every
    /// failed commit and must then see the commit's own error, not the rollback's.
    /// - Throws: `.invalidArgument` ("Invalid transaction.") for an id never issued or expired.
    public func rollback(_ transaction: [UInt8], in database: DatabaseID) throws(FirestoreError) {
        if transactions.hasEnded(transaction) { return }
        do throws(FirestoreError) {
            _ = try transactions.take(transaction, database: database)
        } catch {
            throw .invalidArgument("Invalid transaction.")
        }
    }

    /// Opens a store snapshot and the read time it reflects, under the writer lock so no
    /// commit can fall between the two. With `readTime`, a point-in-time view of `database`'s
    /// state at that time (checked by `checkedReadTime`); later commits are then strictly after it.
    func openSnapshot(at readTime: Timestamp? = nil, in database: DatabaseID? = nil)
        throws(FirestoreError) -> (snapshot: any StoreSnapshot, readTime: Timestamp)
    {
        try writer.withLock { (state: inout WriterState) throws(FirestoreError) -> (snapshot: any StoreSnapshot, readTime: Timestamp) in
            guard let readTime else { return (try store.snapshot(), issueReadTime(&state)) }
            let now = issueReadTime(&state)
            try checkedReadTime(readTime, now: now, in: database)
            return (try store.snapshot(at: readTime), readTime)
        }
    }

    /// Refuses a `read_time` that production refuses (PartitionQuery, which reads nothing).
    /// - Throws: as `checkedReadTime`.
    public func checkReadTime(_ readTime: Timestamp?, in database: DatabaseID) throws(FirestoreError) {
        guard let readTime else { return }
        let now = writer.withLock { (state: inout WriterState) in issueReadTime(&state) }
        try checkedReadTime(readTime, now: now, in: database)
    }

    /// `checkedReadTime(_:now:retention:)`, and refuses as too old a read time before
    /// `database`'s history horizon (its latest clear or import, or when history began).
    func checkedReadTime(_ readTime: Timestamp, now: Timestamp, in database: DatabaseID?) throws(FirestoreError) {
        try Self.checkedReadTime(readTime, now: now, retention: versionRetention)
        if let database, let horizon = try store.historyHorizon(in: database), readTime < horizon {
            throw .failedPrecondition("The requested 'read_time' is too old.")
        }
    }

    /// Refuses a `read_time` that production refuses.
    /// - Parameter now: the latest read time issued (at or after the last commit).
    /// - Throws: `.invalidArgument` ("The requested 'read_time' cannot be in the future.") when
    ///   after `now`; `.failedPrecondition` ("The requested 'read_time' is too old.") when more
    ///   than `retention` before it. Texts and codes as emulator 1.19.9 answers them.
    ///   Before those, as the emulator checks them: `.invalidArgument` ("timestamp cannot have
    ///   more than microseconds precision") for sub-microsecond nanos (Firestore v1: read_time
    ///   "must be a microsecond precision timestamp"), and ("Only timestamps past epoch are
    ///   supported.") for the epoch or earlier.
    static func checkedReadTime(_ readTime: Timestamp, now: Timestamp, retention: Duration) throws(FirestoreError) {
        if readTime.nanos % 1000 != 0 { throw .invalidArgument("timestamp cannot have more than microseconds precision") }
        if !(Timestamp(seconds: 0, nanos: 0) < readTime) { throw .invalidArgument("Only timestamps past epoch are supported.") }
        if now < readTime { throw .invalidArgument("The requested 'read_time' cannot be in the future.") }
        if readTime < retentionHorizon(now: now, retention: retention) {
            throw .failedPrecondition("The requested 'read_time' is too old.")
        }
    }

    /// The oldest read time `retention` reaches back to from `now` (microsecond precision).
    static func retentionHorizon(now: Timestamp, retention: Duration) -> Timestamp {
        let window = retention.components
        return Timestamp(microseconds: now.microseconds - window.seconds * 1_000_000 - window.attoseconds / 1_000_000_000_000)
    }

    /// Runs `body` on the view `consistency` selects. `body` gets the view and the request's
    /// time for the access policy (rules' `request.time`): the view's read time, except for a
    /// read at a past `read_time` (directly or in a read-only transaction begun at one), which
    /// is evaluated at the time the request arrives, as production does ("request.time: when
    /// the request was received"; the emulator allows a past read that `request.time > X`
    /// admits now).
    func read<T: Sendable>(
        _ database: DatabaseID, _ consistency: ReadConsistency,
        _ body: (ReadView, Timestamp) throws(FirestoreError) -> T
    ) throws(FirestoreError) -> ReadResult<T> {
        var txID: [UInt8]?
        var newID: [UInt8]?
        var pointInTime: Timestamp?
        switch consistency {
        case .strong: break
        case .readTime(let t): pointInTime = t
        case .transaction(let id): txID = id
        case .newTransaction(let mode):
            let id = try beginTransaction(in: database, mode: mode)
            txID = id
            newID = id
        }
        guard let id = txID else {
            let (snapshot, readTime) = try openSnapshot(at: pointInTime, in: database)
            defer { snapshot.close() }
            let view = ReadView(snapshot: snapshot, database: database, recording: false)
            let requestTime = pointInTime == nil ? readTime : max(clock(), readTime)
            return ReadResult(value: try body(view, requestTime), readTime: readTime, transaction: nil)
        }
        // Read-only: read the held snapshot under the registry lock. Read-write: read the
        // latest state and record versions for validation at commit.
        let held = try transactions.with(id, database: database) { (e: inout TransactionRegistry.Entry) throws(FirestoreError) -> (TransactionRegistry.SnapshotBox, Timestamp, Bool)? in
            guard let s = e.snapshot, let t = e.readTime else { return nil }
            if case .readOnly(let at) = e.mode { return (s, t, at != nil) }
            return (s, t, false)
        }
        if let (box, readTime, past) = held {
            let requestTime = past ? max(clock(), readTime) : readTime
            let value = try transactions.with(id, database: database) { (_: inout TransactionRegistry.Entry) throws(FirestoreError) -> T in
                let view = ReadView(snapshot: box.snapshot, database: database, recording: false)
                return try body(view, requestTime)
            }
            return ReadResult(value: value, readTime: readTime, transaction: newID)
        }
        let (snapshot, readTime) = try openSnapshot()
        defer { snapshot.close() }
        let view = ReadView(snapshot: snapshot, database: database, recording: true)
        let outcome: Result<T, FirestoreError>
        do throws(FirestoreError) {
            outcome = .success(try body(view, readTime))
        } catch {
            outcome = .failure(error)
        }
        // Record what was read even when the read fails: a GetDocument of a missing document
        // answers NOT_FOUND, yet its absence is a read the commit must validate.
        let recorded = view.recorded
        try transactions.with(id, database: database) { (e: inout TransactionRegistry.Entry) throws(FirestoreError) in
            for (p, v) in recorded where e.readVersions[p] == nil { e.readVersions[p] = v }
        }
        return ReadResult(value: try outcome.get(), readTime: readTime, transaction: newID)
    }

    func validate(_ target: QueryTarget) throws(FirestoreError) {
        guard target.parent.segments.isEmpty || target.parent.isDocument else {
            throw .invalidArgument("Query parent must be a document or the database root: \(target.parent)")
        }
        try target.query.validate()
    }

    /// Applies the access policy unless the caller is admin.
    func authorize(_ requests: [AccessRequest], lookup: any AccessLookup) throws(FirestoreError) {
        guard let first = requests.first, !first.auth.isAdmin else { return }
        if let error = policy(forProject: first.database.project).check(requests, lookup: lookup) { throw error }
    }

    func authorizeList(
        _ target: QueryTarget, database: DatabaseID, auth: AuthContext, time: Timestamp, view: ReadView
    ) throws(FirestoreError) {
        try authorize(
            [AccessRequest(
                database: database, method: .list, path: target.parent.appending(target.query.collectionID), auth: auth,
                time: time, query: QueryConstraints(target.query))],
            lookup: view)
    }
}
