import FirestoreEngine
import FirestoreModel
import GoogleWire
import Synchronization

/// Delivers committed Firestore changes to the host's document triggers, in commit order.
///
/// Creating it registers an engine observer that only enqueues (the observer runs under the
/// engine's writer lock, so writers never wait for a function); `run()` drains the queue,
/// calling every matching trigger in registration order and awaiting each, so the events of
/// one document arrive in commit order. A failure goes to the host's error sink and is retried
/// as the trigger's `TriggerRetryPolicy` says (each attempt journaled). Database clears and
/// resets to a snapshot fire no triggers, nor do commits made while the host's
/// `backgroundTriggersEnabled` is off.
///
/// Writes a function makes fire triggers too. The chain of (trigger, document) that led to a
/// write travels with it, and an event that would run a trigger on a document for the
/// `maxRepeats + 1`-th time in one chain (or past `maxDepth` hops) is not delivered: the log
/// names the cycle (`trigger loop stopped: a on poems/p1 → b on counts/p1 → a on poems/p1 …`),
/// where production would loop until stopped.
///
/// Delivery is at least once and survives `kill -9`: each commit that owes a trigger an event
/// stores that event, in the same store transaction, as a document of the reserved database
/// `(hearth-triggers)` (`FirestoreEngine.setCommitOutbox`), and the event is removed only after
/// every matching trigger ran on it. `run()` first delivers the events a previous process left,
/// in commit order, then the live ones; a trigger may so see an event twice after a crash
/// (`DocumentEvent.id` is the same), never not at all.
///
/// Backlog and latency (commit to delivery) are kept in the host's `triggerStats`.
public final class TriggerDispatcher: Sendable {
    /// The reserved database of the pending events.
    public static let outboxDatabase = "(hearth-triggers)"
    /// Their collection.
    static let eventsCollection = "events"

    /// One hop of a chain: a trigger that ran on a document.
    struct Hop: Hashable, Sendable {
        var trigger: String
        var path: ResourcePath
    }

    struct Queued: Sendable {
        var change: CommittedChange
        var chain: [Hop]
        var enqueued: ContinuousClock.Instant
        /// The change's index in its commit of `change.changes[0]` (a replayed event holds one).
        var firstIndex = 0
    }

    /// The chain of the trigger running in this task (empty outside triggers).
    @TaskLocal static var chain: [Hop] = []
    /// Runs of one trigger on one document allowed in one chain.
    static let maxRepeats = 3
    /// Hops allowed in one chain.
    static let maxDepth = 32

    private let host: FunctionsHost
    private let outboxDB: DatabaseID
    /// Delivered events whose outbox documents are not yet removed; ids replayed at start.
    private let done = Mutex<(pending: [ResourcePath], replayed: Set<String>)>(([], []))
    private let stream: AsyncStream<Queued>
    private let continuation: AsyncStream<Queued>.Continuation
    private let observerID: Int

    /// Registers the observer; changes committed from now on are queued.
    public init(host: FunctionsHost) {
        self.host = host
        let (stream, continuation) = AsyncStream.makeStream(of: Queued.self, bufferingPolicy: .unbounded)
        self.stream = stream
        self.continuation = continuation
        let database = host.database
        let outboxDB = DatabaseID(project: host.project, database: Self.outboxDatabase)
        self.outboxDB = outboxDB
        host.engine.setCommitOutbox { [host] change in
            guard change.database == database, host.backgroundTriggersEnabled else { return nil }
            let triggers = host.documentTriggers
            guard !triggers.isEmpty else { return nil }
            var puts: [Document] = []
            for (i, d) in change.changes.enumerated() where Self.anyFires(triggers, d) {
                puts.append(Self.outboxDocument(change, index: i, chain: TriggerDispatcher.chain))
            }
            return puts.isEmpty ? nil : (outboxDB, puts)
        }
        self.observerID = host.engine.addObserver { [host] change in
            guard change.database == database, !change.cleared, host.backgroundTriggersEnabled,
                !host.documentTriggers.isEmpty
            else { return }
            let backlog = host.triggerStatistics.withLock { s -> Int in
                s.enqueued += 1
                return s.backlog
            }
            if backlog == 1000 || backlog == 10_000 || backlog == 100_000 {
                FunctionsHost.printLine("functions: trigger delivery is \(backlog) commits behind (GET /functions/triggers on the hub)")
            }
            continuation.yield(Queued(change: change, chain: TriggerDispatcher.chain, enqueued: .now))
        }
    }

