import GoogleWire

/// An Auth emulator failure, rendered in the Google API error shape the Auth SDKs parse.
///
/// Body: `{"error":{"code":400,"message":"EMAIL_EXISTS","errors":[{"message":"EMAIL_EXISTS",
/// "reason":"invalid","domain":"global"}]}}`, plus `"status"` for every class except
/// `BadRequest`. Messages follow production: `CODE` or `CODE : detail`; the JS SDK splits on
/// `" : "` and maps the code (`EMAIL_EXISTS` → `auth/email-already-in-use`).
/// Source: docs/reference/firestore-wire.md §4.5; firebase-tools `src/emulator/auth/errors.ts` (error classes).
public struct AuthError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The HTTP status, e.g. 400.
    public var code: Int
    /// The canonical status name (`"INVALID_ARGUMENT"`, `"NOT_IMPLEMENTED"`, …); nil for BadRequest.
    public var status: String?
    /// The message, e.g. `"WEAK_PASSWORD : Password should be at least 6 characters"`.
    public var message: String
    /// The `errors[0].reason`, e.g. `"invalid"`.
    public var reason: String

    /// Creates an error.
    public init(code: Int, status: String?, message: String, reason: String) {
        self.code = code
        self.status = status
        self.message = message
        self.reason = reason
    }

    /// 400 without a status: a request the account rules reject (`EMAIL_EXISTS`, `INVALID_PASSWORD`, …).
    public static func badRequest(_ message: String) -> AuthError {
        AuthError(code: 400, status: nil, message: message, reason: "invalid")
    }

    /// 400 `INVALID_ARGUMENT`: a malformed body.
    public static func invalidArgument(_ message: String) -> AuthError {
        AuthError(code: 400, status: "INVALID_ARGUMENT", message: message, reason: "invalid")
    }

    /// 401 `UNAUTHENTICATED`.
    public static func unauthenticated(_ message: String) -> AuthError {
        AuthError(code: 401, status: "UNAUTHENTICATED", message: message, reason: "authError")
    }

    /// 403 `PERMISSION_DENIED`.
    public static func permissionDenied(_ message: String) -> AuthError {
        AuthError(code: 403, status: "PERMISSION_DENIED", message: message, reason: "forbidden")
    }

    /// 404 `NOT_FOUND`.
    public static func notFound(_ message: String = "Not Found") -> AuthError {
        AuthError(code: 404, status: "NOT_FOUND", message: message, reason: "notFound")
    }

    /// 500 `INTERNAL`: Hearth's fault (storage failed).
    public static func internalError(_ message: String) -> AuthError {
        AuthError(code: 500, status: "INTERNAL", message: message, reason: "internal")
    }

    /// 501 `NOT_IMPLEMENTED`: outside the subset Hearth emulates.
    public static func notImplemented(_ message: String) -> AuthError {
        AuthError(code: 501, status: "NOT_IMPLEMENTED", message: message, reason: "unimplemented")
    }

    /// The JSON body `{"error":{…}}`.
    public var json: JSONValue {
        var error: [JSONValue.Member] = [
            .init("code", .integer(code)),
            .init("message", .string(message)),
            .init(
                "errors",
                .array([
                    .object([
                        .init("message", .string(message)), .init("reason", .string(reason)),
                        .init("domain", .string("global")),
                    ])
                ])),
        ]
        if let status { error.append(.init("status", .string(status))) }
        return .object([.init("error", .object(error))])
    }

    /// `code message`, for logs.
    public var description: String { "\(code) \(message)" }
}

/// Throws `AuthError.badRequest(message)` unless `condition` holds — the emulator's `assert`.
/// - Throws: `AuthError` (400) when `condition` is false.
@inline(__always)
func require(_ condition: Bool, _ message: @autoclosure () -> String) throws(AuthError) {
    if !condition { throw .badRequest(message()) }
}
