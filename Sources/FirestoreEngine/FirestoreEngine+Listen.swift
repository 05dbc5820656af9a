import DocumentStore
import FirestoreModel
import SecurityRules

extension FirestoreEngine {
    /// Opens the server side of a Listen stream on `database` for `auth`.
    /// - Parameter send: receives each batch of events in order; called while the writer lock
    ///   is held, so it must only enqueue (e.g. onto the stream's outbound queue).
    public func openListenSession(
        database: DatabaseID, auth: AuthContext, send: @escaping @Sendable ([ListenEvent]) -> Void
    ) -> ListenSession {
        let session = ListenSession(engine: self, database: database, auth: auth, send: send)
        writer.withLock { _ in
            listenRoutes.withLock { $0.sessions[ObjectIdentifier(session)] = session }
        }
        return session
    }

    func addListenTarget(_ spec: ListenTargetSpec, to session: ListenSession) {
        // Index checks take the writer lock to build indexes, so they run before it is held.
        var refused: FirestoreError?
        if case .query(let target) = spec.kind {
            do throws(FirestoreError) {
                try validate(target)
                try prepareQuery(target, in: session.database)
            } catch { refused = error }
        }
        writer.withLock { state in
            guard !session.closed else { return }
            let database = session.database
            let id = spec.id
            if session.targets[id] != nil {
                session.send([
                    .targetChange(
                        .remove, targetIDs: [id],
                        cause: .invalidArgument("Target id \(id) is already in use on this stream."), resumeToken: nil,
                        readTime: nil)
                ])
                return
            }
            let readTime = issueReadTime(&state)
            var events: [ListenEvent] = [.targetChange(.add, targetIDs: [id], cause: nil, resumeToken: nil, readTime: nil)]
            let matches: [Document]
            var resumed: [ListenEvent]?
            do throws(FirestoreError) {
                let snapshot = try store.snapshot()
                defer { snapshot.close() }
                let view = ReadView(snapshot: snapshot, database: database, recording: false)
                switch spec.kind {
                case .query(let target):
                    try validate(target)
                    if let refused { throw refused }
                    try authorizeList(target, database: database, auth: session.auth, time: readTime, view: view)
                    matches = try snapshot.runQuery(target, in: database).documents
                case .documents(let paths):
                    var docs: [Document] = []
                    var requests: [AccessRequest] = []
                    for p in paths {
                        let d = try snapshot.document(p, in: database)
                        requests.append(AccessRequest(database: database, method: .get, path: p, auth: session.auth, time: readTime, resource: d))
                        if let d { docs.append(d) }
                    }
                    try authorize(requests, lookup: view)
                    matches = docs
                }
                if let resumeTime = spec.readTime ?? spec.resumeToken.flatMap(ResumeToken.readTime) {
                    resumed = resumeEvents(spec, database: database, from: resumeTime, to: matches, latest: snapshot, now: readTime)
                }
            } catch {
                events.append(.targetChange(.remove, targetIDs: [id], cause: error, resumeToken: nil, readTime: nil))
                session.send(events)
                return
            }
            if let resumed {
                // Resuming within the version window: only what changed since then.
                events += resumed
            } else {
                if spec.resumeToken != nil || spec.readTime != nil {
                    // Resuming from further back (or a foreign token): the client holds documents
                    // from before; make it forget them and resend.
                    events.append(.targetChange(.reset, targetIDs: [id], cause: nil, resumeToken: nil, readTime: nil))
                }
                for d in matches { events.append(.documentChange(d, targetIDs: [id], removedTargetIDs: [])) }
            }
            let token = ResumeToken.make(readTime)
            events.append(.targetChange(.current, targetIDs: [id], cause: nil, resumeToken: token, readTime: readTime))
            events.append(.targetChange(.noChange, targetIDs: [], cause: nil, resumeToken: token, readTime: readTime))
            if spec.once {
                events.append(.targetChange(.remove, targetIDs: [id], cause: nil, resumeToken: nil, readTime: nil))
            } else {
                session.targets[id] = ListenSession.TargetState(
                    spec: spec, matching: Dictionary(matches.map { ($0.path, $0.updateTime) }, uniquingKeysWith: { a, _ in a }))
                listenRoutes.withLock {
                    $0.add(.init(session: ObjectIdentifier(session), target: id), kind: spec.kind, database: database)
                }
            }
            session.send(events)
        }
    }

    /// The changes a target resumed at `resumeTime` owes: documents that match now and were
    /// written since (DocumentChange), and documents that matched then but not now
    /// (DocumentDelete when gone, DocumentRemove when they left the results). Nil when
    /// `resumeTime` is outside the version window, so the caller resets the target instead.
    /// `latest` is the snapshot `matches` came from.
    /// Source: googleapis `firestore.proto` Target.resume_token / read_time ("start listening
    /// after a specific read_time; the client must know the state of matching documents then").
    private func resumeEvents(
        _ spec: ListenTargetSpec, database: DatabaseID, from resumeTime: Timestamp, to matches: [Document],
        latest: any StoreSnapshot, now: Timestamp
    ) -> [ListenEvent]? {
        do throws(FirestoreError) {
            try checkedReadTime(resumeTime, now: now, in: database)
            let past = try store.snapshot(at: resumeTime)
            defer { past.close() }
            var then: [ResourcePath: Timestamp] = [:]
            switch spec.kind {
            case .query(let target):
                for d in try past.runQuery(target, in: database).documents { then[d.path] = d.updateTime }
            case .documents(let paths):
                for p in paths { if let d = try past.document(p, in: database) { then[d.path] = d.updateTime } }
            }
            var events: [ListenEvent] = []
            let current = Set(matches.map(\.path))
            for d in matches where then[d.path] != d.updateTime {
                events.append(.documentChange(d, targetIDs: [spec.id], removedTargetIDs: []))
            }
            for p in then.keys.filter({ !current.contains($0) }).sorted() {
                events.append(
                    try latest.document(p, in: database) == nil
                        ? .documentDelete(p, removedTargetIDs: [spec.id], readTime: now)
                        : .documentRemove(p, removedTargetIDs: [spec.id], readTime: now))
            }
            return events
        } catch {
            return nil
        }
    }

