/// A gRPC canonical status code, the one vocabulary for errors in Hearth.
///
/// Adapters turn it into HTTP statuses, JSON bodies and gRPC trailers through one table
/// (`FirestoreAPI/ErrorTable.swift`). Source: googleapis `google/rpc/code.proto`.
public enum StatusCode: Int, Sendable, CaseIterable {
    case ok = 0, cancelled = 1, unknown = 2, invalidArgument = 3, deadlineExceeded = 4, notFound = 5
    case alreadyExists = 6, permissionDenied = 7, resourceExhausted = 8, failedPrecondition = 9
    case aborted = 10, outOfRange = 11, unimplemented = 12, internalError = 13, unavailable = 14
    case dataLoss = 15, unauthenticated = 16

    /// The upper-snake name used on the wire (`"INVALID_ARGUMENT"`).
    public var name: String {
        switch self {
        case .ok: return "OK"
        case .cancelled: return "CANCELLED"
        case .unknown: return "UNKNOWN"
        case .invalidArgument: return "INVALID_ARGUMENT"
        case .deadlineExceeded: return "DEADLINE_EXCEEDED"
        case .notFound: return "NOT_FOUND"
        case .alreadyExists: return "ALREADY_EXISTS"
        case .permissionDenied: return "PERMISSION_DENIED"
        case .resourceExhausted: return "RESOURCE_EXHAUSTED"
        case .failedPrecondition: return "FAILED_PRECONDITION"
        case .aborted: return "ABORTED"
        case .outOfRange: return "OUT_OF_RANGE"
        case .unimplemented: return "UNIMPLEMENTED"
        case .internalError: return "INTERNAL"
        case .unavailable: return "UNAVAILABLE"
        case .dataLoss: return "DATA_LOSS"
        case .unauthenticated: return "UNAUTHENTICATED"
        }
    }

    /// The code whose `name` is `name`, if any.
    public init?(name: String) {
        guard let c = StatusCode.allCases.first(where: { $0.name == name }) else { return nil }
        self = c
    }
}

/// An error with a Firestore status: what went wrong and whose fault it is.
///
/// Thrown by the model, the store, the engine and the rules; mapped to the wire in one place.
public struct FirestoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The canonical status.
    public var code: StatusCode
    /// Human-readable message, shaped like the emulator's where clients or users read it.
    public var message: String

    /// Creates an error.
    public init(_ code: StatusCode, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.name): \(message)" }

    /// `INVALID_ARGUMENT` with `message`.
    public static func invalidArgument(_ message: String) -> FirestoreError { .init(.invalidArgument, message) }
    /// `NOT_FOUND` with `message`.
    public static func notFound(_ message: String) -> FirestoreError { .init(.notFound, message) }
    /// `FAILED_PRECONDITION` with `message`.
    public static func failedPrecondition(_ message: String) -> FirestoreError { .init(.failedPrecondition, message) }
    /// `PERMISSION_DENIED` with `message`.
    public static func permissionDenied(_ message: String) -> FirestoreError { .init(.permissionDenied, message) }
    /// `ABORTED` with `message`.
    public static func aborted(_ message: String) -> FirestoreError { .init(.aborted, message) }
    /// `INTERNAL` with `message`: a server-side fault, never a client's.
    public static func internalError(_ message: String) -> FirestoreError { .init(.internalError, message) }
}
