import FirestoreModel
import GoogleWire
import Synchronization

/// The latest function invocations of a host — callables, scheduled runs, document triggers —
/// for the Emulator UI's functions view, newest last.
///
/// Entry JSON: `{id, name, kind: "callable"|"scheduled"|"trigger", time (RFC 3339, start),
/// durationMs, uid, arguments, result, error: {status, message}|null, logs}`; `arguments` and
/// `result` are the callable's `data` and result as JSON (a trigger's arguments are
/// `{document, eventType}`, a scheduled run's `{scheduleTime}`), null when absent; `logs` the
/// lines it wrote with `FunctionsLogger`.
public final class InvocationJournal: Sendable {
    /// What kind of function ran.
    public enum Kind: String, Sendable {
        case callable, scheduled, trigger
    }

    /// One finished invocation.
    public struct Entry: Sendable {
        /// Increases by one per invocation.
        public var id: Int
        /// The function's name.
        public var name: String
        /// Callable, scheduled or trigger.
        public var kind: Kind
        /// When it started.
        public var time: Timestamp
        /// How long it ran, in milliseconds.
        public var durationMs: Double
        /// The caller's uid (callables with an ID token).
        public var uid: String?
        /// What it was given, as JSON.
        public var arguments: JSONValue
        /// What it returned, as JSON; null on error.
        public var result: JSONValue
        /// The error it ended with.
        public var error: CallableError?
        /// What it wrote with `FunctionsLogger`, `SEVERITY message` per line.
        public var logs: [String] = []
    }

    struct State {
        var nextID = 1
        var entries: [Entry] = []
        var nextSubscriber = 0
        var subscribers: [Int: @Sendable (Entry) -> Void] = [:]
    }

    /// How many entries are kept.
    public let capacity: Int
    private let state = Mutex(State())

    /// An empty journal keeping the latest `capacity` invocations.
    public init(capacity: Int = 500) { self.capacity = capacity }

    /// Records a finished invocation; subscribers see it at once.
    public func record(
        name: String, kind: Kind, time: Timestamp, duration: Duration, uid: String? = nil, arguments: JSONValue,
        outcome: Result<JSONValue, CallableError>, logs: [String] = []
    ) {
        let c = duration.components
        let ms = Double(c.seconds) * 1000 + Double(c.attoseconds) / 1e15
        let (entry, listeners) = state.withLock { s -> (Entry, [@Sendable (Entry) -> Void]) in
            var e = Entry(
                id: s.nextID, name: name, kind: kind, time: time, durationMs: ms, uid: uid, arguments: arguments, result: .null,
                logs: logs)
            switch outcome {
            case .success(let v): e.result = v
            case .failure(let err): e.error = err
            }
            s.nextID += 1
            s.entries.append(e)
            if s.entries.count > capacity { s.entries.removeFirst(s.entries.count - capacity) }
            return (e, Array(s.subscribers.values))
        }
        for l in listeners { l(entry) }
    }

    /// Every kept invocation, oldest first.
    public var entries: [Entry] { state.withLock { $0.entries } }

    /// Registers `listener` for every later invocation; it runs on the recording task and must
    /// only enqueue work. - Returns: the token for `unsubscribe`.
    public func subscribe(_ listener: @escaping @Sendable (Entry) -> Void) -> Int {
        state.withLock { s in
            s.nextSubscriber += 1
            s.subscribers[s.nextSubscriber] = listener
            return s.nextSubscriber
        }
    }

    /// Unregisters a listener.
    public func unsubscribe(_ token: Int) { _ = state.withLock { $0.subscribers.removeValue(forKey: token) } }

    /// The JSON of one entry (shape in the type's documentation).
    public static func json(_ e: Entry) -> JSONValue {
        var error = JSONValue.null
        if let err = e.error {
            error = .object([.init("status", .string(err.code.name)), .init("message", .string(err.message))])
        }
        // Microseconds are enough for a duration; the text is always a valid JSON number.
        let duration = JSONValue.number(String(Double((e.durationMs * 1000).rounded()) / 1000))
        var members: [JSONValue.Member] = []
        members.append(.init("id", .integer(e.id)))
        members.append(.init("name", .string(e.name)))
        members.append(.init("kind", .string(e.kind.rawValue)))
        members.append(.init("time", .string(e.time.rfc3339)))
        members.append(.init("durationMs", duration))
        members.append(.init("uid", e.uid.map(JSONValue.string) ?? .null))
        members.append(.init("arguments", e.arguments))
        members.append(.init("result", e.result))
        members.append(.init("error", error))
        members.append(.init("logs", .array(e.logs.map(JSONValue.string))))
        return .object(members)
    }
}

extension CallableValue {
    /// This value as JSON for the invocation journal (the callable wire's encoding; null when
    /// it cannot be encoded).
    var journalJSON: JSONValue {
        guard let bytes = try? jsonBytes(), let v = try? JSONValue.parse(bytes) else { return .null }
        return v
    }
}
