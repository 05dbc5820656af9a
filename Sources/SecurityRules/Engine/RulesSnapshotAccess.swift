import FirestoreModel

/// Document access for one request or commit: reads go to a snapshot of the store, and
/// `getAfter` sees the commit's own writes laid over it (docs/reference/security-rules.md §6, §6.1).
///
/// The engine builds one per commit: `before` reads the snapshot the commit runs against,
/// `pendingWrites` maps every path the commit writes to its state afterwards (nil = deleted).
public struct RulesSnapshotAccess: RulesDocumentAccess {
    private let before: (ResourcePath) throws -> Document?
    private let pendingWrites: [ResourcePath: Document?]

    /// Creates the access.
    /// - Parameters:
    ///   - before: reads a document from the snapshot (nil when missing).
    ///   - pendingWrites: the state after the commit of every document it writes.
    public init(before: @escaping (ResourcePath) throws -> Document?, pendingWrites: [ResourcePath: Document?] = [:]) {
        self.before = before
        self.pendingWrites = pendingWrites
    }

    /// The snapshot's document.
    /// - Throws: whatever `before` throws.
    public func get(_ path: ResourcePath) throws -> Document? { try before(path) }

    /// The pending write's result when the commit writes `path`, else the snapshot's document.
    /// - Throws: whatever `before` throws.
    public func getAfter(_ path: ResourcePath) throws -> Document? {
        if let pending = pendingWrites[path] { return pending }
        return try before(path)
    }
}
