import HTTPServer

/// Everything served on the functions port (5001 by default):
/// `GET /` → 200 `Ok` (readiness), the emulator endpoints of `EmulatorFunctionsHTTPHandler`
/// (FCM outbox, on-demand scheduled runs), and callables (`CallableHTTPHandler`) for every
/// other path. Source: docs/reference/firestore-wire.md §3.1; docs/ARCHITECTURE.md "One request, end to end".
public struct FunctionsPortHandler: HTTPHandler {
    /// The host served.
    public let host: FunctionsHost
    private let emulator: EmulatorFunctionsHTTPHandler
    private let callables: CallableHTTPHandler

    /// Creates the handler.
    public init(host: FunctionsHost) {
        self.host = host
        self.emulator = EmulatorFunctionsHTTPHandler(host: host)
        self.callables = CallableHTTPHandler(host: host)
    }

    /// Routes one request on the functions port.
    public func handle(_ request: HTTPRequest) async -> HTTPResponse {
        if request.path == "/" && (request.method == "GET" || request.method == "HEAD") {
            return .text(200, "Ok")
        }
        if let r = await emulator.response(for: request) { return r }
        return await callables.handle(request)
    }
}
