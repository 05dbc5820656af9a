import FirestoreEngine
import FirestoreModel
import GoogleWire

/// Delivers committed Firestore changes to the host's document triggers, in commit order.
///
/// Creating it registers an engine observer that only enqueues (the observer runs under the
/// engine's writer lock); `run()` drains the queue, calling every matching trigger in
/// registration order and awaiting each. Delivery is at most once: an error is sent to the
/// host's error sink and not retried. Database clears (and resets to a snapshot) fire no
/// triggers, nor do commits made while the host's `backgroundTriggersEnabled` is off.
public final class TriggerDispatcher: Sendable {
    private let host: FunctionsHost
    private let stream: AsyncStream<CommittedChange>
    private let continuation: AsyncStream<CommittedChange>.Continuation
    private let observerID: Int

    /// Registers the observer; changes committed from now on are queued.
    public init(host: FunctionsHost) {
        self.host = host
        let (stream, continuation) = AsyncStream.makeStream(of: CommittedChange.self, bufferingPolicy: .unbounded)
        self.stream = stream
        self.continuation = continuation
        let database = host.database
        self.observerID = host.engine.addObserver { [host] change in
            guard change.database == database, !change.cleared, host.backgroundTriggersEnabled else { return }
            continuation.yield(change)
        }
    }

    /// Delivers queued changes until `stop()` or until the calling task is cancelled; then
    /// unregisters the observer.
    public func run() async {
        for await change in stream {
            await deliver(change)
        }
        stop()
    }

    /// Unregisters the observer and ends `run()` after the changes already queued.
    public func stop() {
        host.engine.removeObserver(observerID)
        continuation.finish()
    }

    /// Calls each matching trigger for each document of `change`.
    func deliver(_ change: CommittedChange) async {
        let triggers = host.functions.triggers
        guard !triggers.isEmpty else { return }
        for d in change.changes {
            for t in triggers where t.eventType.matches(before: d.before, after: d.after) {
                guard let params = t.pattern.match(d.path) else { continue }
                let event = DocumentEvent(
                    database: change.database, path: d.path, params: params, before: d.before, after: d.after,
                    commitTime: change.commitTime)
                let arguments: JSONValue = .object([
                    "document": .string(change.database.resourceName(d.path)), "eventType": .string("\(t.eventType)"),
                ])
                let host = self.host
                // Journaled like a callable; a failure goes to the error sink, nobody else sees it.
                _ = try? await host.journaled(t.name, .trigger, uid: nil, arguments: arguments) {
                    () async throws(CallableError) -> CallableValue in
                    do {
                        try await t.handler(event)
                        return .null
                    } catch {
                        host.errorSink(t.name, error)
                        throw CallableError.from(error)
                    }
                }
            }
        }
    }
}

extension FunctionsHost {
    /// A dispatcher for this host's triggers; call `run()` on it from a task that lives as
    /// long as the server.
    public func makeTriggerDispatcher() -> TriggerDispatcher { TriggerDispatcher(host: self) }
}
