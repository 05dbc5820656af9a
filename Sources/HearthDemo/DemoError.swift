/// Why `hearth demo` stopped early: a step of the script got an answer the app would not
/// expect (a refused heartbeat, a failed sign-in, an unreachable port). The message names the
/// step and quotes the answer.
public struct DemoError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, for the console.
    public let description: String

    /// Creates an error with `description`.
    public init(_ description: String) { self.description = description }
}
