import FirestoreEngine
import FirestoreModel

/// A document location in the Admin client (`db.collection("presence").document(uid)`).
public struct DocumentReference: Sendable, Hashable {
    /// The client it belongs to.
    public let client: AdminClient
    /// The document path relative to the documents root.
    public let path: ResourcePath

    /// The document id (last segment).
    public var documentID: String { path.lastSegment }
    /// The collection holding the document.
    public var parent: CollectionReference { CollectionReference(client: client, path: path.parent) }

    /// The sub-collection `collectionID` under this document.
    public func collection(_ collectionID: String) -> CollectionReference {
        CollectionReference(client: client, path: path.appending(collectionID))
    }

    /// Reads the document; a missing one gives a snapshot with `exists == false`.
    /// - Throws: `.invalidArgument` for an invalid path; `.internalError` on storage failure.
    public func get() throws(FirestoreError) -> DocumentSnapshot {
        try validate()
        let r = try client.engine.batchGet([path], in: client.database, auth: .admin)
        var doc: Document?
        if case .found(let d)? = r.value.first { doc = d }
        return DocumentSnapshot(reference: self, document: doc, readTime: r.readTime)
    }

    /// Writes `data`: replaces the document, or with `merge` only the leaf fields given.
    /// - Throws: `.invalidArgument` for invalid data or paths; storage errors.
    @discardableResult
    public func set(_ data: [String: FieldValue], merge: Bool = false) throws(FirestoreError) -> WriteResult {
        try commitOne(try WriteEncoding.set(data, at: path, merge: merge))
    }

    /// Creates the document.
    /// - Throws: `.alreadyExists` when it exists; `.invalidArgument` for invalid data.
    @discardableResult
    public func create(_ data: [String: FieldValue]) throws(FirestoreError) -> WriteResult {
        try commitOne(try WriteEncoding.create(data, at: path))
    }

    /// Updates the fields at the given dotted field paths (`"a.b"`, back-quoted segments allowed).
    /// - Parameter precondition: defaults to `exists: true`.
    /// - Throws: `.notFound` when the document is missing; `.invalidArgument` for bad paths.
    @discardableResult
    public func update(_ fields: [String: FieldValue], precondition: Precondition? = nil) throws(FirestoreError)
        -> WriteResult
    {
        try commitOne(try WriteEncoding.update(try Self.fieldPaths(fields), at: path, precondition: precondition))
    }

    /// Deletes the document (succeeds when it is missing, unless `precondition` says otherwise).
    /// - Throws: precondition failures; `.invalidArgument` for an invalid path.
    @discardableResult
    public func delete(precondition: Precondition = .none) throws(FirestoreError) -> WriteResult {
        try commitOne(Write(operation: .delete(path), currentDocument: precondition))
    }

    /// - Throws: `.invalidArgument` unless the path names a document with valid ids.
    func validate() throws(FirestoreError) {
        guard path.isDocument else { throw .invalidArgument("\"\(path)\" is not a document path.") }
        try path.validateIDs()
    }

    private func commitOne(_ write: Write) throws(FirestoreError) -> WriteResult {
        try validate()
        let r = try client.engine.commit([write], in: client.database, auth: .admin)
        return r.writeResults[0]
    }

    /// Parses the keys of an `update` map as field paths.
    static func fieldPaths(_ fields: [String: FieldValue]) throws(FirestoreError) -> [FieldPath: FieldValue] {
        var out: [FieldPath: FieldValue] = [:]
        for (k, v) in fields { out[try FieldPath(parsing: k)] = v }
        return out
    }

    /// Same path in the same database.
    public static func == (lhs: DocumentReference, rhs: DocumentReference) -> Bool {
        lhs.path == rhs.path && lhs.client.database == rhs.client.database
    }

    /// Hashes the path and the database.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(path)
        hasher.combine(client.database)
    }
}
