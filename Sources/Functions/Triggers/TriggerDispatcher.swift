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
/// Backlog and latency (commit to delivery) are kept in the host's `triggerStats`.
public final class TriggerDispatcher: Sendable {
    /// One hop of a chain: a trigger that ran on a document.
    struct Hop: Hashable, Sendable {
        var trigger: String
        var path: ResourcePath
    }

    struct Queued: Sendable {
        var change: CommittedChange
        var chain: [Hop]
        var enqueued: ContinuousClock.Instant
    }

    /// The chain of the trigger running in this task (empty outside triggers).
    @TaskLocal static var chain: [Hop] = []
    /// Runs of one trigger on one document allowed in one chain.
    static let maxRepeats = 3
    /// Hops allowed in one chain.
    static let maxDepth = 32

    private let host: FunctionsHost
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
        self.observerID = host.engine.addObserver { [host] change in
            guard change.database == database, !change.cleared, host.backgroundTriggersEnabled,
                !host.functions.triggers.isEmpty
            else { return }
            host.triggerStatistics.withLock { $0.enqueued += 1 }
            continuation.yield(Queued(change: change, chain: TriggerDispatcher.chain, enqueued: .now))
        }
    }

    /// Delivers queued changes until `stop()` or until the calling task is cancelled; then
    /// unregisters the observer.
    public func run() async {
        for await queued in stream {
            await deliver(queued)
            host.triggerStatistics.withLock { $0.finished += 1 }
        }
        stop()
    }

    /// Unregisters the observer and ends `run()` after the changes already queued.
    public func stop() {
        host.engine.removeObserver(observerID)
        continuation.finish()
    }

    /// Calls each matching trigger for each document of the change.
    func deliver(_ queued: Queued) async {
        let change = queued.change
        let triggers = host.functions.triggers
        guard !triggers.isEmpty else { return }
        let latency = ContinuousClock.now - queued.enqueued
        host.triggerStatistics.withLock { $0.record(latency: latency) }
        for (index, d) in change.changes.enumerated() {
            for t in triggers where t.eventType.matches(before: d.before, after: d.after) {
                guard let params = t.pattern.match(d.path) else { continue }
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
                event.id = "\(change.commitTime.microseconds)-\(index)"
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
