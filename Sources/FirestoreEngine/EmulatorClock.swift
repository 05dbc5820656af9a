import FirestoreModel
import Synchronization

/// The emulators' clock (issue 16 item 4): the system clock until a test moves it, then a
/// frozen instant or the system clock shifted by an offset. One instance feeds everything
/// that reads the time — commit times and server timestamps, `request.time` in rules, read
/// times, transaction expiry, the functions' clock, Auth token times — so a test of
/// `cleanupPresence` can advance ten minutes instead of waiting.
///
/// Commit times never go backwards whatever the clock says: the engine issues each commit
/// time strictly after the previous one (a clock set back, or frozen, gives commits one
/// microsecond apart). Times are whole microseconds, as Firestore stores them.
public final class EmulatorClock: Sendable {
    /// How the clock runs.
    public enum Mode: Sendable, Equatable {
        /// The system clock.
        case system
        /// The system clock plus `microseconds` (negative: behind).
        case offset(microseconds: Int64)
        /// Stopped at an instant.
        case frozen(Timestamp)
    }

    private let state = Mutex(Mode.system)
    private let system: @Sendable () -> Timestamp

    /// A clock on `system` (tests inject one).
    public init(system: @escaping @Sendable () -> Timestamp = FirestoreEngine.systemClock) {
        self.system = system
    }

    /// How the clock runs now.
    public var mode: Mode { state.withLock { $0 } }

    /// The emulated time now.
    public func now() -> Timestamp {
        switch mode {
        case .system: return system()
        case .offset(let d): return Timestamp(microseconds: system().microseconds &+ d)
        case .frozen(let t): return t
        }
    }

    /// Stops the clock at `instant`, or at its current time.
    public func freeze(at instant: Timestamp? = nil) {
        let t = instant ?? now()
        state.withLock { $0 = .frozen(t.truncatedToMicroseconds) }
    }

    /// Lets a frozen clock run again from where it stands (an offset from the system clock).
    public func resume() {
        let t = now()
        let d = t.microseconds - system().microseconds
        state.withLock { $0 = d == 0 ? .system : .offset(microseconds: d) }
    }

    /// Sets the time: a frozen clock stays frozen at `instant`; a running one runs on from it.
    public func set(_ instant: Timestamp) {
        let d = instant.microseconds - system().microseconds
        state.withLock {
            if case .frozen = $0 { $0 = .frozen(instant.truncatedToMicroseconds) } else { $0 = .offset(microseconds: d) }
        }
    }

    /// Moves the time by `microseconds` (negative moves it back; commit times still never do).
    public func advance(microseconds: Int64) {
        state.withLock {
            switch $0 {
            case .system: $0 = .offset(microseconds: microseconds)
            case .offset(let d): $0 = .offset(microseconds: d &+ microseconds)
            case .frozen(let t): $0 = .frozen(Timestamp(microseconds: t.microseconds &+ microseconds))
            }
        }
    }

    /// Back to the system clock.
    public func reset() { state.withLock { $0 = .system } }

    /// One line for the log and the UI: `system clock`, `frozen at T`, `running 600 s ahead (T)`.
    public var description: String {
        switch mode {
        case .system: return "system clock"
        case .frozen(let t): return "frozen at \(t.rfc3339)"
        case .offset(let d):
            // Seconds to the millisecond: "600 s", "599.983 s".
            let ms = d.magnitude / 1000
            let fraction = ms % 1000
            let digits = fraction == 0 ? "" : "." + String(String(fraction + 1000).dropFirst()).replacing(/0+$/, with: "")
            return "running \(ms / 1000)\(digits) s \(d >= 0 ? "ahead of" : "behind") the system clock (now \(now().rfc3339))"
        }
    }
}
