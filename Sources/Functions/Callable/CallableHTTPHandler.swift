import FirestoreModel
import GoogleWire
import HTTPServer

/// Serves callable functions over HTTP exactly as the Functions emulator does:
/// `POST /{project}/{region}/{name}` with `{"data": …}` → `{"result": …}`.
///
/// * Routing: the first segment must be the host's project; `{region}/{name}` must name a
///   registered callable, else 404 with the emulator's plain-text message
///   `Function {region}-{name} does not exist, valid functions are: …`. Extra trailing
///   segments are ignored (the emulator routes `/{p}/{region}/{name}/*` to the function).
/// * `OPTIONS`: CORS preflight (`CORSPolicy.functions`), 204, reflecting `Origin` and
///   `Access-Control-Request-Headers`.
/// * Any other method than POST, a `Content-Type` other than `application/json` (parameters
///   such as `; charset=utf-8` allowed), a non-JSON body, a body other than exactly
///   `{"data": …}`: 400 `{"error":{"message":"Bad Request","status":"INVALID_ARGUMENT"}}`
///   (https://firebase.google.com/docs/functions/callable-reference, "Request format").
/// * `Authorization: Bearer <JWT>` is decoded without verification into `CallableAuth`
///   (uid = `sub`, else `user_id`); an undecodable token (or `owner`) is 401 UNAUTHENTICATED
///   "Unauthenticated". No header: `auth` is nil.
/// * Errors: `{"error":{"status","message","details"?}}` with the status of the callable code
///   table (`ErrorTable.httpStatus`). A result that cannot be encoded is 500 INTERNAL.
/// * `Accept: text/event-stream`: the outcome is sent as one server-sent event,
///   `data: {"result": …}` or `data: {"error": …}`, with status 200 (streaming callables).
/// * Every response reflects `Origin` in `Access-Control-Allow-Origin` (with credentials and
///   `Vary: Origin`; `CORSPolicy.functions`).
/// Source: docs/reference/firestore-wire.md §3.1–§3.6.
public struct CallableHTTPHandler: HTTPHandler {
    /// The host whose callables are served.
    public let host: FunctionsHost

    /// Creates the handler.
    public init(host: FunctionsHost) { self.host = host }

    /// Answers one callable request (see the type's documentation); never throws, never traps on peer input.
    public func handle(_ request: HTTPRequest) async -> HTTPResponse {
        var response = await route(request)
        Self.addCORS(to: &response, request: request)
        return response
    }

    private func route(_ request: HTTPRequest) async -> HTTPResponse {
        guard let segments = PathSegments.split(request.path), segments.count >= 3, segments[0] == host.project else {
            return .text(404, "Not Found")
        }
        let region = segments[1]
        let name = segments[2]
        let registry = host.functions
        guard let function = registry.callable(named: name, region: region) else {
            let valid = registry.callableQualifiedNames.joined(separator: ", ")
            return .text(404, "Function \(region)-\(name) does not exist, valid functions are: \(valid)")
        }
        if CORSPolicy.functions.isPreflight(request) { return CORSPolicy.functions.preflight(request) }
        let streaming = request.headers["accept"]?.lowercased().contains("text/event-stream") ?? false
        guard request.method == "POST", CallableWire.isJSONContentType(request.headers["content-type"]) else {
            return Self.errorResponse(.invalidArgument(CallableWire.badRequest))
        }
        let data: CallableValue
        let context: CallableContext
        do throws(CallableError) {
            data = try CallableWire.decodeRequest(body: request.body)
            context = CallableContext(
                auth: try Self.auth(fromHeader: request.headers["authorization"]),
                instanceIDToken: request.headers["firebase-instance-id-token"],
                appCheckToken: request.headers["x-firebase-appcheck"], project: host.project, region: region,
                functionName: name)
        } catch {
            return Self.errorResponse(error)
        }
        let outcome: Result<[UInt8], CallableError>
        do throws(CallableError) {
            let request = CallableRequest(data: data, context: context)
            let result = try await host.journaled(name, .callable, uid: context.auth?.uid, arguments: data.journalJSON) {
                () async throws(CallableError) -> CallableValue in
                try await function.handler(request)
            }
            outcome = .success(try CallableWire.encodeResult(result))
        } catch {
            outcome = .failure(error)
        }
        if streaming { return Self.eventStream(outcome) }
        switch outcome {
        case .success(let body): return .json(200, body)
        case .failure(let error): return Self.errorResponse(error)
        }
    }

    /// The caller's identity from an `Authorization` value.
    /// - Throws: `UNAUTHENTICATED` "Unauthenticated" for anything but a decodable JWT bearer.
    static func auth(fromHeader header: String?) throws(CallableError) -> CallableAuth? {
        let context: AuthContext
        do throws(FirestoreError) {
            context = try BearerToken.authContext(fromHeader: header)
        } catch {
            throw .unauthenticated("Unauthenticated")
        }
        switch context {
        case .unauthenticated: return nil
        case .user(let uid, let token): return CallableAuth(uid: uid, token: token)
        case .admin: throw .unauthenticated("Unauthenticated")
        }
    }

    /// The JSON error response for `error`, with the code table's HTTP status.
    static func errorResponse(_ error: CallableError) -> HTTPResponse {
        .json(ErrorTable.httpStatus(error.code), CallableWire.encodeError(error))
    }

    /// The outcome as one server-sent event, status 200.
    static func eventStream(_ outcome: Result<[UInt8], CallableError>) -> HTTPResponse {
        let payload: [UInt8]
        switch outcome {
        case .success(let body): payload = body
        case .failure(let error): payload = CallableWire.encodeError(error)
        }
        return HTTPResponse(
            status: 200, headers: ["content-type": "text/event-stream", "cache-control": "no-cache"],
            body: Array("data: ".utf8) + payload + Array("\n\n".utf8))
    }

    /// The CORS headers (`CORSPolicy.functions`: the emulator's `cors({origin: true})`).
    static func addCORS(to response: inout HTTPResponse, request: HTTPRequest) {
        CORSPolicy.functions.apply(to: &response, for: request)
    }
}
