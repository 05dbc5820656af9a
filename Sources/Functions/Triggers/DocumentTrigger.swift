import FirestoreModel

/// Which document changes fire a trigger. Source: firebase-functions v2 Firestore triggers.
public enum DocumentEventType: String, Sendable, Hashable, CaseIterable {
    /// `onDocumentCreated`: the document did not exist before the commit and does after.
    case created
    /// `onDocumentUpdated`: it existed before and after, and its fields changed.
    case updated
    /// `onDocumentDeleted`: it existed before and does not after.
    case deleted
    /// `onDocumentWritten`: any of the three.
    case written

    /// True when a change from `before` to `after` is an event of this type.
    public func matches(before: Document?, after: Document?) -> Bool {
        switch self {
        case .created: return before == nil && after != nil
        case .updated: return before != nil && after != nil
        case .deleted: return before != nil && after == nil
        case .written: return before != nil || after != nil
        }
    }
}

/// What a document trigger receives: the change, its commit time and the wildcard captures.
public struct DocumentEvent: Sendable {
    /// The database of the change.
    public var database: DatabaseID
    /// The changed document.
    public var path: ResourcePath
    /// Wildcard captures of the trigger's pattern, e.g. `["uid": "u1"]`.
    public var params: [String: String]
    /// The document before the commit; nil when it did not exist.
    public var before: Document?
    /// The document after the commit; nil when it was deleted.
    public var after: Document?
    /// The commit time.
    public var commitTime: Timestamp

    /// Creates an event.
    public init(
        database: DatabaseID, path: ResourcePath, params: [String: String], before: Document?, after: Document?,
        commitTime: Timestamp
    ) {
        self.database = database
        self.path = path
        self.params = params
        self.before = before
        self.after = after
        self.commitTime = commitTime
    }
}

/// The body of a document trigger. Errors are logged; delivery is at most once.
public typealias DocumentTriggerHandler = @Sendable (DocumentEvent) async throws -> Void

/// A registered Firestore document trigger.
public struct DocumentTrigger: Sendable {
    /// The function name (for logs).
    public var name: String
    /// The documents it watches.
    public var pattern: DocumentPattern
    /// The kind of change it fires on.
    public var eventType: DocumentEventType
    /// The implementation.
    public var handler: DocumentTriggerHandler

    /// Creates a definition.
    public init(
        name: String, pattern: DocumentPattern, eventType: DocumentEventType, handler: @escaping DocumentTriggerHandler
    ) {
        self.name = name
        self.pattern = pattern
        self.eventType = eventType
        self.handler = handler
    }
}
