/// The CORS answers of an emulator port: the one implementation the Firestore, Auth,
/// Functions and hub handlers share.
///
/// With an `Origin` header every answer echoes it in `Access-Control-Allow-Origin` with
/// `Access-Control-Allow-Credentials: true` and `Access-Control-Allow-Methods` (and `Vary`
/// when `vary` is set). An `OPTIONS` request is a
/// preflight: it is answered here with `preflightStatus`, an empty body and the requested
/// `Access-Control-Request-Headers` echoed in `Access-Control-Allow-Headers`. Without an
/// `Origin` the answer carries `Access-Control-Allow-Origin: withoutOrigin` when that is set,
/// else no CORS header. The Firestore port's set is the Cloud Firestore emulator's, recorded in
/// `Tests/Conformance/cors.json`; the Node emulators (Auth, Functions, hub) answer preflights
/// with 204, `Vary` and the `cors` middleware's method list.
/// Source: docs/reference/firestore-wire.md §2.8, §3.6.
public struct CORSPolicy: Sendable {
    /// `Access-Control-Allow-Methods`: the Firestore emulator's `DELETE,GET,HEAD,PATCH,POST,PUT`,
    /// the `cors` middleware's `GET,HEAD,PUT,PATCH,POST,DELETE`; nil for none (WebChannel).
    public var allowedMethods: String?
    /// The status of a preflight answer (200 on the Firestore port, 204 on the Node ports).
    public var preflightStatus: Int
    /// `Access-Control-Allow-Origin` when the request has no `Origin` (`*`), or nil for none.
    public var withoutOrigin: String?
    /// Whether answers carry `Vary: Origin` (preflights `Vary: Origin, Access-Control-Request-Headers`).
    public var vary: Bool
    /// `Access-Control-Expose-Headers` of answers to a request with an `Origin`, or nil.
    public var exposedHeaders: String?

    /// A policy; see the type's documentation.
    public init(
        allowedMethods: String?, preflightStatus: Int, withoutOrigin: String?, vary: Bool, exposedHeaders: String? = nil
    ) {
        self.allowedMethods = allowedMethods
        self.preflightStatus = preflightStatus
        self.withoutOrigin = withoutOrigin
        self.vary = vary
        self.exposedHeaders = exposedHeaders
    }

    /// The Firestore port: the Cloud Firestore emulator's answers, `*` without an `Origin`.
    public static let firestore = CORSPolicy(
        allowedMethods: "DELETE,GET,HEAD,PATCH,POST,PUT", preflightStatus: 200, withoutOrigin: "*", vary: false)
    /// The Firestore port's WebChannel answers (`…/channel`), as the emulator sends them: no
    /// allowed methods (never preflighted), `Vary: Origin`, and WebChannel's headers exposed.
    /// Source: Tests/WebClients/PROTOCOL.md section 10.
    public static let firestoreChannel = CORSPolicy(
        allowedMethods: nil, preflightStatus: 200, withoutOrigin: "*", vary: true,
        exposedHeaders: "x-client-wire-protocol, x-http-session-id, x-http-initial-response")
    /// The Auth port: 204 preflights, `Vary`, `*` without an `Origin`.
    public static let auth = CORSPolicy(
        allowedMethods: nodeMethods, preflightStatus: 204, withoutOrigin: "*", vary: true)
    /// The Functions and hub ports: 204 preflights, `Vary`, no CORS header without an `Origin`.
    public static let functions = CORSPolicy(
        allowedMethods: nodeMethods, preflightStatus: 204, withoutOrigin: nil, vary: true)
    /// The `cors` middleware's default methods.
    static let nodeMethods = "GET,HEAD,PUT,PATCH,POST,DELETE"

    /// Whether `request` is a preflight this policy answers (`OPTIONS`).
    public func isPreflight(_ request: HTTPRequest) -> Bool { request.method == "OPTIONS" }

    /// The answer to a preflight: `preflightStatus`, empty body, the allowed methods, the
    /// requested headers echoed, and the origin headers of `apply(to:for:)`.
    public func preflight(_ request: HTTPRequest) -> HTTPResponse {
        var response = HTTPResponse(status: preflightStatus)
        if request.headers["origin"] == nil, let allowedMethods {
            response.headers.add("access-control-allow-methods", allowedMethods)
        }
        apply(to: &response, for: request)
        if let requested = request.headers["access-control-request-headers"] {
            response.headers.replaceOrAdd("access-control-allow-headers", requested)
        }
        if vary { response.headers.replaceOrAdd("vary", "Origin, Access-Control-Request-Headers") }
        return response
    }

    /// Adds the CORS headers an answer to `request` carries (replacing any the handler set).
    public func apply(to response: inout HTTPResponse, for request: HTTPRequest) {
        apply(to: &response, origin: request.headers["origin"])
    }

    /// `apply(to:for:)` for a request whose `Origin` header was `origin`, for answers written
    /// after the request is gone (deferred writes).
    public func apply(to response: inout HTTPResponse, origin: String?) {
        guard let origin else {
            if let withoutOrigin { response.headers.replaceOrAdd("access-control-allow-origin", withoutOrigin) }
            return
        }
        response.headers.replaceOrAdd("access-control-allow-origin", origin)
        if let allowedMethods { response.headers.replaceOrAdd("access-control-allow-methods", allowedMethods) }
        response.headers.replaceOrAdd("access-control-allow-credentials", "true")
        if vary && !response.headers.contains("vary") { response.headers.add("vary", "Origin") }
        if let exposedHeaders { response.headers.replaceOrAdd("access-control-expose-headers", exposedHeaders) }
    }
}
