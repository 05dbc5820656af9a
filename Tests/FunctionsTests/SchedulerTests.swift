import FirestoreModel
import HTTPServer
import Synchronization
import Testing

@testable import Functions

/// A virtual clock: `sleep(until:)` jumps time to the deadline at once and records it; after
/// `maxSleeps` sleeps it throws `CancellationError`, ending the scheduler loop.
final class VirtualClock: Clock, Sendable {
    struct Instant: InstantProtocol, Hashable {
        var offset: Duration
        func advanced(by d: Duration) -> Instant { Instant(offset: offset + d) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
    }

    private let state = Mutex<(now: Instant, sleeps: [Duration])>((Instant(offset: .zero), []))
    let maxSleeps: Int

    init(maxSleeps: Int) { self.maxSleeps = maxSleeps }

    var now: Instant { state.withLock { $0.now } }
    var minimumResolution: Duration { .nanoseconds(1) }
    var sleeps: [Duration] { state.withLock { $0.sleeps } }

    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        let stop = state.withLock { s -> Bool in
            if s.sleeps.count >= maxSleeps { return true }
            s.sleeps.append(deadline.offset)
            if s.now < deadline { s.now = deadline }
            return false
        }
        if stop { throw CancellationError() }
    }
}

@Suite("Scheduled functions: schedules, the scheduler loop, the on-demand run endpoint")
struct SchedulerTests {
    @Test("schedules parse 'every N unit'", arguments: [
        ("every 24 hours", Duration.seconds(86_400)), ("every 5 minutes", .seconds(300)), ("every day", .seconds(86_400)),
        ("every 1 hour", .seconds(3600)), ("Every 30 seconds", .seconds(30)), ("every 2 days", .seconds(172_800)),
    ])
    func parses(_ text: String, _ interval: Duration) throws {
        #expect(try Schedule(parsing: text).interval == interval)
    }

    @Test("a schedule describes itself in the form it parses from, in its largest whole unit")
    func descriptionRoundTrips() throws {
        #expect(Schedule(every: .seconds(86_400)).description == "every 24 hours")
        #expect(Schedule(every: .seconds(3600)).description == "every 1 hour")
        #expect(Schedule(every: .seconds(300)).description == "every 5 minutes")
        #expect(Schedule(every: .seconds(90)).description == "every 90 seconds")
        #expect(Schedule(every: .seconds(1)).description == "every 1 second")
        for text in ["every 24 hours", "every 5 minutes", "every 90 seconds", "every 2 days"] {
            let s = try Schedule(parsing: text)
            #expect(try Schedule(parsing: s.description) == s)
        }
    }

    @Test("other schedule texts are rejected", arguments: ["", "every", "every 0 hours", "every -1 hours", "0 3 * * *", "every 5 fortnights", "each 5 minutes"])
    func rejects(_ text: String) {
        #expect(throws: FirestoreError.self) { try Schedule(parsing: text) }
    }

    @Test("the loop runs each job every interval, first after one interval")
    func loop() async throws {
        let fixture = try Fixture()
        let runs = Recorder<String>()
        fixture.host.onSchedule("hourly", schedule: Schedule(every: .seconds(3600))) { event in
            runs.append(event.jobName)
            return .null
        }
        fixture.host.onSchedule("daily", schedule: Schedule(every: .seconds(86_400))) { event in
            runs.append(event.jobName)
            throw TestFailure("boom")
        }
        let clock = VirtualClock(maxSleeps: 25)
        await fixture.host.runScheduler(clock: clock)
        let expected: [Duration] = (1...25).map { (hour: Int64) -> Duration in .seconds(3600 * hour) }
        #expect(clock.sleeps == expected)
        #expect(runs.values.filter { $0 == "hourly" }.count == 25)
        #expect(runs.values.filter { $0 == "daily" }.count == 1)
        #expect(fixture.errors.values.count == 1)
        #expect(fixture.errors.values.first?.hasPrefix("daily") == true)
    }

    @Test("the loop ends when its task is cancelled")
    func cancellation() async throws {
        let fixture = try Fixture()
        fixture.host.onSchedule("job", schedule: Schedule(every: .seconds(3600))) { _ in .null }
        let task = Task { await fixture.host.runScheduler(clock: ContinuousClock()) }
        task.cancel()
        await task.value
    }

    @Test("POST …/functions/{name}:run runs a scheduled function now and returns its result")
    func runEndpoint() async throws {
        let fixture = try Fixture()
        fixture.host.onSchedule("count", schedule: Schedule(every: .seconds(60))) { event in
            ["at": .string(event.scheduleTime.rfc3339)]
        }
        fixture.host.onSchedule("broken", schedule: Schedule(every: .seconds(60))) { _ in throw TestFailure("x") }
        fixture.host.onSchedule("refuses", schedule: Schedule(every: .seconds(60))) { _ in
            throw CallableError(.failedPrecondition, "not now")
        }
        let handler = fixture.handler
        func post(_ path: String) async -> HTTPResponse { await handler.handle(HTTPRequest(method: "POST", target: path)) }
        let ok = await post("/emulator/v1/projects/demo-test/functions/count:run")
        #expect(ok.status == 200)
        #expect(text(ok) == #"{"result":{"at":"2026-01-01T00:00:00Z"}}"#)
        let broken = await post("/emulator/v1/projects/demo-test/functions/broken:run")
        #expect(broken.status == 500)
        #expect(text(broken) == #"{"error":{"message":"INTERNAL","status":"INTERNAL"}}"#)
        let refuses = await post("/emulator/v1/projects/demo-test/functions/refuses:run")
        #expect(refuses.status == 400)
        #expect(errorStatus(refuses) == "FAILED_PRECONDITION")
        let unknown = await post("/emulator/v1/projects/demo-test/functions/nope:run")
        #expect(unknown.status == 404)
        #expect(errorStatus(unknown) == "NOT_FOUND")
        let other = await post("/emulator/v1/projects/other/functions/count:run")
        #expect(other.status == 404)
        let get = await handler.handle(HTTPRequest(method: "GET", target: "/emulator/v1/projects/demo-test/functions/count:run"))
        #expect(get.status == 405)
    }
}
