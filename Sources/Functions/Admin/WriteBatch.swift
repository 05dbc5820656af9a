import FirestoreEngine
import FirestoreModel

/// Writes committed together, atomically and in order (Admin SDK `WriteBatch`).
///
/// A value: `var batch = db.batch(); batch.set(…); try batch.commit()`. Encoding errors
/// (e.g. `.delete` in a non-merge `set`) are kept and thrown by `commit()`.
public struct WriteBatch: Sendable {
    /// The client it commits through.
    public let client: AdminClient
    /// The writes so far.
    public private(set) var writes: [Write] = []
    private(set) var encodingError: FirestoreError?

    /// An empty batch.
    init(client: AdminClient) { self.client = client }

    /// Number of writes added.
    public var count: Int { writes.count }

    /// Adds a `set` (replace, or leaf-merge with `merge`).
    public mutating func set(_ reference: DocumentReference, _ data: [String: FieldValue], merge: Bool = false) {
        add { () throws(FirestoreError) in try WriteEncoding.set(data, at: reference.path, merge: merge) }
    }

    /// Adds a `create` (fails the commit with `.alreadyExists` if the document exists).
    public mutating func create(_ reference: DocumentReference, _ data: [String: FieldValue]) {
        add { () throws(FirestoreError) in try WriteEncoding.create(data, at: reference.path) }
    }

    /// Adds an `update` of dotted field paths (fails the commit with `.notFound` if missing,
    /// unless `precondition` says otherwise).
    public mutating func update(
        _ reference: DocumentReference, _ fields: [String: FieldValue], precondition: Precondition? = nil
    ) {
        add { () throws(FirestoreError) in
            try WriteEncoding.update(
                try DocumentReference.fieldPaths(fields), at: reference.path, precondition: precondition)
        }
    }

    /// Adds a delete.
    public mutating func delete(_ reference: DocumentReference, precondition: Precondition = .none) {
        writes.append(Write(operation: .delete(reference.path), currentDocument: precondition))
    }

    /// Commits every write atomically.
    /// - Returns: the engine's response (one `WriteResult` per write, the commit time).
    /// - Throws: the first encoding error; precondition and validation errors of the commit
    ///   (then nothing is written).
    @discardableResult
    public func commit() throws(FirestoreError) -> CommitOutcome {
        if let encodingError { throw encodingError }
        return try client.engine.commit(writes, in: client.database, auth: .admin)
    }

    private mutating func add(_ encode: () throws(FirestoreError) -> Write) {
        do throws(FirestoreError) {
            writes.append(try encode())
        } catch {
            encodingError = encodingError ?? error
        }
    }
}
