import DocumentStore
import FirestoreModel
import Synchronization
import Testing

@testable import FirestoreEngine

/// The emulators' clock (issue 16 item 4): freeze, set, advance, resume, reset, and commit
/// times that never go backwards whatever it says.
@Suite struct EmulatorClockTests {
    /// A system clock the test moves by hand.
    final class Hand: Sendable {
        let micros = Atomic<Int64>(1_800_000_000_000_000)
        var read: @Sendable () -> Timestamp { { [self] in Timestamp(microseconds: micros.load(ordering: .relaxed)) } }
        func tick(_ d: Int64) { micros.add(d, ordering: .relaxed) }
    }

    @Test func freezeSetAdvanceResumeAndReset() {
        let hand = Hand()
        let clock = EmulatorClock(system: hand.read)
        let start = hand.read()
        #expect(clock.now() == start && clock.mode == .system)
        clock.freeze()
        hand.tick(5_000_000)
        #expect(clock.now() == start)  // frozen: the system moved, the clock did not
        clock.advance(microseconds: 600_000_000)
        #expect(clock.now() == Timestamp(microseconds: start.microseconds + 600_000_000))
        clock.set(Timestamp(seconds: 2_000_000_000, nanos: 0))
        #expect(clock.now() == Timestamp(seconds: 2_000_000_000, nanos: 0) && clock.description.hasPrefix("frozen at"))
        clock.resume()
        hand.tick(1_000_000)
        #expect(clock.now() == Timestamp(seconds: 2_000_000_001, nanos: 0))  // runs on from where it stood
        clock.advance(microseconds: -1_000_000)
        #expect(clock.now() == Timestamp(seconds: 2_000_000_000, nanos: 0))
        clock.reset()
        #expect(clock.now() == hand.read() && clock.description == "system clock")
    }

    @Test func commitTimesNeverGoBackwardsWhateverTheClockSays() throws {
        let hand = Hand()
        let clock = EmulatorClock(system: hand.read)
        let engine = try FirestoreEngine(store: InMemoryDocumentStore(), clock: clock.now)
        func commit() throws -> Timestamp {
            try engine.commit([set("c/d", ["v": .integer(1)])], in: db, auth: .admin).commitTime
        }
        clock.freeze()
        let a = try commit()
        let b = try commit()
        #expect(a == clock.now() && b == Timestamp(microseconds: a.microseconds + 1))  // frozen: 1 µs apart
        clock.advance(microseconds: 3_600_000_000)
        let c = try commit()
        #expect(c == clock.now())
        clock.set(Timestamp(microseconds: a.microseconds - 86_400_000_000))  // a day before the first commit
        let d = try commit()
        #expect(d == Timestamp(microseconds: c.microseconds + 1))
    }
}
