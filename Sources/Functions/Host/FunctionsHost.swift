import FirestoreEngine
import FirestoreModel
import FoundationEssentials
import Glibc
import GoogleWire
import Synchronization

/// The in-process Cloud Functions runtime for one project: the registry of callables,
/// scheduled functions and document triggers, plus the services functions use — the Admin
/// client (`admin`), Messaging (`messaging`, recording into `outbox`) and the clock.
///
/// Apps register at start-up (`onCall`, `onSchedule`, `onDocument`); the composition root
/// serves `FunctionsPortHandler(host:)` and runs `run(clock:)` for schedules and triggers.
/// Nothing here knows any app. Source: docs/ARCHITECTURE.md rule 7.
public final class FunctionsHost: Sendable {
    /// The region used when none is given: `us-central1` (docs/reference/firestore-wire.md §3.1).
    public static let defaultRegion = "us-central1"

    /// The project id served (single-project mode: other projects get 404).
    public let project: String
    /// The Firestore database functions read and write.
    public let database: DatabaseID
    /// The engine behind `admin`.
    public let engine: FirestoreEngine
    /// The Admin client (bypasses security rules).
    public let admin: AdminClient
    /// Push notifications.
    public let messaging: Messaging
    /// Every accepted push.
    public var outbox: FCMOutbox { messaging.outbox }
    /// The wall clock functions read "now" from; inject the engine's clock in tests so
    /// server timestamps and "now" agree.
    public let clock: @Sendable () -> Timestamp

    /// Where errors nobody else sees go (failed scheduled runs and triggers, best-effort work
    /// inside functions such as pushes). Functions may call it themselves.
    public let errorSink: @Sendable (_ function: String, _ error: any Error) -> Void

    /// The latest invocations (callables, scheduled runs, triggers), for the Emulator UI.
    public let invocations = InvocationJournal()

    /// The registered functions; written at start-up, read per call.
    let registry = Mutex(FunctionsRegistry())
    private let triggersEnabled = Mutex(true)
    /// What trigger delivery has done (`triggerStats`).
    let triggerStatistics = Mutex(TriggerStatistics())

    /// Whether document triggers fire for commits made now (the hub's
    /// `PUT /functions/disableBackgroundTriggers` / `enableBackgroundTriggers` set it, as
    /// firebase-tools' hub does). Commits made while off never fire, not even once turned back on.
    public var backgroundTriggersEnabled: Bool { triggersEnabled.withLock { $0 } }

    /// Turns document triggers on or off for later commits.
    public func setBackgroundTriggers(enabled: Bool) { triggersEnabled.withLock { $0 = enabled } }

    /// Creates a host.
    /// - Parameters:
    ///   - project: the project id, e.g. `demo-shouts`.
    ///   - engine: the Firestore engine.
    ///   - databaseID: the database id, `(default)` unless named.
    ///   - outbox: where pushes are recorded.
    ///   - clock: the wall clock.
    ///   - errorSink: receives errors of scheduled runs and triggers (nobody else sees them);
    ///     prints to standard error by default.
    public init(
        project: String, engine: FirestoreEngine, databaseID: String = "(default)", outbox: FCMOutbox = FCMOutbox(),
        clock: @escaping @Sendable () -> Timestamp = FirestoreEngine.systemClock,
        errorSink: @escaping @Sendable (_ function: String, _ error: any Error) -> Void =
            FunctionsHost.logToStandardError
    ) {
        self.project = project
        self.database = DatabaseID(project: project, database: databaseID)
        self.engine = engine
        self.admin = AdminClient(engine: engine, database: database)
        self.messaging = Messaging(project: project, outbox: outbox, clock: clock)
        self.clock = clock
        self.errorSink = errorSink
    }

    /// Writes `function: error` to standard error.
    public static let logToStandardError: @Sendable (String, any Error) -> Void = { function, error in
        printLine("functions: \(function) failed: \(error)")
    }

    /// Writes `line` and a newline to standard error (the functions' own log lines, errors).
    static func printLine(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
    }

    // MARK: Registration

    /// Registers a callable served at `/{project}/{region}/{name}`.
    /// - Precondition: not registered before in that region.
    public func onCall(
        _ name: String, region: String = FunctionsHost.defaultRegion, _ handler: @escaping CallableHandler
    ) {
        registry.withLock { $0.register(CallableFunction(name: name, region: region, handler: handler)) }
    }

    /// Registers a scheduled function.
    /// - Precondition: the name is not taken.
    public func onSchedule(_ name: String, schedule: Schedule, _ handler: @escaping ScheduledHandler) {
        registry.withLock { $0.register(ScheduledFunction(name: name, schedule: schedule, handler: handler)) }
    }

    /// Registers a document trigger on `pattern` (e.g. `pendingPoems/{poemId}`).
    /// - Throws: `.invalidArgument` for a malformed pattern.
    /// - Precondition: the name is not taken by another trigger.
    public func onDocument(
        _ pattern: String, _ eventType: DocumentEventType, name: String, retry: TriggerRetryPolicy = .never,
        _ handler: @escaping DocumentTriggerHandler
    ) throws(FirestoreError) {
        let parsed = try DocumentPattern(pattern)
        let trigger = DocumentTrigger(name: name, pattern: parsed, eventType: eventType, retry: retry, handler: handler)
        registry.withLock { $0.register(trigger) }
    }

