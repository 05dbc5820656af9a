import FirestoreEngine
import FirestoreModel

/// The handle `AdminClient.runTransaction` passes to its body: reads inside the transaction
/// (their versions are checked at commit), writes buffered until the body returns.
///
/// Not `Sendable`: it lives only inside the body's synchronous call.
public final class Transaction {
    /// The client reads and writes go through.
    let client: AdminClient
    /// The engine transaction id.
    let id: [UInt8]
    private var buffered: WriteBatch
    private var wrote = false

    /// Wraps an open read-write transaction.
    init(client: AdminClient, id: [UInt8]) {
        self.client = client
        self.id = id
        self.buffered = WriteBatch(client: client)
    }

    /// Reads a document in the transaction.
    /// - Throws: `.invalidArgument` after a write (reads must come first) or for a bad path.
    public func get(_ reference: DocumentReference) throws(FirestoreError) -> DocumentSnapshot {
        guard !wrote else { throw Self.readAfterWrite }
        try reference.validate()
        let r = try client.engine.batchGet(
            [reference.path], in: client.database, consistency: .transaction(id), auth: .admin)
        var doc: Document?
        if case .found(let d)? = r.value.first { doc = d }
        return DocumentSnapshot(reference: reference, document: doc, readTime: r.readTime)
    }

    /// Runs a query in the transaction.
    /// - Throws: as `get(_:)` and `Query.get()`.
    public func get(_ query: Query) throws(FirestoreError) -> QuerySnapshot {
        guard !wrote else { throw Self.readAfterWrite }
        if let e = query.error { throw e }
        let r = try client.engine.runQuery(
            query.target, in: client.database, consistency: .transaction(id), auth: .admin)
        return QuerySnapshot(documents: r.value.documents, client: client, readTime: r.readTime)
    }

    /// The Admin SDKs' error for a read after a write.
    static let readAfterWrite = FirestoreError.invalidArgument(
        "Firestore transactions require all reads to be executed before all writes.")

    /// Buffers a `set`.
    public func set(_ reference: DocumentReference, _ data: [String: FieldValue], merge: Bool = false) {
        wrote = true
        buffered.set(reference, data, merge: merge)
    }

    /// Buffers a `create`.
    public func create(_ reference: DocumentReference, _ data: [String: FieldValue]) {
        wrote = true
        buffered.create(reference, data)
    }

    /// Buffers an `update`.
    public func update(
        _ reference: DocumentReference, _ fields: [String: FieldValue], precondition: Precondition? = nil
    ) {
        wrote = true
        buffered.update(reference, fields, precondition: precondition)
    }

    /// Buffers a delete.
    public func delete(_ reference: DocumentReference, precondition: Precondition = .none) {
        wrote = true
        buffered.delete(reference, precondition: precondition)
    }

    /// The buffered writes.
    /// - Throws: the first encoding error.
    func writes() throws(FirestoreError) -> [Write] {
        try buffered.validated()
    }
}

extension WriteBatch {
    /// The writes, or the first encoding error.
    func validated() throws(FirestoreError) -> [Write] {
        if let e = encodingError { throw e }
        return writes
    }
}
