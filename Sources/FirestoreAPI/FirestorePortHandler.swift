import FirestoreEngine
import FirestoreModel
import HTTPServer

/// Everything served on the Firestore port over HTTP/1.1: REST v1 (`/v1/…`), the web SDK's
/// WebChannel streams (`/google.firestore.v1.Firestore/{Listen,Write}/channel`), the emulator's
/// admin endpoints (`/emulator/v1/…`), the readiness check `GET /` → `Ok`, and CORS for the
/// web SDKs (`CORSPolicy.firestore`). Source: docs/reference/firestore-wire.md §1, §2.1, §2.8.
public struct FirestorePortHandler: HTTPHandler {
    /// The REST adapter.
    public let rest: FirestoreRESTService
    /// The admin endpoints.
    public let admin: EmulatorAdmin
    /// The web SDK's Listen and Write channels.
    public let webChannel: WebChannelService

    /// Creates the handler; WebChannel streams run on `rest`'s engine.
    public init(rest: FirestoreRESTService, admin: EmulatorAdmin) {
        self.rest = rest
        self.admin = admin
        webChannel = WebChannelService(engine: rest.executor.engine)
    }

    public func handle(_ request: HTTPRequest) async -> HTTPResponse {
        let cors = CORSPolicy.firestore
        if cors.isPreflight(request) { return cors.preflight(request) }
        var response: HTTPResponse
        if let method = WebChannelService.method(forPath: request.path) {
            var answer = webChannel.handle(request, method: method)
            CORSPolicy.firestoreChannel.apply(to: &answer, for: request)
            return answer
        } else if request.path.hasPrefix("/v1/") || request.path.hasPrefix("/v1beta1/") {
            if let answered = admin.handleIndexRequest(request) {
                response = answered
            } else {
                response = await rest.handle(request)
            }
        } else if request.path.hasPrefix("/emulator/") {
            response = admin.handle(request)
        } else if request.path == "/" && request.method == "GET" {
            response = .text(200, "Ok\n")
        } else {
            response = FirestoreRESTService.errorResponse(
                FirestoreError(.notFound, "Not found: \(request.method) \(request.path)"))
        }
        return Self.allowingOrigin(request.headers["origin"], response)
    }

    /// `response` with the CORS headers every answer on this port carries
    /// (`CORSPolicy.firestore`: the request's `Origin` echoed with credentials and methods, or `*`).
    static func allowingOrigin(_ origin: String?, _ response: HTTPResponse) -> HTTPResponse {
        var response = response
        CORSPolicy.firestore.apply(to: &response, origin: origin)
        return response
    }

    /// Writes over REST (Commit and the document writes), taken to the group commit straight
    /// from the event loop (`FirestoreRESTService.handleDeferred`).
    public func handleDeferred(_ request: HTTPRequest, respond: @escaping @Sendable (HTTPResponse) -> Void) -> Bool {
        guard request.method != "GET", request.path.hasPrefix("/v1/") else { return false }
        let origin = request.headers["origin"]
        return rest.handleDeferred(request) { respond(Self.allowingOrigin(origin, $0)) }
    }

    /// GetDocument over REST (`GET /v1/…/documents/<document>`), answered on the event loop:
    /// one point read and the rules decision, microseconds.
    public func handleInline(_ request: HTTPRequest) -> HTTPResponse? {
        guard request.method == "GET", request.path.hasPrefix("/v1/"), let response = rest.handleInline(request) else {
            return nil
        }
        return Self.allowingOrigin(request.headers["origin"], response)
    }
}