    /// `onDocumentCreated` of Cloud Functions (2nd gen): `handler` gets each document created
    /// under `pattern` (e.g. `poems/{poemId}/comments/{commentId}`). - Throws: as `onDocument`.
    public func onDocumentCreated(
        _ pattern: String, name: String, retry: TriggerRetryPolicy = .never, _ handler: @escaping DocumentTriggerHandler
    ) throws(FirestoreError) {
        try onDocument(pattern, .created, name: name, retry: retry, handler)
    }

    /// `onDocumentUpdated`: each change of an existing document's fields. - Throws: as `onDocument`.
    public func onDocumentUpdated(
        _ pattern: String, name: String, retry: TriggerRetryPolicy = .never, _ handler: @escaping DocumentTriggerHandler
    ) throws(FirestoreError) {
        try onDocument(pattern, .updated, name: name, retry: retry, handler)
    }

    /// `onDocumentDeleted`: each deletion. - Throws: as `onDocument`.
    public func onDocumentDeleted(
        _ pattern: String, name: String, retry: TriggerRetryPolicy = .never, _ handler: @escaping DocumentTriggerHandler
    ) throws(FirestoreError) {
        try onDocument(pattern, .deleted, name: name, retry: retry, handler)
    }

    /// `onDocumentWritten`: any of the three. - Throws: as `onDocument`.
    public func onDocumentWritten(
        _ pattern: String, name: String, retry: TriggerRetryPolicy = .never, _ handler: @escaping DocumentTriggerHandler
    ) throws(FirestoreError) {
        try onDocument(pattern, .written, name: name, retry: retry, handler)
    }

    /// A copy of everything registered.
    public var functions: FunctionsRegistry { registry.withLock { $0 } }

    /// The document triggers alone, in registration order (what every commit asks: cheaper
    /// than copying the whole registry).
    public var documentTriggers: [DocumentTrigger] { registry.withLock { $0.triggers } }

    // MARK: Invocation

    /// Runs the callable `name` in `region` in-process (no HTTP).
    /// - Throws: `NOT_FOUND` when no such callable is registered; whatever the handler throws.
    public func call(_ name: String, region: String = FunctionsHost.defaultRegion, request: CallableRequest)
        async throws(CallableError) -> CallableValue
    {
        guard let function = functions.callable(named: name, region: region) else {
            throw .notFound("Function \(region)-\(name) does not exist.")
        }
        return try await journaled(name, .callable, uid: request.context.auth?.uid, arguments: request.data.journalJSON) {
            () async throws(CallableError) -> CallableValue in
            try await function.handler(request)
        }
    }

    /// Runs `body` and records it in `invocations` (start time, duration, result or error).
    func journaled(
        _ name: String, _ kind: InvocationJournal.Kind, uid: String?, arguments: JSONValue,
        _ body: () async throws(CallableError) -> CallableValue
    ) async throws(CallableError) -> CallableValue {
        let time = clock()
        let start = ContinuousClock.now
        let log = InvocationLog(function: name, sink: Self.printLine)
        let outcome = await FunctionsLogger.$current.withValue(log) { () async -> Result<CallableValue, CallableError> in
            do throws(CallableError) {
                return .success(try await body())
            } catch {
                return .failure(error)
            }
        }
        invocations.record(
            name: name, kind: kind, time: time, duration: ContinuousClock.now - start, uid: uid, arguments: arguments,
            outcome: outcome.map(\.journalJSON), logs: log.all)
        return try outcome.get()
    }

    /// Runs the scheduled function `name` now.
    /// - Returns: the handler's result.
    /// - Throws: `NOT_FOUND` when no such function is registered; the handler's error as a
    ///   `CallableError` (other errors become INTERNAL and are also sent to the error sink).
    public func runScheduled(_ name: String) async throws(CallableError) -> CallableValue {
        guard let function = functions.scheduled[name] else {
            throw .notFound("Scheduled function \(name) does not exist.")
        }
        return try await run(function, at: clock())
    }

    /// Runs `function` with `scheduleTime` = `time`, reporting failures to the error sink.
    /// - Throws: the handler's error as a `CallableError` (others become INTERNAL).
    func run(_ function: ScheduledFunction, at time: Timestamp) async throws(CallableError) -> CallableValue {
        let errorSink = self.errorSink
        return try await journaled(
            function.name, .scheduled, uid: nil, arguments: .object(["scheduleTime": .string(time.rfc3339)])
        ) { () async throws(CallableError) -> CallableValue in
            do {
                return try await function.handler(ScheduledEvent(jobName: function.name, scheduleTime: time))
            } catch {
                errorSink(function.name, error)
                throw CallableError.from(error)
            }
        }
    }

    /// Runs the scheduler and trigger delivery until the calling task is cancelled.
    /// - Parameter clock: the clock schedules sleep on (`ContinuousClock()` in production).
    public func run<C: Clock>(clock: C) async where C.Duration == Duration {
        let dispatcher = makeTriggerDispatcher()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await dispatcher.run() }
            group.addTask { await self.runScheduler(clock: clock) }
        }
    }
}
