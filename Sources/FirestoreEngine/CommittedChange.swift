import FirestoreModel

/// What one commit changed, delivered to observers in commit order.
public struct CommittedChange: Sendable {
    /// The database.
    public var database: DatabaseID
    /// The commit time (the read time at which the change is visible).
    public var commitTime: Timestamp
    /// One entry per changed document: its state before and after (nil = missing).
    public var changes: [DocumentChange]
    /// True when the whole database was cleared.
    public var cleared: Bool

    /// Creates a change record.
    public init(database: DatabaseID, commitTime: Timestamp, changes: [DocumentChange], cleared: Bool = false) {
        self.database = database
        self.commitTime = commitTime
        self.changes = changes
        self.cleared = cleared
    }
}

/// One document's change in a commit.
public struct DocumentChange: Sendable {
    /// The document path.
    public var path: ResourcePath
    /// The state before the commit.
    public var before: Document?
    /// The state after the commit.
    public var after: Document?

    /// Creates a change record.
    public init(path: ResourcePath, before: Document?, after: Document?) {
        self.path = path
        self.before = before
        self.after = after
    }
}

extension FirestoreEngine {
    /// Registers `observer` for every later commit; called synchronously, in commit order,
    /// while the writer lock is held — it must only enqueue work.
    /// - Returns: a token for `removeObserver`.
    public func addObserver(_ observer: @escaping @Sendable (CommittedChange) -> Void) -> Int {
        let id = writer.withLock { state -> Int in
            state.nextObserverID += 1
            return state.nextObserverID
        }
        observers.withLock { $0[id] = observer }
        return id
    }

    /// Unregisters an observer.
    public func removeObserver(_ id: Int) {
        _ = observers.withLock { $0.removeValue(forKey: id) }
    }

    func notify(_ change: CommittedChange) {
        deliverToListeners(change)
        let list = observers.withLock { Array($0.values) }
        for o in list { o(change) }
    }
}
