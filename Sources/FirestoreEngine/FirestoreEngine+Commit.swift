import DocumentStore
import FirestoreModel
import SecurityRules

/// What a commit did: the results of Commit (googleapis `firestore.proto` CommitResponse) and
/// the document after each write, which CreateDocument and UpdateDocument return.
public struct CommitOutcome: Sendable {
    /// One result per write, in order.
    public var writeResults: [WriteResult]
    /// The commit time.
    public var commitTime: Timestamp
    /// The document after each write, in order (nil when it does not exist afterwards).
    public var documents: [Document?]
}

extension FirestoreEngine {
    /// Commit: applies `writes` atomically and in order, after checking the transaction's
    /// reads, the rules for every write, then the preconditions (a denied write fails the whole
    /// commit and changes nothing; `getAfter` sees the whole batch; see `apply`).
    ///
    /// - Throws: `.invalidArgument` for malformed writes or an unknown transaction,
    ///   `.aborted` when a document the transaction read changed since,
    ///   `.permissionDenied` when rules deny a write, then
    ///   `.notFound`/`.alreadyExists`/`.failedPrecondition` for preconditions,
    ///   `.internalError` on storage failure.
    /// Source: Firestore REST v1 Commit; docs/reference/firestore-wire.md §1.3–§1.4, docs/reference/security-rules.md §6.1.
    public func commit(_ writes: [Write], in database: DatabaseID, transaction: [UInt8]? = nil, auth: AuthContext)
        throws(FirestoreError) -> CommitOutcome
    {
        try validate(writes, in: database)
        return try writer.withLock { (state: inout WriterState) throws(FirestoreError) -> CommitOutcome in
            let snapshot = try store.snapshot()
            defer { snapshot.close() }
            let prepared = try prepareCommit(writes, in: database, transaction: transaction, auth: auth, over: snapshot, state: &state)
            // Released before the write: the in-memory store then mutates its state in place
            // instead of copying it away from the snapshot, and SQLite frees the reader.
            snapshot.close()
            try storeCommits([(database, prepared)])
            return finishCommit(prepared, in: database, state: &state)
        }
    }

    /// What an outbox adds to a commit: documents to put in another database (the engine's
    /// own bookkeeping database of the outbox's owner), or nil for nothing.
    public typealias CommitOutbox = @Sendable (CommittedChange) -> (database: DatabaseID, documents: [Document])?

    /// Sets (nil: removes) the one outbox: for each commit about to be stored it may return
    /// documents stored in the same store transaction (one fsync, all or nothing) and
    /// announced to nobody. The functions host keeps its trigger events there, so a commit and
    /// the events it owes its triggers survive `kill -9` together. Called under the writer
    /// lock; it must not call the engine.
    public func setCommitOutbox(_ outbox: CommitOutbox?) {
        self.outbox.withLock { $0 = outbox }
    }

    /// Stores prepared commits (and what the outbox adds to each) in one store transaction.
    /// - Throws: the store's `FirestoreError`; nothing is stored then.
    func storeCommits(_ prepared: [(database: DatabaseID, commit: PreparedCommit)]) throws(FirestoreError) {
        let outbox = self.outbox.withLock { $0 }
        var batches: [CommitBatch] = []
        for (database, p) in prepared where !p.batch.mutations.isEmpty {
            batches.append(CommitBatch(mutations: p.batch.mutations, database: database, commitTime: p.commitTime))
            if let outbox, !p.batch.changes.isEmpty,
                let extra = outbox(CommittedChange(database: database, commitTime: p.commitTime, changes: p.batch.changes)),
                !extra.documents.isEmpty
            {
                batches.append(
                    CommitBatch(mutations: extra.documents.map { .put($0) }, database: extra.database, commitTime: p.commitTime))
            }
        }
        guard !batches.isEmpty else { return }
        do throws(FirestoreError) {
            try store.commit(batches)
        } catch {
            if error.code == .resourceExhausted || error.code == .unavailable,
                !storageFailing.exchange(true, ordering: .relaxed)
            {
                storageTrouble.withLock { $0 }?(
                    "storage: writes fail: \(error.message) Reads go on; writes resume when the file can be written.")
            }
            throw error
        }
        if storageFailing.load(ordering: .relaxed), storageFailing.exchange(false, ordering: .relaxed) {
            storageTrouble.withLock { $0 }?("storage: writes succeed again")
        }
    }