    func removeListenTarget(_ id: Int32, from session: ListenSession) {
        writer.withLock { _ in
            guard !session.closed else { return }
            if let t = session.targets.removeValue(forKey: id) {
                listenRoutes.withLock {
                    $0.remove(.init(session: ObjectIdentifier(session), target: id), kind: t.spec.kind, database: session.database)
                }
            }
            session.send([.targetChange(.remove, targetIDs: [id], cause: nil, resumeToken: nil, readTime: nil)])
        }
    }

    func closeListenSession(_ session: ListenSession) {
        writer.withLock { _ in
            guard !session.closed else { return }
            session.closed = true
            listenRoutes.withLock { routes in
                for (id, t) in session.targets {
                    routes.remove(.init(session: ObjectIdentifier(session), target: id), kind: t.spec.kind, database: session.database)
                }
                routes.sessions[ObjectIdentifier(session)] = nil
            }
            session.targets = [:]
        }
    }

    /// Number of open listen sessions (diagnostics and tests).
    public var listenSessionCount: Int { listenRoutes.withLock { $0.sessions.count } }

    /// Delivers one commit to the affected targets; called under the writer lock after the
    /// store has applied it. Each session with something to say gets its changes followed by
    /// one global NO_CHANGE at the commit time.
    func deliverToListeners(_ change: CommittedChange) {
        let plan: [(ListenSession, [ListenRoutes.TargetRef])] = listenRoutes.withLock { routes in
            var affected: [ObjectIdentifier: Set<ListenRoutes.TargetRef>] = [:]
            if change.cleared {
                for (sid, s) in routes.sessions where s.database == change.database {
                    for id in s.targets.keys { affected[sid, default: []].insert(.init(session: sid, target: id)) }
                }
            } else {
                for c in change.changes {
                    for ref in routes.targets(for: c.path, in: change.database) { affected[ref.session, default: []].insert(ref) }
                }
            }
            return affected.compactMap { sid, refs in routes.sessions[sid].map { ($0, Array(refs)) } }
        }
        guard !plan.isEmpty else { return }
        var snapshot: (any StoreSnapshot)?
        defer { snapshot?.close() }
        for (session, refs) in plan where !session.closed {
            var events: [ListenEvent] = []
            for ref in refs.sorted(by: { $0.target < $1.target }) {
                guard var state = session.targets[ref.target] else { continue }
                events += diff(&state, change: change, session: session, snapshot: &snapshot)
                session.targets[ref.target] = state
            }
            guard !events.isEmpty else { continue }
            let token = ResumeToken.make(change.commitTime)
            events.append(.targetChange(.noChange, targetIDs: [], cause: nil, resumeToken: token, readTime: change.commitTime))
            session.send(events)
        }
    }

    /// The events one target owes for one commit, updating what it matches.
    private func diff(
        _ state: inout ListenSession.TargetState, change: CommittedChange, session: ListenSession,
        snapshot: inout (any StoreSnapshot)?
    ) -> [ListenEvent] {
        let id = state.spec.id
        let t = change.commitTime
        var now: [ResourcePath: Document] = [:]
        var considered: [ResourcePath] = []
        switch state.spec.kind {
        case .documents(let paths):
            let watched = Set(paths)
            for c in change.changes where watched.contains(c.path) {
                considered.append(c.path)
                if let d = c.after { now[c.path] = d }
            }
            if change.cleared { considered += state.matching.keys }
        case .query(let target):
            let q = target.query
            if q.limit != nil || q.offset > 0 || change.cleared {
                // Windowed results can change membership of untouched documents: re-run.
                do throws(FirestoreError) {
                    if snapshot == nil { snapshot = try store.snapshot() }
                    if let s = snapshot {
                        for d in try s.runQuery(target, in: change.database).documents { now[d.path] = d }
                    }
                } catch {
                    return [.targetChange(.remove, targetIDs: [id], cause: error, resumeToken: nil, readTime: nil)]
                }
                considered = Array(Set(state.matching.keys).union(now.keys))
            } else {
                for c in change.changes where target.contains(c.path) {
                    considered.append(c.path)
                    if let d = c.after, q.matches(d, in: change.database), q.withinCursors(d, in: change.database) {
                        now[c.path] = d
                    }
                }
            }
        }
        var events: [ListenEvent] = []
        let deleted = Set(change.changes.filter { $0.after == nil }.map(\.path))
        for p in considered.sorted() {
            let was = state.matching[p]
            if let d = now[p] {
                if was != d.updateTime {
                    events.append(.documentChange(d, targetIDs: [id], removedTargetIDs: []))
                    state.matching[p] = d.updateTime
                }
            } else if was != nil {
                state.matching[p] = nil
                if deleted.contains(p) || change.cleared {
                    events.append(.documentDelete(p, removedTargetIDs: [id], readTime: t))
                } else {
                    events.append(.documentRemove(p, removedTargetIDs: [id], readTime: t))
                }
            }
        }
        return events
    }
}
