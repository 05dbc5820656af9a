import GoogleWire
import HTTPServer
import Synchronization

/// The Auth emulator's HTTP face: routing (`AuthRoute`), credentials, body decoding, CORS and
/// the error shape, in front of an `AuthService`.
///
/// Credentials (docs/reference/firestore-wire.md §4.1): any non-empty `key` query parameter or `X-Goog-Api-Key`
/// header maps to the default project; `Authorization: Bearer owner` (or a `ya29.` OAuth
/// token) is privileged — the Admin SDK form of each operation. Another bearer on an
/// authenticated endpoint is 401. CORS (`CORSPolicy.auth`): every origin reflected with
/// credentials, requested headers allowed, `access-control-allow-private-network: true` when asked. `GET /` answers
/// `{"authEmulator":{"ready":true,…}}`.
public struct AuthEmulatorHandler: HTTPHandler {
    /// The behaviour.
    public let service: AuthService
    /// Receives notices (e.g. another project id in single-project mode).
    public let log: @Sendable (String) -> Void
    /// Projects already warned about (the warning is printed once per project).
    let warned = ProjectSet()

    /// Creates the handler.
    public init(service: AuthService, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.service = service
        self.log = log
    }

    /// Answers one request; never throws (errors become Auth error bodies).
    public func handle(_ request: HTTPRequest) async -> HTTPResponse {
        var response = respond(request)
        CORSPolicy.auth.apply(to: &response, for: request)
        if request.headers["access-control-request-private-network"] != nil {
            response.headers.replaceOrAdd("access-control-allow-private-network", "true")
        }
        return response
    }

    func respond(_ request: HTTPRequest) -> HTTPResponse {
        if CORSPolicy.auth.isPreflight(request) { return CORSPolicy.auth.preflight(request) }
        do throws(AuthError) {
            switch AuthRoute.parse(method: request.method, path: request.path) {
            case .root:
                return .json(
                    200,
                    JSONValue.object([
                        .init(
                            "authEmulator",
                            .object([
                                .init("ready", .bool(true)),
                                .init("docs", .string("https://firebase.google.com/docs/emulator-suite")),
                                .init("apiSpec", .string("/emulator/openapi.json")),
                            ]))
                    ]).serialized())
            case .notFound: throw .notFound()
            case .unsupported(let message): throw .notImplemented(message)
            case .call(let operation, let pathProject, let security):
                let privileged = try authorize(request, security)
                let body = try AuthRequestBody.parse(request.body, contentType: request.headers["content-type"])
                if body.nonEmptyString("tenantId") != nil {
                    throw .notImplemented("Tenants are not implemented in Hearth's Auth emulator.")
                }
                let project = pathProject ?? service.defaultProject
                if project != service.defaultProject, security != .none, warned.insert(project) {
                    log(
                        "auth: Multiple projectIds are not recommended in single project mode. Requested project ID \(project), but the emulator is configured for \(service.defaultProject)."
                    )
                }
                let result = try service.perform(
                    AuthCall(
                        operation: operation, project: project, privileged: privileged, body: body,
                        query: request.queryItems))
                return .json(200, result.serialized())
            }
        } catch {
            return .json(error.code, error.json.serialized())
        }
    }

    /// Checks credentials for `security`.
    /// - Returns: true for `Bearer owner` (privileged).
    /// - Throws: 401 for a bearer that is not `owner`/`ya29.…` on an authenticated endpoint or
    ///   for no credential on a project endpoint; 403 for no API key on a client endpoint.
    func authorize(_ request: HTTPRequest, _ security: AuthRoute.Security) throws(AuthError) -> Bool {
        guard security != .none else { return false }
        var privileged = false
        if let header = request.headers["authorization"], header.lowercased().hasPrefix("bearer ") {
            let token = String(header.dropFirst("bearer ".count)).trimmingSpaces
            guard token.lowercased() == "owner" || token.hasPrefix("ya29.") else {
                throw .unauthenticated(
                    "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project."
                )
            }
            privileged = true
        }
        let hasKey = !(request.queryItem("key") ?? "").isEmpty || !(request.headers["x-goog-api-key"] ?? "").isEmpty
        if privileged || hasKey { return privileged }
        if security == .apiKey { throw .permissionDenied("The request is missing a valid API key.") }
        throw .unauthenticated(
            "Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project."
        )
    }
}

/// A thread-safe set of project ids.
final class ProjectSet: Sendable {
    private let ids = Mutex<Set<String>>([])

    /// True when `id` was not yet in the set.
    func insert(_ id: String) -> Bool { ids.withLock { $0.insert(id).inserted } }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    fileprivate var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " || s.first == "\t" { s = s.dropFirst() }
        while s.last == " " || s.last == "\t" { s = s.dropLast() }
        return String(s)
    }
}
