import FirestoreEngine
import FirestoreModel
import Foundation
import GoogleWire
import HTTPServer

/// Firestore REST v1 over HTTP/1.1: the adapter between `RESTRoute`s with proto3 JSON bodies
/// and the `FirestoreEngine`. Speaks only the domain model inward; every error leaves through
/// `ErrorTable` as `{error:{code,message,status}}`.
///
/// Source: reference §1.2 (method table), §1.3 (per-method details), §1.8 (errors).
public struct FirestoreRESTService: Sendable {
    /// The engine every method runs on.
    public let engine: FirestoreEngine

    /// Creates the service.
    public init(engine: FirestoreEngine) { self.engine = engine }

    /// Answers one request whose path starts with `/v1/` or `/v1beta1/`.
    ///
    /// A body over 10 MiB is refused before it is parsed (`DocumentLimits.checkRequestSize`,
    /// 400 INVALID_ARGUMENT), as production refuses API requests over its 10 MiB limit.
    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        do throws(FirestoreError) {
            try DocumentLimits.checkRequestSize(request.body.count)
            guard let route = try RESTRoute.parse(request.path, method: request.method) else {
                throw FirestoreError(.notFound, "No Firestore method at \(request.method) \(request.path).")
            }
            let auth = try BearerToken.authContext(fromHeader: request.headers["authorization"])
            let json = try dispatch(route, request, auth: auth)
            return .json(200, json.serialized())
        } catch {
            return Self.errorResponse(error)
        }
    }

    /// The Firestore JSON error response for `error`.
    public static func errorResponse(_ error: FirestoreError) -> HTTPResponse {
        let status = ErrorTable.httpStatus(error.code)
        return .json(status, RESTCodec.encodeError(error, httpStatus: status).serialized())
    }

    func dispatch(_ route: RESTRoute, _ request: HTTPRequest, auth: AuthContext) throws(FirestoreError) -> JSONValue {
        let q = QueryParameters(request.queryItems)
        let db = route.database
        switch (request.method, route.verb) {
        case ("GET", nil) where route.path.isDocument:
            return try getDocument(route, q, auth: auth)
        case ("GET", nil) where route.path.isCollection:
            return try listDocuments(route, q, auth: auth)
        case ("POST", nil) where route.path.isCollection:
            return try createDocument(route, q, body: try body(request), auth: auth)
        case ("PATCH", nil) where route.path.isDocument:
            return try updateDocument(route, q, body: try body(request), auth: auth)
        case ("DELETE", nil) where route.path.isDocument:
            return try deleteDocument(route, q, auth: auth)
        case ("POST", "batchGet") where route.path.segments.isEmpty:
            return try batchGet(db, try body(request), auth: auth)
        case ("POST", "beginTransaction") where route.path.segments.isEmpty:
            return try beginTransaction(db, try body(request))
        case ("POST", "commit") where route.path.segments.isEmpty:
            return try commit(db, try body(request), auth: auth)
        case ("POST", "rollback") where route.path.segments.isEmpty:
            return try rollback(db, try body(request))
        case ("POST", "batchWrite") where route.path.segments.isEmpty:
            return try batchWrite(db, try body(request), auth: auth)
        case ("POST", "runQuery") where route.path.segments.isEmpty || route.path.isDocument:
            return try runQuery(route, try body(request), auth: auth)
        case ("POST", "runAggregationQuery") where route.path.segments.isEmpty || route.path.isDocument:
            return try runAggregationQuery(route, try body(request), auth: auth)
        case ("POST", "partitionQuery") where route.path.segments.isEmpty || route.path.isDocument:
            return try partitionQuery(route, try body(request))
        case ("POST", "listCollectionIds") where route.path.segments.isEmpty || route.path.isDocument:
            return try listCollectionIDs(route, try body(request), auth: auth)
        case ("POST", nil) where route.path.isDocument:
            // CreateDocument into collection `lastSegment` of `parent`, which is a collection
            // here (e.g. `POST …/c/a:unknownVerb`): INVALID_ARGUMENT, as the emulator answers.
            throw FirestoreError(
                .invalidArgument, "Document parent name \"\(db.resourceName(route.path.parent))\" is not a document.")
        case ("PATCH", nil), ("DELETE", nil):
            throw FirestoreError(
                .invalidArgument, "Document name \"\(db.resourceName(route.path))\" has odd number of segments.")
        case ("POST", "listen"), ("POST", "write"):
            throw FirestoreError(
                .unimplemented, "The \(route.verb ?? "") stream is served over gRPC (HTTP/2) on this port, not REST.")
        case (_, let verb?):
            throw FirestoreError(.notFound, "No Firestore method \(request.method) :\(verb) on \(request.path).")
        default:
            throw FirestoreError(.notFound, "No Firestore method \(request.method) on \(request.path).")
        }
    }

    /// Parses the body as JSON; an empty body is `{}`.
    func body(_ request: HTTPRequest) throws(FirestoreError) -> JSONValue {
        if request.body.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return .object([]) }
        return try JSONValue.parse(request.body)
    }
}

