import DocumentStore
import FirestoreModel
import Synchronization

/// The server side of one Listen stream: its targets, what each currently matches, and the
/// events owed to the client after each commit.
///
/// Every mutation happens while the engine's writer lock is held (adding a target, removing
/// it, and commit delivery), so a target's initial results and later changes can neither
/// overlap nor leave a gap. `send` is called under that lock and must only enqueue.
///
/// **Memory budget.** Nothing is preallocated: a session costs this object, one `TargetState`
/// per target (its spec and a `matching` entry — path and update time — per document the
/// target currently matches) and one entry per target in `ListenRoutes`; the transport adds
/// the HTTP/2 stream and its queued frames. Measured with one single-document target per
/// stream (`hearth-bench --only listen`, `hearth start --in-memory`): 16.8 KiB of server RSS
/// per stream at 1,000 streams, 13.5 KiB at 10,000 — the budget is 16 KiB per open stream,
/// plus, for a query target, one dictionary entry per matching document (a `ResourcePath`
/// and a `Timestamp`: on the order of 100–200 bytes, estimated from their layout, not
/// measured) (Benchmarks/README.md, "Memory budget").
/// Source: docs/reference/grpc-and-listen.md §8.1–§8.5.
public final class ListenSession: @unchecked Sendable {
    // @unchecked Sendable: `targets` and `closed` are only read or written while the engine's
    // writer lock is held (see FirestoreEngine+Listen.swift), which serialises all access.
    let engine: FirestoreEngine
    /// The database of the stream.
    public let database: DatabaseID
    let auth: AuthContext
    let send: @Sendable ([ListenEvent]) -> Void
    var targets: [Int32: TargetState] = [:]
    var closed = false

    struct TargetState {
        var spec: ListenTargetSpec
        /// Documents currently matching, with their update times.
        var matching: [ResourcePath: Timestamp]
    }

    init(engine: FirestoreEngine, database: DatabaseID, auth: AuthContext, send: @escaping @Sendable ([ListenEvent]) -> Void) {
        self.engine = engine
        self.database = database
        self.auth = auth
        self.send = send
    }

    /// Adds a target: ADD, the current matches, CURRENT, then the global NO_CHANGE; a target
    /// the rules deny (or an invalid query) is answered REMOVE with a cause instead.
    public func addTarget(_ spec: ListenTargetSpec) {
        engine.addListenTarget(spec, to: self)
    }

    /// Removes a target: REMOVE, then nothing more for it.
    public func removeTarget(_ id: Int32) {
        engine.removeListenTarget(id, from: self)
    }

    /// Frees the stream's targets; no event is sent afterwards.
    public func close() {
        engine.closeListenSession(self)
    }
}

/// Which targets of which sessions care about which documents, so a commit reaches only
/// the affected targets: by collection path, by collection-group id, by document path.
struct ListenRoutes {
    struct TargetRef: Hashable {
        let session: ObjectIdentifier
        let target: Int32
    }

    var sessions: [ObjectIdentifier: ListenSession] = [:]
    var byCollection: [DatabaseID: [ResourcePath: Set<TargetRef>]] = [:]
    var byGroup: [DatabaseID: [String: Set<TargetRef>]] = [:]
    var byDocument: [DatabaseID: [ResourcePath: Set<TargetRef>]] = [:]

    mutating func add(_ ref: TargetRef, kind: ListenTargetKind, database: DatabaseID) {
        switch kind {
        case .query(let q):
            if q.query.allDescendants {
                byGroup[database, default: [:]][q.query.collectionID, default: []].insert(ref)
            } else {
                byCollection[database, default: [:]][q.parent.appending(q.query.collectionID), default: []].insert(ref)
            }
        case .documents(let paths):
            for p in paths { byDocument[database, default: [:]][p, default: []].insert(ref) }
        }
    }

    mutating func remove(_ ref: TargetRef, kind: ListenTargetKind, database: DatabaseID) {
        switch kind {
        case .query(let q):
            if q.query.allDescendants {
                byGroup[database]?[q.query.collectionID]?.remove(ref)
            } else {
                byCollection[database]?[q.parent.appending(q.query.collectionID)]?.remove(ref)
            }
        case .documents(let paths):
            for p in paths { byDocument[database]?[p]?.remove(ref) }
        }
    }

    /// Targets possibly affected by a change to `path`.
    func targets(for path: ResourcePath, in database: DatabaseID) -> Set<TargetRef> {
        var out = byDocument[database]?[path] ?? []
        out.formUnion(byCollection[database]?[path.parent] ?? [])
        out.formUnion(byGroup[database]?[path.parent.lastSegment] ?? [])
        out.formUnion(byGroup[database]?[""] ?? [])  // Targets over every collection.
        return out
    }
}
