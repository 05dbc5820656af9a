import FirestoreModel

/// What a scheduled function is told about the run: firebase-functions' `ScheduledEvent`.
public struct ScheduledEvent: Sendable {
    /// The function's name (Cloud Scheduler's job name in production).
    public var jobName: String
    /// When the run was due (or requested, for on-demand runs), from the host's clock.
    public var scheduleTime: Timestamp

    /// Creates an event.
    public init(jobName: String, scheduleTime: Timestamp) {
        self.jobName = jobName
        self.scheduleTime = scheduleTime
    }
}

/// The body of a scheduled function. Its result is only reported by the on-demand run
/// endpoint; errors are logged (a `CallableError` keeps its status there, anything else is
/// INTERNAL).
public typealias ScheduledHandler = @Sendable (ScheduledEvent) async throws -> CallableValue

/// A registered scheduled (`onSchedule`) function.
public struct ScheduledFunction: Sendable {
    /// The function name, e.g. `cleanupPresence`.
    public var name: String
    /// How often it runs.
    public var schedule: Schedule
    /// The implementation.
    public var handler: ScheduledHandler

    /// Creates a definition.
    public init(name: String, schedule: Schedule, handler: @escaping ScheduledHandler) {
        self.name = name
        self.schedule = schedule
        self.handler = handler
    }
}
