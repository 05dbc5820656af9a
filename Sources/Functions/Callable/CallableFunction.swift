/// The body of a callable function: takes the decoded request, returns the `result`.
///
/// Throw a `CallableError` to answer with its status; the host never turns one into a 500
/// unless its code says so.
public typealias CallableHandler = @Sendable (CallableRequest) async throws(CallableError) -> CallableValue

/// A registered callable (`onCall`) function.
/// Source: docs/reference/firestore-wire.md §3.1 (emulator URL `/{project}/{region}/{name}`).
public struct CallableFunction: Sendable {
    /// The function name as it appears in the URL, e.g. `sendMessage`.
    public var name: String
    /// The region as it appears in the URL, e.g. `us-central1`.
    public var region: String
    /// The implementation.
    public var handler: CallableHandler

    /// Creates a definition.
    public init(name: String, region: String, handler: @escaping CallableHandler) {
        self.name = name
        self.region = region
        self.handler = handler
    }

    /// `{region}-{name}`, the identifier the emulator prints in its "does not exist" message.
    public var qualifiedName: String { "\(region)-\(name)" }
}
