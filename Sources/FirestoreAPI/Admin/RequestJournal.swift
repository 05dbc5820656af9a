import FirestoreEngine
import FirestoreModel
import FoundationEssentials
import GoogleWire
import SecurityRules
import Synchronization

/// The client requests the security rules decided, oldest first, per project: what the Emulator
/// UI's requests view lists and what `GET /emulator/v1/projects/{p}:requests` returns. Each
/// entry keeps the decision itself; its JSON is made only when someone reads it.
///
/// Entry JSON: `{id, time, method, path, auth, uid, verdict: "allow"|"deny", message,
/// explanation, way, failure, statements: [{match, methods, line, column, result, culprits}],
/// grantedBy: {match, line, column}|null}` — `method` is the rules method (`get`, `list`,
/// `create`, `update`, `delete`), `path` the path the rules saw (`/databases/(default)/documents/…`),
/// `message` the emulator's denial text (empty for a grant). Owner requests bypass the rules
/// and never appear. Source: docs/reference/security-rules.md section 8.
public final class RequestJournal: Sendable {
    /// What subscribers hear.
    public enum Event: Sendable {
        /// A request was decided.
        case request(Entry)
        /// The rules in force were replaced (file reload or the PUT endpoint).
        case rulesReplaced
    }

    /// One decided request.
    public struct Entry: Sendable {
        /// Increases by one per entry, across projects.
        public var id: Int
        /// The project of the request.
        public var project: String
        /// When the rules decided it (`request.time`).
        public var time: Timestamp
        /// The rules method.
        public var method: RulesMethod
        /// Who asked.
        public var auth: AuthContext
        /// The database and document (or collection, for a list) asked for.
        public var database: DatabaseID
        public var path: ResourcePath
        /// The verdict and its explanation (texts longer than `maxText` cut; the request's
        /// documents are not kept).
        public var decision: RulesDecision
    }

    struct State {
        var nextID = 1
        /// A ring of the latest entries of every project: `ring[(start + i) % capacity]`.
        var ring: [Entry] = []
        var start = 0
        var nextSubscriber = 0
        var subscribers: [Int: @Sendable (Event) -> Void] = [:]

        /// The ring's entries, oldest first.
        var ordered: [Entry] { (0..<ring.count).map { ring[(start + $0) % ring.count] } }
    }

    /// How many entries are kept, all projects together (a rules test suite makes a project
    /// per test; memory stays bounded by this alone).
    public let capacity: Int
    private let state = Mutex(State())

    /// An empty journal keeping the latest `capacity` entries.
    public init(capacity: Int = 1000) { self.capacity = max(1, capacity) }

    /// The longest culprit or debug line kept (a value the rules saw may be megabytes).
    public static let maxText = 2000

    /// Records one decision; subscribers get it as a `.request` event.
    public func record(project: String, request: AccessRequest, decision: RulesDecision) {
        var decision = decision
        func tooLong(_ text: String) -> Bool { text.utf8.count > Self.maxText }
        func cut(_ text: String) -> String { tooLong(text) ? String(text.prefix(Self.maxText)) + "… (cut)" : text }
        // Copied only when some text is too long: the common decision is recorded as it is.
        for i in decision.explanation.statements.indices where decision.explanation.statements[i].culprits.contains(where: tooLong) {
            decision.explanation.statements[i].culprits = decision.explanation.statements[i].culprits.map(cut)
        }
        if decision.explanation.debugLog.contains(where: tooLong) {
            decision.explanation.debugLog = decision.explanation.debugLog.map(cut)
        }
        let (entry, listeners) = state.withLock { s -> (Entry, [@Sendable (Event) -> Void]) in
            let e = Entry(
                id: s.nextID, project: project, time: request.time, method: request.method, auth: request.auth,
                database: request.database, path: request.path, decision: decision)
            s.nextID += 1
            if s.ring.count < capacity {
                s.ring.append(e)
            } else {
                s.ring[s.start] = e  // overwrite the oldest: O(1) per request
                s.start = (s.start + 1) % capacity
            }
            return (e, Array(s.subscribers.values))
        }
        for l in listeners { l(.request(entry)) }
    }

