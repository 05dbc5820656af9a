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
/// Source: firebase-functions v2 `FirestoreEvent` (`id`, `time`, `params`, `data.before`/`after`).
public struct DocumentEvent: Sendable {
    /// The event id: the same for every attempt of one delivery (`<commit µs>-<change index>`),
    /// so a function can recognise a retried event.
    public var id: String = ""
    /// 1 for the first attempt, 2 for the first retry, …
    public var attempt: Int = 1
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
    /// The event time (Cloud Functions' `time`): the commit time.
    public var time: Timestamp { commitTime }

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

/// The body of a document trigger. An error is logged and, under a `TriggerRetryPolicy` that
/// retries, the event is delivered again.
public typealias DocumentTriggerHandler = @Sendable (DocumentEvent) async throws -> Void

/// Whether a failing trigger gets its event again, as Cloud Functions' `retry` option (off by
/// default there too). Hearth retries a bounded number of times with doubling waits, where
/// production retries for up to 7 days. Source: firebase.google.com "Retry event-driven functions".
public enum TriggerRetryPolicy: Sendable, Hashable {
    /// One attempt (Cloud Functions' default, `retry: false`).
    case never
    /// Up to `attempts` attempts in all, waiting `backoff`, then twice that, … between them.
    case attempts(Int, backoff: Duration = .milliseconds(100))

    /// The wait before attempt `attempt + 1`, or nil when no attempt is left.
    func wait(after attempt: Int) -> Duration? {
        guard case .attempts(let n, let backoff) = self, attempt < n else { return nil }
        return backoff * (1 << min(attempt - 1, 20))
    }
}

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
    /// Whether a failure is retried.
    public var retry: TriggerRetryPolicy

    /// The wildcard captures when a change of `path` from `before` to `after` fires this
    /// trigger (its event type and its pattern both match), else nil.
    public func fires(on path: ResourcePath, before: Document?, after: Document?) -> [String: String]? {
        eventType.matches(before: before, after: after) ? pattern.match(path) : nil
    }

    /// Creates a definition.
    public init(
        name: String, pattern: DocumentPattern, eventType: DocumentEventType, retry: TriggerRetryPolicy = .never,
        handler: @escaping DocumentTriggerHandler
    ) {
        self.name = name
        self.pattern = pattern
        self.eventType = eventType
        self.retry = retry
        self.handler = handler
    }
}
