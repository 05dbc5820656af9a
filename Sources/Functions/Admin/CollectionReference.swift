import FirestoreModel

/// A collection location in the Admin client; also the query over all its documents.
public struct CollectionReference: Sendable {
    /// The client it belongs to.
    public let client: AdminClient
    /// The collection path relative to the documents root.
    public let path: ResourcePath

    /// The collection id (last segment).
    public var collectionID: String { path.lastSegment }

    /// The document `documentID` in this collection. The id is one segment: a `/` inside it
    /// is rejected when the reference is used, never split.
    public func document(_ documentID: String) -> DocumentReference {
        DocumentReference(client: client, path: path.appending(documentID))
    }

    /// A document with a new random 20-character id (`AutoID`).
    public func document() -> DocumentReference { document(AutoID.make()) }

    /// The query over every document of this collection.
    public var query: Query {
        Query(
            client: client,
            target: QueryTarget(parent: path.parent, query: StructuredQuery(collectionID: path.lastSegment)),
            error: path.isCollection ? nil : .invalidArgument("\"\(path)\" is not a collection path."))
    }

    /// `query.whereField(…)`.
    public func whereField(_ field: String, _ op: FieldOperator, _ value: Value) -> Query {
        query.whereField(field, op, value)
    }

    /// `query.order(by:descending:)`.
    public func order(by field: String, descending: Bool = false) -> Query {
        query.order(by: field, descending: descending)
    }

    /// `query.limit(to:)`.
    public func limit(to count: Int) -> Query { query.limit(to: count) }

    /// Every document of the collection.
    /// - Throws: as `Query.get()`.
    public func get() throws(FirestoreError) -> QuerySnapshot { try query.get() }
}
