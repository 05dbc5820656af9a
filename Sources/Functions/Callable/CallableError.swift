import FirestoreModel

/// An error a callable function reports to its client: firebase-functions' `HttpsError`.
///
/// `code` is the canonical status shared with Firestore; the callable code table (docs/reference/firestore-wire.md
/// §3.4) maps each one to the same HTTP status as `ErrorTable`, and `status` in the error body
/// is the code's upper-snake name. `message` is shown to the client verbatim; `details`, when
/// present, is sent as `error.details`.
public struct CallableError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The canonical status, e.g. `.invalidArgument` (`INVALID_ARGUMENT`, HTTP 400).
    public var code: StatusCode
    /// Text for the client.
    public var message: String
    /// Optional structured details (`error.details`).
    public var details: CallableValue?

    /// Creates an error.
    public init(_ code: StatusCode, _ message: String, details: CallableValue? = nil) {
        self.code = code
        self.message = message
        self.details = details
    }

    /// `INVALID_ARGUMENT` with `message`.
    public static func invalidArgument(_ message: String) -> CallableError { .init(.invalidArgument, message) }
    /// `UNAUTHENTICATED` with `message`.
    public static func unauthenticated(_ message: String) -> CallableError { .init(.unauthenticated, message) }
    /// `RESOURCE_EXHAUSTED` with `message`.
    public static func resourceExhausted(_ message: String) -> CallableError { .init(.resourceExhausted, message) }
    /// `NOT_FOUND` with `message`.
    public static func notFound(_ message: String) -> CallableError { .init(.notFound, message) }

    /// What firebase-functions sends for any error that is not an `HttpsError`:
    /// `INTERNAL` with the message `"INTERNAL"` and nothing else, so server faults never leak.
    /// Source: docs/reference/firestore-wire.md §3.4 ("Uncaught (non-HttpsError) exceptions").
    public static let internalError = CallableError(.internalError, "INTERNAL")

    /// `error` itself when it is a `CallableError`, else `internalError`.
    public static func from(_ error: any Error) -> CallableError {
        (error as? CallableError) ?? internalError
    }

    /// `STATUS: message`.
    public var description: String { "\(code.name): \(message)" }
}
