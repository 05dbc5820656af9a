import DocumentStore
import FirestoreEngine
import FirestoreModel
import Foundation
import Synchronization
import Testing

@testable import Functions

@Suite("Document triggers: patterns and delivery of committed changes")
struct TriggerTests {
    @Test("patterns match same-length paths and capture wildcards")
    func patterns() throws {
        let p = try DocumentPattern("users/{uid}/feed/{messageId}")
        #expect(p.match(ResourcePath(relative: "users/u1/feed/m1")) == ["uid": "u1", "messageId": "m1"])
        #expect(p.match(ResourcePath(relative: "users/u1/other/m1")) == nil)
        #expect(p.match(ResourcePath(relative: "users/u1")) == nil)
        #expect(p.description == "users/{uid}/feed/{messageId}")
        for bad in ["", "users", "users/{uid}/feed", "a//b/c", "a/{x}/b/{x}", "a/{}", "a/{b"] {
            #expect(throws: FirestoreError.self, "\(bad)") { try DocumentPattern(bad) }
        }
    }

    @Test("event types classify before/after states")
    func eventTypes() {
        let d = Document(path: ResourcePath(relative: "a/b"), fields: [:], createTime: .init(seconds: 1, nanos: 0), updateTime: .init(seconds: 1, nanos: 0))
        #expect(DocumentEventType.created.matches(before: nil, after: d))
        #expect(!DocumentEventType.created.matches(before: d, after: d))
        #expect(DocumentEventType.updated.matches(before: d, after: d))
        #expect(DocumentEventType.deleted.matches(before: d, after: nil))
        #expect(DocumentEventType.written.matches(before: nil, after: d))
        #expect(!DocumentEventType.written.matches(before: nil, after: nil))
    }