    /// Delivers queued changes until `stop()` or until the calling task is cancelled; then
    /// unregisters the observer.
    public func run() async {
        await replayOutbox()
        for await queued in stream {
            let ids = matchingEventIDs(queued)
            let replayed = done.withLock { d in ids.allSatisfy { d.replayed.contains($0) } }
            if !replayed { await deliver(queued) }
            host.triggerStatistics.withLock { $0.finished += 1 }
            markDone(ids, flush: host.triggerStats.backlog == 0)
        }
        flushDone()
        stop()
    }

    /// Unregisters the observer and the outbox and ends `run()` after the changes already queued.
    public func stop() {
        host.engine.removeObserver(observerID)
        host.engine.setCommitOutbox(nil)
        continuation.finish()
    }

    /// Delivers the events a previous process stored and did not finish, in commit order.
    func replayOutbox() async {
        let pending: [Document]
        do throws(FirestoreError) {
            pending = try host.engine.allDocuments(in: outboxDB)
        } catch {
            host.errorSink("triggers", error)
            return
        }
        guard !pending.isEmpty else { return }
        FunctionsHost.printLine("functions: delivering \(pending.count) trigger event(s) left by the previous run")
        for doc in pending.sorted(by: { $0.path < $1.path }) {
            guard let (queued, id) = Self.queued(fromOutbox: doc, database: host.database) else {
                host.errorSink("triggers", TriggerLoop(description: "unreadable outbox event \(doc.path.relativeString) dropped"))
                markDone([doc.path.lastSegment], flush: false)
                continue
            }
            done.withLock { _ = $0.replayed.insert(id) }
            host.triggerStatistics.withLock { $0.enqueued += 1 }
            await deliver(queued)
            host.triggerStatistics.withLock { $0.finished += 1 }
            markDone([id], flush: false)
        }
        flushDone()
    }

    /// The ids of the events of `queued` that some trigger matches (those the outbox holds).
    func matchingEventIDs(_ queued: Queued) -> [String] {
        let triggers = host.documentTriggers
        return queued.change.changes.enumerated().compactMap { i, d in
            Self.anyFires(triggers, d) ? Self.eventID(queued.change.commitTime, i + queued.firstIndex) : nil
        }
    }

    /// True when some trigger of `triggers` fires on `d` (what the outbox stores an event for).
    static func anyFires(_ triggers: [DocumentTrigger], _ d: DocumentChange) -> Bool {
        triggers.contains { $0.fires(on: d.path, before: d.before, after: d.after) != nil }
    }

    /// Records delivered event ids; removes their outbox documents when `flush` or 100 wait.
    func markDone(_ ids: [String], flush: Bool) {
        let count = done.withLock { d -> Int in
            d.pending += ids.map { ResourcePath([Self.eventsCollection, $0]) }
            return d.pending.count
        }
        if (flush && count > 0) || count >= 100 { flushDone() }
    }

    /// Removes the outbox documents of the delivered events.
    func flushDone() {
        let paths = done.withLock { d -> [ResourcePath] in
            defer { d.pending = [] }
            return d.pending
        }
        guard !paths.isEmpty else { return }
        do throws(FirestoreError) {
            try host.engine.deleteUnobserved(paths, in: outboxDB)
        } catch {
            host.errorSink("triggers", error)
        }
    }

