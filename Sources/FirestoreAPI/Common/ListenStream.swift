import FirestoreEngine
import FirestoreModel
import FirestoreRPC
import Synchronization

/// The bidirectional Listen stream on any transport: requests add and remove targets; the
/// engine's `ListenSession` produces events (under the writer lock, enqueued here) which one
/// writer task sends in order. Ends OK when the client half-closes, quietly when it resets.
/// Source: docs/reference/grpc-and-listen.md §8.
struct ListenStream<Transport: FirestoreStreamTransport> {
    /// Where requests come from and responses go.
    let transport: Transport
    /// The engine the session runs on.
    let engine: FirestoreEngine
    /// Who is listening (rules are judged for them).
    let auth: AuthContext

    /// Serves the stream until the client is done.
    /// - Throws: `INVALID_ARGUMENT` when the first request names no database, or a
    ///   malformed request (outside target bodies, which are answered per target).
    func run() async throws(FirestoreError) {
        let (events, outbound) = AsyncStream<[ListenEvent]>.makeStream()
        let holder = SessionHolder()
        // Reads and sends run concurrently on disjoint halves of the transport.
        let result: FirestoreError? = await withTaskGroup(of: FirestoreError?.self) { group in
            group.addTask {
                var database: DatabaseID?
                for await batch in events {
                    guard let db = database ?? holder.database else { continue }
                    database = db
                    for event in batch {
                        do throws(FirestoreError) {
                            try await transport.send(Self.response(event), database: db)
                        } catch {
                            holder.clientGone.store(true, ordering: .relaxed)  // The reader stops too.
                            return nil
                        }
                    }
                }
                return nil
            }
            let readerResult: FirestoreError? = await read(outbound: outbound, holder: holder)
            holder.session?.close()
            outbound.finish()
            await group.waitForAll()
            return readerResult
        }
        if let result, result.code != .cancelled { throw result }
    }

    /// Reads requests until half-close (nil) or an error.
    private func read(outbound: AsyncStream<[ListenEvent]>.Continuation, holder: SessionHolder) async -> FirestoreError? {
        do throws(FirestoreError) {
            while let request = try await transport.nextListenRequest(streamDatabase: holder.database) {
                // A reset or vanished client: stop before working through requests still queued.
                if Task.isCancelled || holder.clientGone.load(ordering: .relaxed) { return nil }
                if holder.session == nil {
                    guard let db = request.database else {
                        throw FirestoreError(.invalidArgument, "The first ListenRequest must name the database.")
                    }
                    holder.database = db
                    holder.session = engine.openListenSession(database: db, auth: auth) { batch in
                        outbound.yield(batch)
                    }
                }
                guard let session = holder.session else { continue }
                switch request.targetChange {
                case .addTarget(let target)?:
                    holder.targetCount += 1
                    if holder.targetCount > Self.maxTargetsPerStream {
                        outbound.yield([
                            .targetChange(.add, targetIDs: [target.targetID], cause: nil, resumeToken: nil, readTime: nil),
                            .targetChange(
                                .remove, targetIDs: [target.targetID],
                                cause: FirestoreError(
                                    .resourceExhausted, "A Listen stream may hold at most \(Self.maxTargetsPerStream) targets."),
                                resumeToken: nil, readTime: nil),
                        ])
                        continue
                    }
                    session.addTarget(Self.spec(target))
                case .removeTarget(let id)?:
                    holder.targetCount = max(0, holder.targetCount - 1)
                    session.removeTarget(id)
                case .rejectedTarget(let id, let error)?:
                    outbound.yield([
                        .targetChange(.add, targetIDs: [id], cause: nil, resumeToken: nil, readTime: nil),
                        .targetChange(.remove, targetIDs: [id], cause: error, resumeToken: nil, readTime: nil),
                    ])
                case nil:
                    continue
                }
            }
            return nil
        } catch {
            return error
        }
    }

    /// Most targets one stream may add (clients use a handful; Python one, mobile one per listener).
    static var maxTargetsPerStream: Int { 500 }

    static func spec(_ t: Target) -> ListenTargetSpec {
        let kind: ListenTargetKind
        switch t.targetType {
        case .query(let q): kind = .query(q)
        case .documents(let paths): kind = .documents(paths)
        }
        var token: [UInt8]?
        var readTime: Timestamp?
        switch t.resumeType {
        case .resumeToken(let r)?: token = r
        case .readTime(let rt)?: readTime = rt
        case nil: break
        }
        return ListenTargetSpec(id: t.targetID, kind: kind, resumeToken: token, readTime: readTime, once: t.once)
    }

    static func response(_ e: ListenEvent) -> ListenResponse {
        switch e {
        case .targetChange(let kind, let ids, let cause, let token, let readTime):
            let type = TargetChange.TargetChangeType(rawValue: Int32(kind.rawValue)) ?? .noChange
            return .targetChange(.init(type, targetIDs: ids, cause: cause, resumeToken: token ?? [], readTime: readTime))
        case .documentChange(let d, let ids, let removed):
            return .documentChange(d, targetIDs: ids, removedTargetIDs: removed)
        case .documentDelete(let p, let removed, let t):
            return .documentDelete(p, removedTargetIDs: removed, readTime: t)
        case .documentRemove(let p, let removed, let t):
            return .documentRemove(p, removedTargetIDs: removed, readTime: t)
        }
    }
}

/// The stream's session and database, set by the reader once, read by the writer.
/// `@unchecked Sendable`: written only by the reader before the first event can be produced
/// (the session is created after `database` is set, and events come only from the session),
/// so the writer's reads happen after the writes.
final class SessionHolder: @unchecked Sendable {
    var database: DatabaseID?
    var session: ListenSession?
    /// Targets added minus removed; the reader's alone.
    var targetCount = 0
    /// Set by the writer when a send fails (the client reset the stream or went away).
    let clientGone = Atomic<Bool>(false)
}
