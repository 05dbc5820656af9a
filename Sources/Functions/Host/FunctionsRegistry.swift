/// Every function an app registered: callables by region and name, scheduled functions and
/// document triggers by name. A value; `FunctionsHost` owns one behind a lock.
public struct FunctionsRegistry: Sendable {
    /// Callables keyed by `{region}-{name}`.
    public private(set) var callables: [String: CallableFunction] = [:]
    /// Scheduled functions keyed by name.
    public private(set) var scheduled: [String: ScheduledFunction] = [:]
    /// Document triggers in registration order (delivery order for one change).
    public private(set) var triggers: [DocumentTrigger] = []

    /// An empty registry.
    public init() {}

    /// Adds a callable.
    /// - Precondition: no callable with the same region and name is registered (a
    ///   programmer error in the app's registration code).
    public mutating func register(_ function: CallableFunction) {
        precondition(callables[function.qualifiedName] == nil, "callable \(function.qualifiedName) registered twice")
        callables[function.qualifiedName] = function
    }

    /// Adds a scheduled function.
    /// - Precondition: the name is not taken.
    public mutating func register(_ function: ScheduledFunction) {
        precondition(scheduled[function.name] == nil, "scheduled function \(function.name) registered twice")
        scheduled[function.name] = function
    }

    /// Adds a document trigger.
    /// - Precondition: the name is not taken by another trigger.
    public mutating func register(_ trigger: DocumentTrigger) {
        precondition(!triggers.contains { $0.name == trigger.name }, "trigger \(trigger.name) registered twice")
        triggers.append(trigger)
    }

    /// The callable `name` in `region`, if registered.
    public func callable(named name: String, region: String) -> CallableFunction? {
        callables["\(region)-\(name)"]
    }

    /// `{region}-{name}` of every callable, sorted.
    public var callableQualifiedNames: [String] { callables.keys.sorted() }
}
