import FoundationEssentials
import GoogleWire
import HTTPServer

/// The emulator hub (default port 4400), as firebase-tools serves it for discovery:
///
/// | call | answer |
/// |---|---|
/// | `GET /` | locator: `{version, host, port, pid, listen}` |
/// | `GET /emulators` | `{"<name>": {name, host, port, pid, listen}, …}` for every running emulator |
/// | `PUT /functions/disableBackgroundTriggers` / `enableBackgroundTriggers` | 200 `{"enabled": bool}`: Firestore triggers stop / start firing for later commits |
/// | `GET /functions/triggers` | `{enabled, backlog, enqueued, delivered, failed, retried, loopsStopped, lastLatencyMs, maxLatencyMs}` (Hearth's own) |
/// | `POST /_admin/export` `{"path": DIR}` | Firebase CLI export (`FirebaseCLIExport`) to DIR, 200 `{"message":"OK"}`; 403 with an `Origin` header |
///
/// Every answer carries CORS headers (`CORSPolicy.functions`); `OPTIONS` is a preflight.
/// `@firebase/rules-unit-testing` reads `GET /emulators` from `FIREBASE_EMULATOR_HUB`.
/// Source: docs/reference/firestore-wire.md §2.4.
struct HubHandler: HTTPHandler {
    let registry: EmulatorRegistry
    /// Exports the running data to a directory.
    let export: @Sendable (String) throws -> HearthExport.Summary
    /// Turns the in-process Firestore triggers on or off (nil: no functions run).
    var setBackgroundTriggers: (@Sendable (Bool) -> Void)? = nil
    /// Trigger delivery's figures (`TriggerStatistics.json`) and whether triggers are on.
    var triggerStatus: (@Sendable () -> JSONValue)? = nil

    /// Answers one request, with the CORS headers of `CORSPolicy.functions` (the hub is a Node
    /// emulator too); `OPTIONS` is a preflight.
    func handle(_ request: HTTPRequest) async -> HTTPResponse {
        let cors = CORSPolicy.functions
        if cors.isPreflight(request) { return cors.preflight(request) }
        var response = route(request)
        cors.apply(to: &response, for: request)
        return response
    }

    func route(_ request: HTTPRequest) -> HTTPResponse {
        switch (request.method, request.path) {
        case ("GET", "/"):
            guard let hub = registry.entry("hub") else { return .json(503, Array(#"{"message":"starting"}"#.utf8)) }
            var members: [JSONValue.Member] = [.init("version", .string("hearth"))]
            if case .object(let rest) = EmulatorRegistry.json(hub) { members += rest.filter { $0.key != "name" } }
            return .json(200, JSONValue.object(members).serialized())
        case ("GET", "/emulators"):
            return .json(
                200,
                JSONValue.object(registry.all.map { JSONValue.Member($0.name, EmulatorRegistry.json($0)) }).serialized()
            )
        case ("GET", "/functions/triggers"):
            guard let triggerStatus else { return .json(404, Array(#"{"message":"No functions run here."}"#.utf8)) }
            return .json(200, triggerStatus().serialized())
        case ("PUT", "/functions/disableBackgroundTriggers"):
            setBackgroundTriggers?(false)
            HearthLog.info("functions: background triggers disabled (hub)")
            return .json(200, Array(#"{"enabled":false}"#.utf8))
        case ("PUT", "/functions/enableBackgroundTriggers"):
            setBackgroundTriggers?(true)
            HearthLog.info("functions: background triggers enabled (hub)")
            return .json(200, Array(#"{"enabled":true}"#.utf8))
        case ("POST", "/_admin/export"):
            if request.headers["origin"] != nil {
                return .json(403, Array(#"{"message":"Export cannot be triggered by external callers."}"#.utf8))
            }
            guard let body = try? JSONValue.parse(request.body), case .string(let path)? = body["path"], !path.isEmpty
            else {
                return .json(400, Array(#"{"message":"Export request body must include 'path'."}"#.utf8))
            }
            do {
                _ = try export(path)
                return .json(200, Array(#"{"message":"OK"}"#.utf8))
            } catch {
                return .json(500, JSONValue.object([.init("message", .string("\(error)"))]).serialized())
            }
        default:
            return .json(404, Array(#"{"message":"Not Found"}"#.utf8))
        }
    }
}