    /// Tells subscribers the rules in force were replaced.
    public func announceRulesReplaced() {
        let listeners = state.withLock { Array($0.subscribers.values) }
        for l in listeners { l(.rulesReplaced) }
    }

    /// The entries of `project`, oldest first, those with an id above `after` only.
    public func entries(project: String, after: Int = 0) -> [Entry] {
        state.withLock { $0.ordered.filter { $0.project == project && $0.id > after } }
    }

    /// The `after` query parameter of the journal's endpoints: absent is 0, an id past any
    /// `Int` is newer than every entry (`Int.max`); nil for anything but a non-negative integer.
    public static func after(_ text: String?) -> Int? {
        guard let text else { return 0 }
        if let n = Int(text) { return n >= 0 ? n : nil }
        return !text.isEmpty && text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) ? .max : nil
    }

    /// Forgets the entries of `project`.
    public func clear(project: String) {
        state.withLock { s in
            s.ring = s.ordered.filter { $0.project != project }
            s.start = 0
        }
    }

    /// Registers `listener` for every later event; it runs on the recording thread (inside a
    /// request) and must only enqueue work. - Returns: the token for `unsubscribe`.
    public func subscribe(_ listener: @escaping @Sendable (Event) -> Void) -> Int {
        state.withLock { s in
            s.nextSubscriber += 1
            s.subscribers[s.nextSubscriber] = listener
            return s.nextSubscriber
        }
    }

    /// Unregisters a listener.
    public func unsubscribe(_ token: Int) { _ = state.withLock { $0.subscribers.removeValue(forKey: token) } }

    /// `{"requests": [entry…]}` for `project`, oldest first.
    public func json(project: String, after: Int = 0) -> JSONValue {
        .object([.init("requests", .array(entries(project: project, after: after).map(Self.json)))])
    }

    /// The JSON of one entry (shape in the type's documentation).
    public static func json(_ e: Entry) -> JSONValue {
        let x = e.decision.explanation
        let uid: JSONValue
        if case .user(let id, _) = e.auth { uid = .string(id) } else { uid = .null }
        let statements: [JSONValue] = x.statements.map { s in
            var m: [JSONValue.Member] = []
            m.append(.init("match", .string(s.matchPath)))
            m.append(.init("methods", .array(s.methods.map { .string($0.rawValue) })))
            m.append(.init("line", .integer(s.position.line)))
            m.append(.init("column", .integer(s.position.column)))
            m.append(.init("result", .string(resultText(s.result))))
            m.append(.init("culprits", .array(s.culprits.map(JSONValue.string))))
            return .object(m)
        }
        var granted: JSONValue = .null
        if e.decision.allowed, let s = x.statements.first(where: { if case .granted = $0.result { true } else { false } }) {
            granted = .object([
                .init("match", .string(s.matchPath)), .init("line", .integer(s.position.line)),
                .init("column", .integer(s.position.column)),
            ])
        }
        var m: [JSONValue.Member] = []
        m.append(.init("id", .integer(e.id)))
        m.append(.init("time", .string(e.time.rfc3339)))
        m.append(.init("method", .string(e.method.rawValue)))
        m.append(.init("path", .string(x.path)))
        m.append(.init("auth", .string(RulesController.who(e.auth))))
        m.append(.init("uid", uid))
        m.append(.init("verdict", .string(e.decision.allowed ? "allow" : "deny")))
        m.append(.init("message", .string(e.decision.allowed ? "" : x.emulatorMessage)))
        m.append(.init("explanation", .string(x.description)))
        m.append(.init("way", x.way.map(JSONValue.string) ?? .null))
        m.append(.init("failure", x.failure.map(JSONValue.string) ?? .null))
        m.append(.init("statements", .array(statements)))
        m.append(.init("grantedBy", granted))
        return .object(m)
    }

    static func resultText(_ r: StatementOutcome.Result) -> String {
        switch r {
        case .granted: return "true"
        case .denied: return "false"
        case .notBool(let t): return "non-bool \(t)"
        case .error(let e): return "error: \(e.denialText)"
        }
    }
}
