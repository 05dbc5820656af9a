import FirestoreAPI
import FirestoreEngine
import FirestoreModel
import AuthEmulator
import Functions
import GoogleWire
import HTTPServer
import Synchronization

/// The Emulator UI's live feed, `GET /api/events` as Server-Sent Events (WHATWG HTML
/// "Server-sent events"): one `event: NAME` / `data: JSON` pair per event.
///
/// | event | data |
/// |---|---|
/// | `change` | `{commitTime, cleared, truncated, changes: [{path, kind: added\|modified\|removed}]}` per commit of the project (at most `changesPerEvent` paths; `truncated` says more changed) |
/// | `request` | one `RequestJournal` entry |
/// | `invocation` | one `InvocationJournal` entry |
/// | `rules` | `{}`: the rules in force were replaced |
/// | `auth` | `{}`: an Auth operation may have changed the project's accounts (the users table reloads) |
///
/// The hub listens to the engine, the rules journal, the functions host and the Auth service
/// (when Auth runs) only while it runs
/// (`start`/`stop`); those sources just enqueue, and one task formats each event off their
/// locks and writes it to every open stream. A comment line every 15 s keeps idle streams
/// open and finds streams whose peer left. A stream whose peer does not read is ended once
/// `maxQueuedBytes` wait for it (the browser reconnects and reloads); at most `maxStreams`
/// are open at once (503 beyond).
final class UIEventHub: Sendable {
    enum Source: Sendable {
        case commit(CommittedChange)
        case journal(RequestJournal.Event)
        case invocation(InvocationJournal.Entry)
        case accounts(project: String)
    }

    struct Registrations {
        var observer: Int?
        var journal: Int?
        var invocations: Int?
        var pump: Task<Void, Never>?
        var ping: Task<Void, Never>?
        var continuation: AsyncStream<Source>.Continuation?
    }

    /// Paths named in one `change` event at most.
    static let changesPerEvent = 500
    /// Open event streams at most.
    static let maxStreams = 64
    /// Bytes queued for a peer that does not read before its stream is ended.
    static let maxQueuedBytes = 4 << 20
    let project: String
    let engine: FirestoreEngine
    let journal: RequestJournal
    let host: FunctionsHost
    let auth: AuthService?
    private let streams = Mutex<(next: Int, open: [Int: HTTPBodyStream])>((0, [:]))
    private let registrations = Mutex(Registrations())

    init(project: String, engine: FirestoreEngine, journal: RequestJournal, host: FunctionsHost, auth: AuthService?) {
        self.project = project
        self.engine = engine
        self.journal = journal
        self.host = host
        self.auth = auth
    }

    /// Whether any browser is listening (sources skip work otherwise).
    var isListened: Bool { streams.withLock { !$0.open.isEmpty } }

    /// Subscribes to the sources and starts the formatting task.
    func start() {
        let (stream, continuation) = AsyncStream<Source>.makeStream(bufferingPolicy: .bufferingNewest(10_000))
        let project = self.project
        let observer = engine.addObserver { [weak self] change in
            guard change.database.project == project, self?.isListened == true else { return }
            continuation.yield(.commit(change))
        }
        let journalToken = journal.subscribe { [weak self] event in
            guard self?.isListened == true else { return }
            continuation.yield(.journal(event))
        }
        let invocationToken = host.invocations.subscribe { [weak self] entry in
            guard self?.isListened == true else { return }
            continuation.yield(.invocation(entry))
        }
        auth?.observeAccounts { [weak self] changed in
            guard changed == project, self?.isListened == true else { return }
            continuation.yield(.accounts(project: changed))
        }
        // Unstructured on purpose: both tasks live as long as the UI server; `stop()` ends them.
        let pump = Task { [weak self] in
            for await source in stream {
                guard let self else { return }
                self.broadcast(Self.format(source, project: project))
            }
        }
        let ping = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(15))
                self?.broadcast(Array(": ping\n\n".utf8))
            }
        }
        registrations.withLock {
            $0 = Registrations(
                observer: observer, journal: journalToken, invocations: invocationToken, pump: pump, ping: ping,
                continuation: continuation)
        }
    }

    /// Unsubscribes, stops the tasks and ends every open stream.
    func stop() {
        let r = registrations.withLock { r -> Registrations in
            let old = r
            r = Registrations()
            return old
        }
        if let id = r.observer { engine.removeObserver(id) }
        if let id = r.journal { journal.unsubscribe(id) }
        if let id = r.invocations { host.invocations.unsubscribe(id) }
        auth?.observeAccounts(nil)
        r.continuation?.finish()
        r.pump?.cancel()
        r.ping?.cancel()
        let open = streams.withLock { s -> [HTTPBodyStream] in
            let list = Array(s.open.values)
            s.open = [:]
            return list
        }
        for s in open { s.finish() }
    }

    /// A new event stream response; it stays open until the browser leaves or the hub stops.
    func open() -> HTTPResponse {
        let body = HTTPBodyStream()
        let id = streams.withLock { s -> Int? in
            guard s.open.count < Self.maxStreams else { return nil }
            s.next += 1
            s.open[s.next] = body
            return s.next
        }
        guard let id else {
            return EmulatorUIHandler.error(503, "Too many open event streams (at most \(Self.maxStreams)).")
        }
        body.onCancel { [weak self] in _ = self?.streams.withLock { $0.open.removeValue(forKey: id) } }
        return HTTPResponse(
            status: 200,
            headers: ["content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache"],
            body: Array("retry: 2000\n: hearth events\n\n".utf8), bodyStream: body)
    }

    func broadcast(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        let open = streams.withLock { Array($0.open) }
        for (id, s) in open where !s.write(bytes) || s.queuedByteCount > Self.maxQueuedBytes {
            s.finish()
            _ = streams.withLock { $0.open.removeValue(forKey: id) }
        }
    }

    /// One event's `event:`/`data:` lines.
    static func format(_ source: Source, project: String) -> [UInt8] {
        let name: String
        let data: JSONValue
        switch source {
        case .commit(let change):
            name = "change"
            var list: [JSONValue] = []
            for c in change.changes.prefix(changesPerEvent) {
                let kind = c.after == nil ? "removed" : (c.before == nil ? "added" : "modified")
                list.append(
                    .object([.init("path", .string(change.database.resourceName(c.path))), .init("kind", .string(kind))]))
            }
            data = .object([
                .init("commitTime", .string(change.commitTime.rfc3339)), .init("cleared", .bool(change.cleared)),
                .init("truncated", .bool(change.changes.count > changesPerEvent)), .init("changes", .array(list)),
            ])
        case .journal(.request(let entry)):
            guard entry.project == project else { return [] }
            name = "request"
            data = RequestJournal.json(entry)
        case .journal(.rulesReplaced):
            name = "rules"
            data = .object([])
        case .invocation(let entry):
            name = "invocation"
            data = InvocationJournal.json(entry)
        case .accounts:
            name = "auth"
            data = .object([])
        }
        return Array("event: \(name)\ndata: ".utf8) + data.serialized() + Array("\n\n".utf8)
    }
}
