import FirestoreModel
import Synchronization
import Testing

@testable import FirestoreEngine

/// Collects what a session sends.
final class EventSink: Sendable {
    let batches = Mutex<[[ListenEvent]]>([])
    var send: @Sendable ([ListenEvent]) -> Void { { [self] b in batches.withLock { $0.append(b) } } }
    func take() -> [[ListenEvent]] { batches.withLock { b in defer { b = [] }; return b } }
}

func queryTarget(_ collection: String, filter: Filter? = nil, limit: Int? = nil) -> ListenTargetKind {
    .query(QueryTarget(parent: .root, query: StructuredQuery(collectionID: collection, filter: filter, limit: limit)))
}

extension ListenEvent {
    var summary: String {
        switch self {
        case .targetChange(let k, let ids, let cause, _, let rt):
            return "\(k)\(ids)\(cause.map { " \($0.code.name)" } ?? "")\(rt == nil ? "" : " @t")"
        case .documentChange(let d, let ids, let removed): return "change \(d.path) \(ids)\(removed.isEmpty ? "" : " -\(removed)")"
        case .documentDelete(let p, let ids, _): return "delete \(p) \(ids)"
        case .documentRemove(let p, let ids, _): return "remove \(p) \(ids)"
        }
    }
}

@Suite struct ListenTests {
    @Test func addTargetSendsAddDocsCurrentThenGlobalSnapshot() throws {
        let e = try makeEngine()
        _ = try e.commit([set("rooms/a", ["n": .integer(1)]), set("rooms/b", ["n": .integer(2)])], in: db, auth: .admin)
        let sink = EventSink()
        let s = e.openListenSession(database: db, auth: .admin, send: sink.send)
        s.addTarget(ListenTargetSpec(id: 20601, kind: queryTarget("rooms")))
        #expect(sink.take().map { $0.map(\.summary) } == [[
            "add[20601]", "change rooms/a [20601]", "change rooms/b [20601]", "current[20601] @t", "noChange[] @t",
        ]])
    }

    @Test func commitsReachOnlyAffectedTargetsWithOneGlobalSnapshot() throws {
        let e = try makeEngine()
        let sink = EventSink()
        let s = e.openListenSession(database: db, auth: .admin, send: sink.send)
        s.addTarget(ListenTargetSpec(id: 1, kind: queryTarget("rooms", filter: .field(FieldPath(["open"]), .equal, .boolean(true)))))
        s.addTarget(ListenTargetSpec(id: 2, kind: .documents([path("rooms/a")])))
        _ = sink.take()
        _ = try e.commit([set("other/x", [:])], in: db, auth: .admin)
        #expect(sink.take().isEmpty)
        _ = try e.commit([set("rooms/a", ["open": .boolean(true)])], in: db, auth: .admin)
        #expect(sink.take().map { $0.map(\.summary) } == [["change rooms/a [1]", "change rooms/a [2]", "noChange[] @t"]])
        _ = try e.commit([set("rooms/a", ["open": .boolean(false)])], in: db, auth: .admin)
        #expect(sink.take().map { $0.map(\.summary) } == [["remove rooms/a [1]", "change rooms/a [2]", "noChange[] @t"]])
        _ = try e.commit([Write(operation: .delete(path("rooms/a")))], in: db, auth: .admin)
        #expect(sink.take().map { $0.map(\.summary) } == [["delete rooms/a [2]", "noChange[] @t"]])
        s.removeTarget(2)
        #expect(sink.take().map { $0.map(\.summary) } == [["remove[2]"]])
        _ = try e.commit([set("rooms/a", ["open": .boolean(true)])], in: db, auth: .admin)
        #expect(sink.take().map { $0.map(\.summary) } == [["change rooms/a [1]", "noChange[] @t"]])
        s.close()
        _ = try e.commit([set("rooms/b", ["open": .boolean(true)])], in: db, auth: .admin)
        #expect(sink.take().isEmpty)
        #expect(e.listenSessionCount == 0)
    }

    @Test func limitQueriesRecomputeTheirWindow() throws {
        let e = try makeEngine()
        _ = try e.commit([set("q/b", [:]), set("q/c", [:])], in: db, auth: .admin)
        let sink = EventSink()
        let s = e.openListenSession(database: db, auth: .admin, send: sink.send)
        s.addTarget(ListenTargetSpec(id: 7, kind: queryTarget("q", limit: 2)))
        _ = sink.take()
        _ = try e.commit([set("q/a", [:])], in: db, auth: .admin)
        #expect(sink.take().map { $0.map(\.summary) } == [["change q/a [7]", "remove q/c [7]", "noChange[] @t"]])
    }

    @Test func deniedTargetIsRemovedWithCause() throws {
        let e = try makeEngine(policy: ClosurePolicy { _, _ in .permissionDenied("no") })
        let sink = EventSink()
        let s = e.openListenSession(database: db, auth: alice, send: sink.send)
        s.addTarget(ListenTargetSpec(id: 3, kind: queryTarget("rooms")))
        #expect(sink.take().map { $0.map(\.summary) } == [["add[3]", "remove[3] PERMISSION_DENIED"]])
    }

    @Test func resumeSendsOnlyWhatChangedSinceItsReadTime() throws {
        let e = try makeEngine()
        let n = FieldPath(["n"])
        _ = try e.commit(
            [set("r/keep", ["n": .integer(1)]), set("r/edit", ["n": .integer(1)]), set("r/drop", ["n": .integer(1)]),
             set("r/leave", ["n": .integer(1)])], in: db, auth: .admin)
        let t0 = try e.getDocument(path("r/keep"), in: db, auth: .admin).readTime
        _ = try e.commit(
            [set("r/edit", ["n": .integer(2)]), Write(operation: .delete(path("r/drop"))), set("r/leave", ["n": .integer(-1)]),
             set("r/new", ["n": .integer(3)])], in: db, auth: .admin)
        let positive = ListenTargetKind.query(
            QueryTarget(parent: .root, query: StructuredQuery(collectionID: "r", filter: .field(n, .greaterThan, .integer(0)))))
        let sink = EventSink()
        let s = e.openListenSession(database: db, auth: .admin, send: sink.send)
        defer { s.close() }
        s.addTarget(ListenTargetSpec(id: 1, kind: positive, readTime: t0))
        #expect(sink.take().map { $0.map(\.summary) } == [[
            "add[1]", "change r/edit [1]", "change r/new [1]", "delete r/drop [1]", "remove r/leave [1]", "current[1] @t",
            "noChange[] @t",
        ]])
        // Document targets resume the same way.
        s.addTarget(ListenTargetSpec(id: 2, kind: .documents([path("r/keep"), path("r/drop")]), resumeToken: ResumeToken.make(t0)))
        #expect(sink.take().map { $0.map(\.summary) } == [["add[2]", "delete r/drop [2]", "current[2] @t", "noChange[] @t"]])
        // From before the version window (or a token that is not ours): reset and resend everything.
        s.addTarget(ListenTargetSpec(id: 3, kind: positive, readTime: Timestamp(seconds: 1, nanos: 0)))
        #expect(sink.take().map { $0.map(\.summary) } == [[
            "add[3]", "reset[3]", "change r/keep [3]", "change r/edit [3]", "change r/new [3]", "current[3] @t", "noChange[] @t",
        ]])
        s.addTarget(ListenTargetSpec(id: 4, kind: .documents([path("r/keep")]), resumeToken: [1, 2, 3]))
        #expect(sink.take().map { $0.map(\.summary) } == [["add[4]", "reset[4]", "change r/keep [4]", "current[4] @t", "noChange[] @t"]])
    }

    @Test func resumeSendsTheChangesAndReadTimesNeverGoBack() throws {
        let e = try makeEngine()
        _ = try e.commit([set("r/a", [:])], in: db, auth: .admin)
        let sink = EventSink()
        let s = e.openListenSession(database: db, auth: .admin, send: sink.send)
        s.addTarget(ListenTargetSpec(id: 1, kind: queryTarget("r")))
        var readTimes: [Timestamp] = []
        var token: [UInt8]?
        for batch in sink.take() {
            for case .targetChange(.noChange, [], _, let tok, let rt?) in batch {
                readTimes.append(rt)
                token = tok
            }
        }
        _ = try e.commit([set("r/b", [:])], in: db, auth: .admin)
        for batch in sink.take() {
            for case .targetChange(.noChange, [], _, _, let rt?) in batch { readTimes.append(rt) }
        }
        s.close()
        let s2 = e.openListenSession(database: db, auth: .admin, send: sink.send)
        s2.addTarget(ListenTargetSpec(id: 1, kind: queryTarget("r"), resumeToken: token))
        let resumed = sink.take()
        #expect(resumed.map { $0.map(\.summary) } == [[
            "add[1]", "change r/b [1]", "current[1] @t", "noChange[] @t",
        ]])
        for batch in resumed {
            for case .targetChange(.noChange, [], _, _, let rt?) in batch { readTimes.append(rt) }
        }
        #expect(readTimes == readTimes.sorted())
        #expect(readTimes.count == 3)
    }
}