    /// Sets where the one line goes when commits start failing for storage (a full disk: the
    /// store's `RESOURCE_EXHAUSTED`; a file that cannot be written: `UNAVAILABLE`) and the one
    /// line when they succeed again.
    public func onStorageTrouble(_ report: @escaping @Sendable (String) -> Void) {
        storageTrouble.withLock { $0 = report }
    }

    /// A commit checked and applied over a snapshot, not yet stored.
    struct PreparedCommit {
        var commitTime: Timestamp
        var batch: AppliedBatch
    }

    /// The part of a commit before storage, under the writer lock: takes the transaction,
    /// issues the commit time, checks the transaction's reads against `snapshot`, then applies
    /// `writes` (rules, preconditions).
    /// - Throws: as `commit`, except storage failures of the final write.
    func prepareCommit(
        _ writes: [Write], in database: DatabaseID, transaction: [UInt8]?, auth: AuthContext, over snapshot: any StoreSnapshot,
        state: inout WriterState
    ) throws(FirestoreError) -> PreparedCommit {
        var tx: TransactionRegistry.Entry?
        if let id = transaction {
            tx = try transactions.take(id, database: database)
            if case .readOnly = tx?.mode, !writes.isEmpty {
                throw .invalidArgument("Cannot modify entities in a read-only transaction.")
            }
        }
        let commitTime = nextCommitTime(&state)
        if let tx, case .readWrite = tx.mode {
            // Give way to a retrying transaction that read what this one writes (the
            // retry's "place in line", as production's lock queue gives it).
            if !tx.hasPriority, transactions.retryHasRead(any: Set(writes.map(\.path)), in: database) {
                throw .aborted("Too much contention on these documents. Please try again.")
            }
            for (path, version) in tx.readVersions {
                let current = try snapshot.document(path, in: database)
                if current?.updateTime != version {
                    throw .aborted("Too much contention on these documents. Please try again.")
                }
            }
        }
        let batch = try apply(writes, to: snapshot, in: database, commitTime: commitTime, auth: auth)
        return PreparedCommit(commitTime: commitTime, batch: batch)
    }

    /// The part of a commit after storage, under the writer lock: records the commit time and
    /// tells the listeners and observers.
    func finishCommit(_ prepared: PreparedCommit, in database: DatabaseID, state: inout WriterState) -> CommitOutcome {
        if state.lastCommitTime < prepared.commitTime { state.lastCommitTime = prepared.commitTime }
        if !prepared.batch.changes.isEmpty {
            notify(CommittedChange(database: database, commitTime: prepared.commitTime, changes: prepared.batch.changes))
        }
        return CommitOutcome(writeResults: prepared.batch.results, commitTime: prepared.commitTime, documents: prepared.batch.documents)
    }

    /// BatchWrite: applies each write on its own (not atomic); one status per write.
    /// Admin only, as on the emulator ("Batch writes require admin authentication.").
    /// - Throws: `.permissionDenied` without admin; `.invalidArgument` when two writes target
    ///   the same document, verifies included ("the same document cannot be written more than
    ///   once in a single request", the emulator's words), or a verify has no precondition.
    public func batchWrite(_ writes: [Write], in database: DatabaseID, auth: AuthContext) throws(FirestoreError)
        -> [Result<WriteResult, FirestoreError>]
    {
        guard auth.isAdmin else { throw .permissionDenied("Batch writes require admin authentication.") }
        var seen = Set<ResourcePath>()
        for w in writes where !seen.insert(w.path).inserted {
            throw .invalidArgument("the same document cannot be written more than once in a single request")
        }
        // A verify without a precondition fails the whole request, not its own write.
        for w in writes { try Self.checkVerifyPrecondition(w) }
        return writes.map { w in
            do throws(FirestoreError) {
                return .success(try commit([w], in: database, auth: auth).writeResults[0])
            } catch {
                return .failure(error)
            }
        }
    }

    struct AppliedBatch {
        var results: [WriteResult]
        var mutations: [Mutation]
        var changes: [DocumentChange]
        var documents: [Document?]
    }

