import FirestoreModel

/// The one table that turns a status code into what each wire shows.
///
/// gRPC code → HTTP status per googleapis `google/rpc/code.proto` (docs/reference/firestore-wire.md §1.8); the same
/// entries serve the Firestore JSON body, callable error bodies and gRPC trailers.
public enum ErrorTable {
    /// The HTTP status for `code`.
    public static func httpStatus(_ code: StatusCode) -> Int {
        switch code {
        case .ok: return 200
        case .cancelled: return 499
        case .unknown: return 500
        case .invalidArgument: return 400
        case .deadlineExceeded: return 504
        case .notFound: return 404
        case .alreadyExists: return 409
        case .permissionDenied: return 403
        case .resourceExhausted: return 429
        case .failedPrecondition: return 400
        case .aborted: return 409
        case .outOfRange: return 400
        case .unimplemented: return 501
        case .internalError: return 500
        case .unavailable: return 503
        case .dataLoss: return 500
        case .unauthenticated: return 401
        }
    }

    /// The status code shown for an HTTP error the transport answers itself: 408 → DEADLINE_EXCEEDED,
    /// 501 and 505 → UNIMPLEMENTED, other 4xx → INVALID_ARGUMENT (the client's request was
    /// malformed or over a limit), anything else → INTERNAL.
    public static func code(forTransportStatus status: Int) -> StatusCode {
        switch status {
        case 408: return .deadlineExceeded
        case 501, 505: return .unimplemented
        case 400..<500: return .invalidArgument
        default: return .internalError
        }
    }

    /// The reason phrase for an HTTP status Hearth sends.
    public static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 204: return "No Content"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 409: return "Conflict"
        case 413: return "Payload Too Large"
        case 429: return "Too Many Requests"
        case 431: return "Request Header Fields Too Large"
        case 499: return "Client Closed Request"
        case 500: return "Internal Server Error"
        case 501: return "Not Implemented"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        default: return "Status \(status)"
        }
    }
}
