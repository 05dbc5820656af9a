import FirestoreModel

/// A document as read by the Admin client at `readTime`; `exists` is false when it was missing.
public struct DocumentSnapshot: Sendable {
    /// Where it was read from.
    public let reference: DocumentReference
    /// The stored document, nil when missing.
    public let document: Document?
    /// The read time of the read.
    public let readTime: Timestamp

    /// Creates a snapshot.
    public init(reference: DocumentReference, document: Document?, readTime: Timestamp) {
        self.reference = reference
        self.document = document
        self.readTime = readTime
    }

    /// True when the document existed.
    public var exists: Bool { document != nil }
    /// The document id.
    public var documentID: String { reference.documentID }
    /// The fields, nil when missing.
    public var data: FieldMap? { document?.fields }
    /// The creation time, nil when missing.
    public var createTime: Timestamp? { document?.createTime }
    /// The last update time, nil when missing.
    public var updateTime: Timestamp? { document?.updateTime }

    /// The value at dotted field path `field`; nil when missing or when the path is invalid.
    public func get(_ field: String) -> Value? {
        guard let document, let path = try? FieldPath(parsing: field) else { return nil }
        return document.fields.value(at: path)
    }
}

/// The result of an Admin-client query.
public struct QuerySnapshot: Sendable {
    /// The documents in query order.
    public let documents: [DocumentSnapshot]
    /// The read time of the query.
    public let readTime: Timestamp

    /// Creates a snapshot.
    public init(documents: [DocumentSnapshot], readTime: Timestamp) {
        self.documents = documents
        self.readTime = readTime
    }

    /// True when no document matched.
    public var isEmpty: Bool { documents.isEmpty }
    /// Number of documents.
    public var count: Int { documents.count }
}

extension QuerySnapshot {
    /// Wraps query results read through `client`.
    init(documents: [Document], client: AdminClient, readTime: Timestamp) {
        self.init(
            documents: documents.map {
                DocumentSnapshot(
                    reference: DocumentReference(client: client, path: $0.path), document: $0, readTime: readTime)
            }, readTime: readTime)
    }
}