    @Test("created/updated/deleted triggers receive commits in order, asynchronously", .timeLimit(.minutes(1)))
    func delivery() async throws {
        let fixture = try Fixture()
        let (events, sink) = AsyncStream.makeStream(of: String.self)
        for type in [DocumentEventType.created, .updated, .deleted, .written] {
            try fixture.host.onDocument("poems/{poemId}", type, name: "on-\(type.rawValue)") { event in
                sink.yield("\(type.rawValue):\(event.params["poemId"] ?? "?"):\(event.after?.fields["v"].map { "\($0)" } ?? "-")")
            }
        }
        try fixture.host.onDocument("pending/{id}", .created, name: "failing") { _ in throw TestFailure("nope") }
        let dispatcher = fixture.host.makeTriggerDispatcher()
        let task = Task { await dispatcher.run() }
        let db = fixture.host.admin
        try db.document("poems/p1").set(["v": 1])
        try db.document("poems/p1").set(["v": 2])
        try db.document("poems/p1").set(["v": 2])  // unchanged: no event
        try db.document("other/x").set(["v": 1])  // not watched
        try db.document("pending/x").set(["v": 1])
        try db.document("poems/p1").delete()
        var received: [String] = []
        for await e in events {
            received.append(e)
            if received.count == 6 { break }
        }
        #expect(received == [
            "created:p1:integer(1)", "written:p1:integer(1)", "updated:p1:integer(2)", "written:p1:integer(2)",
            "deleted:p1:-", "written:p1:-",
        ])
        dispatcher.stop()
        await task.value
        #expect(fixture.errors.values.count == 1)
        #expect(fixture.errors.values.first?.hasPrefix("failing") == true)
    }

    @Test("commits made while background triggers are off never fire; resets fire none", .timeLimit(.minutes(1)))
    func switchedOff() async throws {
        let fixture = try Fixture()
        let (events, sink) = AsyncStream.makeStream(of: String.self)
        try fixture.host.onDocument("poems/{poemId}", .written, name: "on-write") { event in
            sink.yield(event.params["poemId"] ?? "?")
        }
        let dispatcher = fixture.host.makeTriggerDispatcher()
        let task = Task { await dispatcher.run() }
        let db = fixture.host.admin
        #expect(fixture.host.backgroundTriggersEnabled)
        fixture.host.setBackgroundTriggers(enabled: false)
        try db.document("poems/quiet").set(["v": 1])
        // A reset to a snapshot (as `:reset` does) is not a write of the app's: no trigger.
        try fixture.host.engine.replaceAll(
            fixture.host.database, with: [Document(path: ResourcePath(["poems", "restored"]), fields: ["v": .integer(1)],
                createTime: Timestamp(seconds: 1, nanos: 0), updateTime: Timestamp(seconds: 1, nanos: 0))])
        fixture.host.setBackgroundTriggers(enabled: true)
        try db.document("poems/loud").set(["v": 1])
        var received: [String] = []
        for await e in events {
            received.append(e)
            break
        }
        #expect(received == ["loud"])
        dispatcher.stop()
        await task.value
    }

    @Test("a failing trigger is retried per its policy with the same event id", .timeLimit(.minutes(1)))
    func retried() async throws {
        let fixture = try Fixture()
        let (events, sink) = AsyncStream.makeStream(of: String.self)
        let failures = Mutex(2)
        try fixture.host.onDocumentCreated("orders/{id}", name: "flaky", retry: .attempts(3, backoff: .milliseconds(1))) { event in
            sink.yield("\(event.id)#\(event.attempt)")
            let fail = failures.withLock { n -> Bool in
                n -= 1
                return n >= 0
            }
            if fail { throw TestFailure("not yet") }
        }
        try fixture.host.onDocumentCreated("once/{id}", name: "never-retried") { event in
            sink.yield("once#\(event.attempt)")
            throw TestFailure("always")
        }
        let dispatcher = fixture.host.makeTriggerDispatcher()
        let task = Task { await dispatcher.run() }
        try fixture.host.admin.document("orders/o1").set(["v": 1])
        try fixture.host.admin.document("once/x").set(["v": 1])
        var received: [String] = []
        for await e in events {
            received.append(e)
            if received.count == 4 { break }
        }
        let id = String(received[0].split(separator: "#")[0])
        #expect(received == ["\(id)#1", "\(id)#2", "\(id)#3", "once#1"])
        dispatcher.stop()
        await task.value
        let stats = fixture.host.triggerStats
        #expect(stats.delivered == 1 && stats.failed == 3 && stats.retried == 2 && stats.backlog == 0)
    }

    @Test("triggers that keep firing one another are stopped and the cycle is named", .timeLimit(.minutes(1)))
    func loopStopped() async throws {
        let fixture = try Fixture()
        let (events, sink) = AsyncStream.makeStream(of: String.self)
        let admin = fixture.host.admin
        try fixture.host.onDocumentWritten("ping/{id}", name: "ping") { event in
            sink.yield("ping")
            let n = event.after.flatMap { doc -> Int64? in if case .integer(let v)? = doc.fields["n"] { v } else { nil } } ?? 0
            try admin.document("pong/\(event.params["id"] ?? "")").set(["n": .integer(n + 1)])
        }
        try fixture.host.onDocumentWritten("pong/{id}", name: "pong") { event in
            sink.yield("pong")
            let n = event.after.flatMap { doc -> Int64? in if case .integer(let v)? = doc.fields["n"] { v } else { nil } } ?? 0
            try admin.document("ping/\(event.params["id"] ?? "")").set(["n": .integer(n + 1)])
        }
        let dispatcher = fixture.host.makeTriggerDispatcher()
        let task = Task { await dispatcher.run() }
        try admin.document("ping/a").set(["n": 0])
        var received: [String] = []
        for await e in events {
            received.append(e)
            if received.count == 2 * TriggerDispatcher.maxRepeats { break }
        }
        // Each trigger ran maxRepeats times on its document; the next run is refused.
        try await Task.sleep(for: .milliseconds(100))
        dispatcher.stop()
        await task.value
        #expect(received.count == 2 * TriggerDispatcher.maxRepeats)
        #expect(fixture.host.triggerStats.loopsStopped == 1)
        let logged = fixture.errors.values.first { $0.contains("trigger loop stopped") } ?? ""
        #expect(logged.contains("ping on ping/a → pong on pong/a → ping on ping/a"), "\(logged)")
    }

    @Test("events a process stored and did not deliver are delivered by the next, in commit order", .timeLimit(.minutes(1)))
    func survivesARestart() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file + suffix) } }
        let clock = ManualClock()
        var ids: [String] = []
        do {
            // The first process: commits owe events, and it dies before delivering any.
            let store = try SQLiteDocumentStore(path: file)
            let engine = try FirestoreEngine(store: store, clock: clock.closure)
            let host = FunctionsHost(project: "demo-test", engine: engine, clock: clock.closure)
            try host.onDocumentCreated("orders/{id}", name: "count") { _ in }
            let dispatcher = host.makeTriggerDispatcher()  // its outbox is set; run() never starts
            for n in 1...3 { try host.admin.document("orders/o\(n)").set(["n": .integer(Int64(n))]) }
            try host.admin.document("other/x").set(["n": 1])  // no trigger: nothing stored for it
            ids = try engine.allDocuments(in: DatabaseID(project: "demo-test", database: TriggerDispatcher.outboxDatabase))
                .map(\.path.lastSegment)
            #expect(ids.count == 3)
            dispatcher.stop()
            store.close()
        }
        let store = try SQLiteDocumentStore(path: file)
        defer { store.close() }
        let engine = try FirestoreEngine(store: store, clock: clock.closure)
        let host = FunctionsHost(project: "demo-test", engine: engine, clock: clock.closure)
        let (events, sink) = AsyncStream.makeStream(of: String.self)
        try host.onDocumentCreated("orders/{id}", name: "count") { event in sink.yield("\(event.params["id"] ?? "?") \(event.id)") }
        let dispatcher = host.makeTriggerDispatcher()
        let task = Task { await dispatcher.run() }
        var received: [String] = []
        for await e in events {
            received.append(e)
            if received.count == 3 { break }
        }
        #expect(received == zip(["o1", "o2", "o3"], ids).map { "\($0) \($1)" })
        try await Task.sleep(for: .milliseconds(50))
        dispatcher.stop()
        await task.value
        // Delivered: the outbox is empty again.
        #expect(try engine.allDocuments(in: DatabaseID(project: "demo-test", database: TriggerDispatcher.outboxDatabase)).isEmpty)
    }
}
