import FirestoreEngine
import FirestoreModel

/// The in-process Firestore Admin client functions use: every call goes straight to the
/// engine as `.admin`, so security rules never apply (as with the Admin SDK's service account).
///
/// The API mirrors the Admin SDKs: `collection(_:)`, `document(_:)`, `batch()`,
/// `runTransaction(_:)`, `getAll(_:)`. Calls are synchronous, like the engine, and throw
/// `FirestoreError`. Source: docs/ARCHITECTURE.md rule 7; docs/reference/firestore-wire.md §2.2 (admin bypasses rules).
public struct AdminClient: Sendable {
    /// The engine every call goes to.
    public let engine: FirestoreEngine
    /// The database addressed.
    public let database: DatabaseID

    /// Creates a client for `database`.
    public init(engine: FirestoreEngine, database: DatabaseID) {
        self.engine = engine
        self.database = database
    }

    /// The collection at slash-separated `path` (`"presence"`, `"users/u1/feed"`).
    /// A path with an even number of segments fails later, when used.
    public func collection(_ path: String) -> CollectionReference {
        CollectionReference(client: self, path: ResourcePath(relative: path))
    }

    /// The document at slash-separated `path` (`"presence/u1"`).
    /// A path with an odd number of segments fails later, when used.
    public func document(_ path: String) -> DocumentReference {
        DocumentReference(client: self, path: ResourcePath(relative: path))
    }

    /// A collection-group query over every collection named `collectionID`.
    public func collectionGroup(_ collectionID: String) -> Query {
        let query = StructuredQuery(collectionID: collectionID, allDescendants: true)
        return Query(client: self, target: QueryTarget(parent: .root, query: query))
    }

    /// A new, empty write batch.
    public func batch() -> WriteBatch { WriteBatch(client: self) }

    /// Reads several documents at one read time, in the order given (duplicates answered
    /// once per occurrence).
    /// - Throws: `.invalidArgument` for a reference that is not a document path.
    public func getAll(_ references: [DocumentReference]) throws(FirestoreError) -> [DocumentSnapshot] {
        for r in references { try r.validate() }
        let result = try engine.batchGet(references.map(\.path), in: database, auth: .admin)
        var found: [ResourcePath: Document] = [:]
        for r in result.value { if case .found(let d) = r { found[d.path] = d } }
        return references.map {
            DocumentSnapshot(reference: $0, document: found[$0.path], readTime: result.readTime)
        }
    }

    /// Commits `batches` in order as one durable unit: each batch atomically, with its own
    /// commit time, exactly as `WriteBatch.commit()` one after another would, but stored in one
    /// transaction with one fsync (`FirestoreEngine.commitBatches`). For fan-outs of many
    /// batches.
    /// - Returns: one outcome per batch.
    /// - Throws: the first encoding error (nothing is written then); else the first failing
    ///   batch's error, after the batches before it were committed.
    @discardableResult
    public func commit(_ batches: [WriteBatch]) throws(FirestoreError) -> [CommitOutcome] {
        var writes: [[Write]] = []
        for b in batches { writes.append(try b.validated()) }
        return try engine.commitBatches(writes, in: database, auth: .admin)
    }

    /// Runs `body` in an exclusive transaction (`FirestoreEngine.exclusiveTransaction`): its
    /// reads see the latest state and nothing commits until its writes do, so it never
    /// aborts or retries. For server code whose reads are too large to re-check at commit.
    ///
    /// Reads must come before writes. An error thrown by `body` writes nothing and is rethrown.
    /// - Precondition: `body` uses only `tx` (any other call into the engine would deadlock).
    /// - Throws: what `body` throws; `FirestoreError` from reads or the commit.
    public func runExclusiveTransaction<T>(_ body: (ExclusiveTransaction) throws -> T) throws -> T {
        try engine.exclusiveTransaction(in: database) { (reads) throws -> (writes: [Write], value: T) in
            let tx = ExclusiveTransaction(client: self, reads: reads)
            let value = try body(tx)
            return (try tx.writes(), value)
        }.value
    }

    /// Runs `body` in a read-write transaction and commits its writes; retries the whole
    /// body when the commit is ABORTED because a document it read changed meanwhile.
    ///
    /// Reads must come before writes (as in the Admin SDKs). An error thrown by `body`
    /// rolls the transaction back and is rethrown unchanged.
    /// - Parameter maxAttempts: attempts before the last ABORTED is rethrown (default 5, as
    ///   the Admin SDKs).
    /// - Throws: what `body` throws; `FirestoreError` from reads or the commit.
    public func runTransaction<T>(maxAttempts: Int = 5, _ body: (Transaction) throws -> T) throws -> T {
        var previous: [UInt8]?
        var attempt = 0
        while true {
            attempt += 1
            let id = try engine.beginTransaction(in: database, mode: .readWrite(retryTransaction: previous))
            let tx = Transaction(client: self, id: id)
            let value: T
            do {
                value = try body(tx)
            } catch {
                try? engine.rollback(id, in: database)
                throw error
            }
            let outcome: Result<CommitOutcome, FirestoreError>
            do throws(FirestoreError) {
                outcome = .success(try engine.commit(try tx.writes(), in: database, transaction: id, auth: .admin))
            } catch {
                outcome = .failure(error)
            }
            switch outcome {
            case .success: return value
            case .failure(let error) where error.code == .aborted && attempt < maxAttempts: previous = id
            case .failure(let error):
                try? engine.rollback(id, in: database)
                throw error
            }
        }
    }
}