    /// Applies writes in order over `snapshot`, checks rules, then preconditions, and returns
    /// the net mutations.
    ///
    /// The emulator decides rules before preconditions: a denied write whose precondition also
    /// fails answers PERMISSION_DENIED, not NOT_FOUND / ALREADY_EXISTS (corpus write.p1, p2,
    /// p4), and an allowed one then fails its precondition (write.p3). So every write is first
    /// applied as if its precondition held and shown to the rules that way — for `exists: false`
    /// on a stored document, `resource` is the stored document and `request.resource` the
    /// result — and only when the rules allow the whole batch is the first failing
    /// precondition, in write order, thrown.
    /// - Throws: a transform's `.invalidArgument` or a document-limit error as met, then
    ///   `.permissionDenied`, then the first precondition error.
    func apply(
        _ writes: [Write], to snapshot: any StoreSnapshot, in database: DatabaseID, commitTime: Timestamp,
        auth: AuthContext
    ) throws(FirestoreError) -> AppliedBatch {
        var original: [ResourcePath: Document?] = [:]
        var overlay: [ResourcePath: Document?] = [:]
        var order: [ResourcePath] = []
        var results: [WriteResult] = []
        var documents: [Document?] = []
        var requests: [AccessRequest] = []
        var preconditionFailure: FirestoreError?
        for w in writes {
            let path = w.path
            if original[path] == nil {
                original[path] = .some(try snapshot.document(path, in: database))
                order.append(path)
            }
            let before: Document? = overlay[path] ?? original[path] ?? nil
            if preconditionFailure == nil {
                preconditionFailure = Self.preconditionError(of: w, on: before, commitTime: commitTime, database: database)
            }
            var unconditional = w
            unconditional.currentDocument = .none
            let applied = try unconditional.apply(to: before, commitTime: commitTime, database: database)
            overlay[path] = .some(applied.document)
            results.append(applied.result)
            documents.append(applied.document)
            if let d = applied.document {
                // The sent fields were checked at 20 levels (`validate(_:in:)`); transforms may nest deeper.
                try DocumentLimits.validate(
                    fields: d.fields, path: path, database: database, maxDepth: DocumentLimits.maxTransformedDepth)
            }
            if !auth.isAdmin {
                let method = accessMethod(for: w, before: before)
                // A set or merge without precondition: the emulator's denial message also lists
                // the statements of the method that did not apply (`RulesRequest.isUpsert`).
                let writes = method == .create || method == .update
                let isUpsert = writes && w.currentDocument == .none
                requests.append(
                    AccessRequest(
                        database: database, method: method, path: path, auth: auth, time: commitTime,
                        resource: before, requestResource: writes ? applied.document : nil, isUpsert: isUpsert))
            }
        }
        if !requests.isEmpty {
            try authorize(requests, lookup: BatchLookup(snapshot: snapshot, database: database, overlay: overlay))
        }
        if let preconditionFailure { throw preconditionFailure }
        var mutations: [Mutation] = []
        var changes: [DocumentChange] = []
        for path in order {
            let before = original[path] ?? nil
            let after = overlay[path] ?? nil
            if before == after { continue }
            mutations.append(after.map(Mutation.put) ?? .delete(path))
            changes.append(DocumentChange(path: path, before: before, after: after))
        }
        return AppliedBatch(results: results, mutations: mutations, changes: changes, documents: documents)
    }

    /// The error `write`'s precondition raises against `current`, or nil when it holds: the
    /// model's own check, run through a `verify` of the same document (which changes nothing).
    static func preconditionError(of write: Write, on current: Document?, commitTime: Timestamp, database: DatabaseID)
        -> FirestoreError?
    {
        if case .none = write.currentDocument { return nil }
        let check = Write(operation: .verify(write.path), currentDocument: write.currentDocument)
        do throws(FirestoreError) {
            _ = try check.apply(to: current, commitTime: commitTime, database: database)
            return nil
        } catch {
            return error
        }
    }

    /// The rules method of a write. A precondition names it: `exists: false` is a create and
    /// `exists: true` or an `updateTime` an update, whatever is stored (corpus write.p1, p2,
    /// p4); without one, the stored document decides. A `verify` is a read of the document, so
    /// it is decided as a `get` — its precondition must not reveal a document the caller may
    /// not read.
    func accessMethod(for write: Write, before: Document?) -> AccessMethod {
        switch write.operation {
        case .verify: return .get
        case .delete: return .delete
        case .update, .transform:
            switch write.currentDocument {
            case .exists(false): return .create
            case .exists(true), .updateTime: return .update
            case .none: return before == nil ? .create : .update
            }
        }
    }

