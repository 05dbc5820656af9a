import FirestoreModel
import GoogleWire
import HTTPServer
import Testing

@testable import Functions

/// What the Emulator UI's functions view lists (issue 15): every callable call (over HTTP or
/// in-process), scheduled run and trigger delivery, with its arguments and result or error.
@Suite struct InvocationJournalTests {
    @Test func callablesAndScheduledRunsAreJournaledWithArgumentsResultsAndErrors() async throws {
        let fixture = try Fixture()
        fixture.host.onCall("echo") { request async throws(CallableError) -> CallableValue in
            FunctionsLogger.info("echoing")
            FunctionsLogger.warn("twice")
            return ["got": request.data]
        }
        fixture.host.onCall("fail") { _ async throws(CallableError) -> CallableValue in
            throw CallableError(.resourceExhausted, "too fast")
        }
        fixture.host.onSchedule("tidy", schedule: Schedule(every: .seconds(60))) { _ in ["deleted": 2] }
        let seen = Recorder<String>()
        let token = fixture.host.invocations.subscribe { seen.append($0.name) }
        let token2 = try unsignedJWT(["sub": "alice"])
        let r = await fixture.handler.handle(
            callableRequest("/demo-test/us-central1/echo", body: #"{"data":{"x":1}}"#, token: token2))
        #expect(r.status == 200)
        let failed = await fixture.handler.handle(callableRequest("/demo-test/us-central1/fail", body: #"{"data":null}"#))
        #expect(failed.status == 429)
        _ = try await fixture.host.runScheduled("tidy")
        let entries = fixture.host.invocations.entries
        try #require(entries.count == 3)
        #expect(entries.map(\.name) == ["echo", "fail", "tidy"])
        #expect(entries.map(\.kind) == [.callable, .callable, .scheduled])
        #expect(entries[0].uid == "alice")
        #expect(entries[0].arguments == (try JSONValue.parse(Array(#"{"x":1}"#.utf8))))
        #expect(entries[0].result == (try JSONValue.parse(Array(#"{"got":{"x":1}}"#.utf8))))
        #expect(entries[0].error == nil)
        #expect(entries[0].logs == ["INFO echoing", "WARNING twice"])
        #expect(entries[1].logs.isEmpty)
        #expect(InvocationJournal.json(entries[0])["logs"] == .array([.string("INFO echoing"), .string("WARNING twice")]))
        #expect(entries[1].error?.code == .resourceExhausted)
        #expect(entries[1].result == .null)
        #expect(entries[2].arguments["scheduleTime"]?.stringValue == fixture.clock.read().rfc3339)
        #expect(entries.allSatisfy { $0.durationMs >= 0 })
        let json = InvocationJournal.json(entries[1])
        #expect(json["error"]?["status"] == .string("RESOURCE_EXHAUSTED"))
        #expect(json["error"]?["message"] == .string("too fast"))
        #expect(seen.values == ["echo", "fail", "tidy"])
        fixture.host.invocations.unsubscribe(token)
        _ = try await fixture.host.runScheduled("tidy")
        #expect(seen.values.count == 3, "no event after unsubscribe")
    }

    @Test func aTriggerKeepsItsLogLinesAndAFloodIsCappedWithACount() async throws {
        let fixture = try Fixture()
        try fixture.host.onDocument("poems/{id}", .created, name: "chatty") { _ in
            for i in 0..<(InvocationLog.limit + 5) { FunctionsLogger.debug("line \(i)") }
        }
        let dispatcher = fixture.host.makeTriggerDispatcher()
        let task = Task { await dispatcher.run() }
        try fixture.host.admin.document("poems/p1").set(["v": 1])
        var entries: [InvocationJournal.Entry] = []
        for _ in 0..<200 where entries.isEmpty {
            try await Task.sleep(for: .milliseconds(10))
            entries = fixture.host.invocations.entries
        }
        dispatcher.stop()
        await task.value
        let entry = try #require(entries.first)
        #expect(entry.kind == .trigger)
        #expect(entry.logs.count == InvocationLog.limit + 1)
        #expect(entry.logs.first == "DEBUG line 0")
        #expect(entry.logs.last == "(5 more lines not kept)")
    }

    @Test func theJournalKeepsOnlyTheLatest() {
        let journal = InvocationJournal(capacity: 2)
        for i in 1...3 {
            journal.record(
                name: "f\(i)", kind: .callable, time: Timestamp(seconds: 0, nanos: 0), duration: .milliseconds(1),
                arguments: .null, outcome: .success(.null))
        }
        #expect(journal.entries.map(\.name) == ["f2", "f3"])
        #expect(journal.entries.map(\.id) == [2, 3])
    }
}

extension JSONValue {
    fileprivate var stringValue: String? { if case .string(let s) = self { s } else { nil } }
}