/// Query-string parameters of a REST call (`mask.fieldPaths=a&mask.fieldPaths=b`).
struct QueryParameters {
    let items: [(name: String, value: String)]

    init(_ items: [(name: String, value: String)]) { self.items = items }

    /// Every value of `name`, in order.
    func all(_ name: String) -> [String] { items.filter { $0.name == name }.map(\.value) }
    /// The last value of `name`.
    subscript(_ name: String) -> String? { items.last { $0.name == name }?.value }

    /// A boolean parameter (`true`/`false`/`1`/`0`).
    /// - Throws: `.invalidArgument` for other text.
    func bool(_ name: String) throws(FirestoreError) -> Bool? {
        guard let v = self[name] else { return nil }
        switch v.lowercased() {
        case "true", "1": return true
        case "false", "0": return false
        default: throw .invalidArgument("Invalid value at '\(name)' (TYPE_BOOL), \"\(v)\"")
        }
    }

    /// A field mask given as repeated `name` parameters, or nil when absent.
    func mask(_ name: String) throws(FirestoreError) -> [FieldPath]? {
        let paths = all(name)
        guard !paths.isEmpty else { return nil }
        return try paths.map { (p: String) throws(FirestoreError) -> FieldPath in try RESTCodec.decodeFieldPath(p, at: name) }
    }

    /// The read consistency from `transaction` (base64) or `readTime` (RFC 3339).
    /// - Throws: `.invalidArgument` when both are given (one `consistency_selector` oneof),
    ///   with the text the JSON-body methods answer, or for a malformed value.
    func consistency() throws(FirestoreError) -> ReadConsistency {
        if self["transaction"] != nil && self["readTime"] != nil {
            throw .invalidArgument("Only one of transaction, newTransaction and readTime may be set.")
        }
        if let t = self["transaction"] {
            guard let bytes = Base64.decode(t) else { throw .invalidArgument("Invalid value at 'transaction' (TYPE_BYTES).") }
            return .transaction(bytes)
        }
        if let r = self["readTime"] {
            guard let ts = Timestamp(rfc3339: r) else { throw .invalidArgument("Invalid value at 'read_time' (type.googleapis.com/google.protobuf.Timestamp), \"\(r)\"") }
            return .readTime(ts)
        }
        return .strong
    }

    /// The precondition from `currentDocument.exists` / `currentDocument.updateTime`.
    func precondition() throws(FirestoreError) -> Precondition {
        if let e = try bool("currentDocument.exists") { return .exists(e) }
        if let u = self["currentDocument.updateTime"] {
            guard let ts = Timestamp(rfc3339: u) else { throw .invalidArgument("Invalid value at 'current_document.update_time', \"\(u)\"") }
            return .updateTime(ts)
        }
        return .none
    }
}