    /// Structural checks of a commit's writes, independent of stored state: first how the
    /// request combines `verify` writes with other writes of the same document
    /// (`checkVerifyCombinations`), then each write in order (`validate(_:in:)`), as the
    /// emulator orders its checks (a repeated verify without a precondition answers the
    /// repetition). The emulator's Write stream checks each write only
    /// (`checksVerifyCombinations: false`). Source: the emulator
    /// (Tests/Conformance/transforms.json, `requests`; its Write stream over gRPC, by hand).
    func validate(_ writes: [Write], in database: DatabaseID, checksVerifyCombinations: Bool = true)
        throws(FirestoreError)
    {
        if checksVerifyCombinations { try Self.checkVerifyCombinations(writes) }
        for w in writes { try validate(w, in: database) }
    }

    /// A request may verify a document once and only when it does not also write it: the
    /// emulator refuses a second verify, a verify after a write of the same document and a
    /// write after its verify (two writes of one document without a verify are allowed).
    /// - Throws: `.invalidArgument` "the same document cannot be verified more than once in a
    ///   single request", "… cannot be written and then verified …" or "… cannot be verified
    ///   and then written …", for the first write that breaks the rule.
    ///   Source: the emulator (Tests/Conformance/transforms.json, `requests`).
    static func checkVerifyCombinations(_ writes: [Write]) throws(FirestoreError) {
        var written = Set<ResourcePath>()
        var verified = Set<ResourcePath>()
        for w in writes {
            if case .verify(let path) = w.operation {
                if verified.contains(path) {
                    throw .invalidArgument("the same document cannot be verified more than once in a single request")
                }
                if written.contains(path) {
                    throw .invalidArgument("the same document cannot be written and then verified in a single request")
                }
                verified.insert(path)
            } else {
                if verified.contains(w.path) {
                    throw .invalidArgument("the same document cannot be verified and then written in a single request")
                }
                written.insert(w.path)
            }
        }
    }

    /// A `verify` only checks its precondition, so it must have one: the emulator refuses it
    /// otherwise ("a verify must contain a precondition"; an empty `currentDocument` counts as
    /// none). Source: the emulator (Tests/Conformance/transforms.json, `requests`).
    static func checkVerifyPrecondition(_ w: Write) throws(FirestoreError) {
        if case .verify = w.operation, case .none = w.currentDocument {
            throw .invalidArgument("a verify must contain a precondition")
        }
    }

    /// Structural checks of one write, independent of stored state.
    func validate(_ w: Write, in database: DatabaseID) throws(FirestoreError) {
        let path = w.path
        try Self.checkVerifyPrecondition(w)
        try path.validateIDs()
        guard path.isDocument else { throw .invalidArgument("Document path must have an even number of segments: \(path)") }
        if let mask = w.updateMask {
            guard case .update = w.operation else { throw .invalidArgument("updateMask is only allowed with update.") }
            for p in mask {
                try DocumentLimits.checkPathSegments(p)
                try p.validateForWrite()
            }
        }
        if !w.updateTransforms.isEmpty {
            switch w.operation {
            case .update, .transform: break
            default: throw .invalidArgument("Field transforms are only allowed with update or transform writes.")
            }
        }
        if w.updateTransforms.count > 500 { throw .invalidArgument("A document can have at most 500 field transforms.") }
        for (i, t) in w.updateTransforms.enumerated() {
            try t.fieldPath.validateForWrite()
            // The emulator allows the same field twice, but not a field and a field inside it.
            for other in w.updateTransforms[..<i]
            where other.fieldPath != t.fieldPath
                && (other.fieldPath.isPrefix(of: t.fieldPath) || t.fieldPath.isPrefix(of: other.fieldPath))
            {
                throw .invalidArgument(
                    "Field transforms on \(other.fieldPath.canonical) and \(t.fieldPath.canonical) overlap: one is a prefix of the other.")
            }
        }
        if case .update(_, let fields) = w.operation {
            try DocumentLimits.validate(fields: fields, path: path, database: database)
        }
    }
}

/// `get()` sees the snapshot; `getAfter()` sees the snapshot with the batch applied.
struct BatchLookup: AccessLookup {
    let snapshot: any StoreSnapshot
    let database: DatabaseID
    let overlay: [ResourcePath: Document?]

    func before(_ path: ResourcePath) throws(FirestoreError) -> Document? { try snapshot.document(path, in: database) }
    func after(_ path: ResourcePath) throws(FirestoreError) -> Document? {
        if let o = overlay[path] { return o }
        return try snapshot.document(path, in: database)
    }
}