    /// `<commit µs, 20 digits>-<index, 6 digits>`: outbox ids sort in commit order.
    static func eventID(_ commitTime: Timestamp, _ index: Int) -> String {
        let t = String(commitTime.microseconds)
        let i = String(index)
        return String(repeating: "0", count: max(0, 20 - t.count)) + t + "-" + String(repeating: "0", count: max(0, 6 - i.count)) + i
    }

    /// The outbox document of change `index` of `change`.
    static func outboxDocument(_ change: CommittedChange, index: Int, chain: [Hop]) -> Document {
        let d = change.changes[index]
        func side(_ doc: Document?) -> Value {
            guard let doc else { return .null }
            return .map([
                "fields": .map(doc.fields), "createTime": .timestamp(doc.createTime), "updateTime": .timestamp(doc.updateTime),
            ])
        }
        let fields: FieldMap = [
            "path": .array(d.path.segments.map { .string($0) }), "before": side(d.before), "after": side(d.after),
            "chain": .array(chain.map { .map(["trigger": .string($0.trigger), "path": .array($0.path.segments.map { .string($0) })]) }),
        ]
        return Document(
            path: ResourcePath([eventsCollection, eventID(change.commitTime, index)]), fields: fields,
            createTime: change.commitTime, updateTime: change.commitTime)
    }

    /// The queued change and event id an outbox document stands for; nil when it is not one.
    static func queued(fromOutbox doc: Document, database: DatabaseID) -> (Queued, String)? {
        let id = doc.path.lastSegment
        let parts = id.split(separator: "-")
        guard parts.count == 2, let micros = Int64(parts[0]), let index = Int(parts[1]),
            case .array(let segments)? = doc.fields["path"]
        else { return nil }
        let path = ResourcePath(segments.compactMap { if case .string(let s) = $0 { s } else { nil } })
        guard path.isDocument else { return nil }
        func side(_ v: Value?) -> Document? {
            guard case .map(let m)? = v, case .map(let fields)? = m["fields"], case .timestamp(let c)? = m["createTime"],
                case .timestamp(let u)? = m["updateTime"]
            else { return nil }
            return Document(path: path, fields: fields, createTime: c, updateTime: u)
        }
        var chain: [Hop] = []
        if case .array(let hops)? = doc.fields["chain"] {
            for h in hops {
                guard case .map(let m) = h, case .string(let trigger)? = m["trigger"], case .array(let p)? = m["path"] else { continue }
                chain.append(Hop(trigger: trigger, path: ResourcePath(p.compactMap { if case .string(let s) = $0 { s } else { nil } })))
            }
        }
        let change = CommittedChange(
            database: database, commitTime: Timestamp(microseconds: micros),
            changes: [DocumentChange(path: path, before: side(doc.fields["before"]), after: side(doc.fields["after"]))])
        return (Queued(change: change, chain: chain, enqueued: .now, firstIndex: index), id)
    }

    /// Calls each matching trigger for each document of the change.
    func deliver(_ queued: Queued) async {
        let change = queued.change
        let triggers = host.documentTriggers
        guard !triggers.isEmpty else { return }
        let latency = ContinuousClock.now - queued.enqueued
        host.triggerStatistics.withLock { $0.record(latency: latency) }
        for (index, d) in change.changes.enumerated() {
            for t in triggers {
                guard let params = t.fires(on: d.path, before: d.before, after: d.after) else { continue }
                let hop = Hop(trigger: t.name, path: d.path)
                let chain = queued.chain + [hop]
                if chain.count > Self.maxDepth || chain.filter({ $0 == hop }).count > Self.maxRepeats {
                    host.triggerStatistics.withLock { $0.loopsStopped += 1 }
                    let names = chain.suffix(8).map { "\($0.trigger) on \($0.path.relativeString)" }.joined(separator: " → ")
                    host.errorSink(t.name, TriggerLoop(description: "trigger loop stopped: \(names) …"))
                    continue
                }
                var event = DocumentEvent(
                    database: change.database, path: d.path, params: params, before: d.before, after: d.after,
                    commitTime: change.commitTime)
                event.id = Self.eventID(change.commitTime, index + queued.firstIndex)
                await Self.$chain.withValue(chain) { await attempt(t, event) }
            }
        }
    }

    /// Runs `t` on `event`, again after a failure while its retry policy allows.
    func attempt(_ t: DocumentTrigger, _ first: DocumentEvent) async {
        var event = first
        while true {
            let arguments: JSONValue = .object([
                "document": .string(event.database.resourceName(event.path)), "eventType": .string("\(t.eventType)"),
                "eventId": .string(event.id), "attempt": .integer(event.attempt),
            ])
            let host = self.host
            let handlerEvent = event
            // Journaled like a callable; a failure goes to the error sink, nobody else sees it.
            let failed: Bool
            do throws(CallableError) {
                _ = try await host.journaled(t.name, .trigger, uid: nil, arguments: arguments) {
                    () async throws(CallableError) -> CallableValue in
                    do {
                        try await t.handler(handlerEvent)
                        return .null
                    } catch {
                        host.errorSink(t.name, error)
                        throw CallableError.from(error)
                    }
                }
                failed = false
            } catch {
                failed = true
            }
            host.triggerStatistics.withLock { failed ? ($0.failed += 1) : ($0.delivered += 1) }
            guard failed, let wait = t.retry.wait(after: event.attempt) else { return }
            host.triggerStatistics.withLock { $0.retried += 1 }
            try? await Task.sleep(for: wait)
            event.attempt += 1
        }
    }
}

/// A chain of triggers that kept firing one another (logged through the error sink).
struct TriggerLoop: Error, CustomStringConvertible {
    var description: String
}

/// What trigger delivery has done since start (the hub's `GET /functions/triggers`).
public struct TriggerStatistics: Sendable, Equatable {
    /// Commits queued for delivery.
    public var enqueued = 0
    /// Commits whose delivery finished.
    public var finished = 0
    /// Trigger invocations that succeeded, and that failed (each attempt counts).
    public var delivered = 0
    /// Failed attempts (each attempt counts).
    public var failed = 0
    /// Attempts that were retries.
    public var retried = 0
    /// Events not delivered because their chain looped.
    public var loopsStopped = 0
    /// Commit-to-delivery latency of the latest delivery and the largest, in milliseconds.
    public var lastLatencyMs = 0.0
    /// The largest latency seen.
    public var maxLatencyMs = 0.0

    /// Commits queued and not yet delivered.
    public var backlog: Int { enqueued - finished }

    mutating func record(latency: Duration) {
        let ms = Double(latency.components.seconds) * 1000 + Double(latency.components.attoseconds) / 1e15
        lastLatencyMs = ms
        maxLatencyMs = max(maxLatencyMs, ms)
    }

    /// As JSON: `{backlog, enqueued, delivered, failed, retried, loopsStopped, lastLatencyMs, maxLatencyMs}`.
    public var json: JSONValue {
        .object([
            .init("backlog", .integer(backlog)), .init("enqueued", .integer(enqueued)),
            .init("delivered", .integer(delivered)), .init("failed", .integer(failed)), .init("retried", .integer(retried)),
            .init("loopsStopped", .integer(loopsStopped)), .init("lastLatencyMs", .number("\(lastLatencyMs)")),
            .init("maxLatencyMs", .number("\(maxLatencyMs)")),
        ])
    }
}

extension FunctionsHost {
    /// A dispatcher for this host's triggers; call `run()` on it from a task that lives as
    /// long as the server.
    public func makeTriggerDispatcher() -> TriggerDispatcher { TriggerDispatcher(host: self) }

    /// What trigger delivery has done since start.
    public var triggerStats: TriggerStatistics { triggerStatistics.withLock { $0 } }
}
