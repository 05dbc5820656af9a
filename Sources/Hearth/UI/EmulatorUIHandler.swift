import FirestoreAPI
import FirestoreEngine
import FirestoreModel
import FoundationEssentials
import Functions
import GoogleWire
import HTTPServer

/// The Emulator UI's port (default 4000): the pages of `ui/` (compiled in as `UIAssets`) and
/// the JSON endpoints they use, all same-origin (issue 15).
///
/// | call | answer |
/// |---|---|
/// | `GET /`, `GET /<file>` | `ui/index.html`, `ui/<file>` (`HEARTH_UI_DIR` serves a directory instead, for UI work) |
/// | `GET /api/config` | `{projectId, version, dataFile, rulesFile, importedFrom, emulators: {name: {host, port}}}` |
/// | `/api/firestore/<rest>` | the Firestore port's `/<rest>` in-process (REST v1, `/emulator/v1/…`) |
/// | `/api/auth/<rest>` | the Auth emulator's `/<rest>` in-process |
/// | `/api/functions/<rest>` | the functions port's `/<rest>` in-process (callables, FCM outbox, `:run`) |
/// | `GET`/`DELETE /api/requests[?after=ID]` | the requests the rules decided (`RequestJournal`) |
/// | `GET /api/rules` | `{file, source, loadedAt, coverage}`: the rules in force, when they were installed, their coverage |
/// | `GET /api/functions` | `{functions: [{name, kind, region?, schedule?, document?}], invocations: […]}` |
/// | `POST /api/export` `{"path": DIR}` | a Firebase CLI export (`FirebaseCLIExport`) to DIR: `{"message":"OK"}` |
/// | `GET /api/events` | Server-Sent Events: `change`, `request`, `invocation`, `rules` |
///
/// A request whose `Host` is not a loopback name or the configured host is refused (403): a
/// page on another site that rebinds its own name to 127.0.0.1 must not reach the UI's owner
/// access. A request that changes something and carries an `Origin` other than this server's
/// own is refused too. Forwarded answers lose their CORS headers (the UI is same-origin).
/// `HEAD` answers as `GET` without the body. Source: docs/reference/emulator-ui.md.
struct EmulatorUIHandler: HTTPHandler {
    let project: String
    let config: FirebaseConfig
    let dataDescription: String
    let importedFrom: String?
    let registry: EmulatorRegistry
    let firestore: any HTTPHandler
    let auth: (any HTTPHandler)?
    let functions: (any HTTPHandler)?
    let rules: RulesController
    let host: FunctionsHost
    let events: UIEventHub
    let export: @Sendable (String) throws -> HearthExport.Summary
    /// Runs exports one at a time on a thread of their own (never on the cooperative pool).
    let exports = SerialWorker()
    /// Where the pages come from: nil = the compiled-in `UIAssets`.
    let assetDirectory: String?

    func handle(_ request: HTTPRequest) async -> HTTPResponse {
        let host = request.headers["host"] ?? ""
        guard Self.isLocal(host: host, configured: config.ui.host) else {
            return Self.error(403, "The Emulator UI answers only requests for a loopback host (Host \(host)).")
        }
        if request.method != "GET" && request.method != "HEAD", let origin = request.headers["origin"],
            origin != "http://" + host
        {
            return Self.error(403, "The Emulator UI's endpoints answer only its own pages (Origin \(origin)).")
        }
        let path = request.path
        for (prefix, target) in [("/api/firestore/", Optional(firestore)), ("/api/auth/", auth), ("/api/functions/", functions)]
        where path.hasPrefix(prefix) {
            guard let target else { return Self.error(404, "\(prefix.dropFirst(5).dropLast()) is not running.") }
            var response = await target.handle(Self.forwarded(request, prefix: prefix))
            for name in Self.corsHeaders { response.headers.remove(name) }
            return response
        }
        let method = request.method == "HEAD" ? "GET" : request.method
        guard let after = RequestJournal.after(request.queryItem("after")) else {
            return Self.error(400, "after must be a non-negative integer, not \(request.queryItem("after") ?? "").")
        }
        switch (method, path) {
        case ("GET", "/api/config"): return .json(200, configJSON().serialized())
        case ("GET", "/api/requests"):
            return rules.requests(project: project, after: after)
        case ("DELETE", "/api/requests"):
            rules.journal.clear(project: project)
            return .json(200, Array("{}".utf8))
        case ("GET", "/api/rules"): return .json(200, rulesJSON().serialized())
        case ("GET", "/api/functions"): return .json(200, functionsJSON().serialized())
        case ("POST", "/api/export"):
            guard case .string(let dir)? = (try? JSONValue.parse(request.body))?["path"], !dir.isEmpty else {
                return Self.error(400, "The body must be {\"path\": \"DIR\"}.")
            }
            switch await exports.run({ [export] in try export(dir) }) {
            case .success(let summary):
                return .json(200, JSONValue.object([.init("message", .string("OK: \(summary.description)"))]).serialized())
            case .failure(let error):
                return Self.error(500, "\(error)")
            }
        case ("GET", "/api/events"): return events.open()
        case ("GET", _):
            return asset(path)
        default:
            return Self.error(404, "Not found: \(request.method) \(path)")
        }
    }

    /// The CORS fields a forwarded answer loses.
    static let corsHeaders = [
        "access-control-allow-origin", "access-control-allow-credentials", "access-control-allow-methods",
        "access-control-allow-headers", "access-control-expose-headers", "access-control-max-age", "vary",
    ]

    /// Whether `host` (a `Host` field, `name[:port]`) names this machine: `127.0.0.1`,
    /// `localhost`, `[::1]`, or the host the UI was configured to bind.
    static func isLocal(host: String, configured: String) -> Bool {
        var name = Substring(host)
        if name.hasPrefix("[") {
            name = name.dropFirst().prefix { $0 != "]" }
        } else if let colon = name.lastIndex(of: ":") {
            name = name[..<colon]
        }
        let lower = name.lowercased()
        return ["127.0.0.1", "localhost", "::1", configured.lowercased()].contains(lower)
            || (lower.hasPrefix("127.") && lower.split(separator: ".").count == 4)
    }

    /// `request` for the emulator behind `prefix` (`/api/firestore/`): its path without the
    /// `/api/<emulator>` part, its query as sent, without `Origin` (same-origin here).
    static func forwarded(_ request: HTTPRequest, prefix: String) -> HTTPRequest {
        var target = String(request.path.dropFirst(prefix.count - 1))
        if let q = request.target.firstIndex(of: "?") { target += request.target[q...] }
        var r = HTTPRequest(
            method: request.method, target: target, headers: request.headers, body: request.body,
            remoteAddress: request.remoteAddress)
        r.headers.remove("origin")
        return r
    }

    /// A compiled-in page (or one from `assetDirectory`), `index.html` for `/`.
    func asset(_ path: String) -> HTTPResponse {
        let name = path == "/" ? "index.html" : String(path.dropFirst())
        guard !name.contains(".."), let type = UIAssets.contentType(name) else { return Self.error(404, "Not found: \(path)") }
        let text: String?
        if let dir = assetDirectory {
            text = FileManager.default.contents(atPath: dir + "/" + name).map { String(decoding: $0, as: UTF8.self) }
        } else {
            text = UIAssets.files[name]
        }
        guard let text else { return Self.error(404, "Not found: \(path)") }
        return HTTPResponse(
            status: 200,
            headers: [
                "content-type": type, "cache-control": "no-cache", "x-content-type-options": "nosniff",
                "content-security-policy": "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:",
            ], body: Array(text.utf8))
    }

    func configJSON() -> JSONValue {
        let emulators = registry.all.map { e in
            JSONValue.Member(e.name, .object([.init("host", .string(e.host)), .init("port", .integer(e.port))]))
        }
        var m: [JSONValue.Member] = []
        m.append(.init("projectId", .string(project)))
        m.append(.init("version", .string("hearth")))
        m.append(.init("dataFile", .string(dataDescription)))
        m.append(.init("rulesFile", config.rulesFile.map { .string(URL(fileURLWithPath: $0).lastPathComponent) } ?? .null))
        m.append(.init("importedFrom", importedFrom.map(JSONValue.string) ?? .null))
        m.append(.init("emulators", .object(emulators)))
        return .object(m)
    }

    func rulesJSON() -> JSONValue {
        guard let source = rules.source(project: project) else {
            return .object([.init("file", .null), .init("source", .null), .init("coverage", .null)])
        }
        let coverage = rules.coverageJSON(project: project).body
        return .object([
            .init("file", .string(URL(fileURLWithPath: source.fileName).lastPathComponent)), .init("source", .string(source.content)),
            .init("loadedAt", .string(source.loadedAt.rfc3339)), .init("coverage", .fragment(coverage)),
        ])
    }

    func functionsJSON() -> JSONValue {
        let registry = host.functions
        var list: [JSONValue] = []
        for c in registry.callables.values.sorted(by: { $0.qualifiedName < $1.qualifiedName }) {
            list.append(
                .object([.init("name", .string(c.name)), .init("kind", .string("callable")), .init("region", .string(c.region))]))
        }
        for s in registry.scheduled.values.sorted(by: { $0.name < $1.name }) {
            list.append(
                .object([
                    .init("name", .string(s.name)), .init("kind", .string("scheduled")),
                    .init("schedule", .string("\(s.schedule)")),
                ]))
        }
        for t in registry.triggers {
            list.append(
                .object([
                    .init("name", .string(t.name)), .init("kind", .string("trigger")),
                    .init("document", .string("\(t.pattern)")), .init("eventType", .string("\(t.eventType)")),
                ]))
        }
        var triggers: [JSONValue.Member] = [.init("enabled", .bool(host.backgroundTriggersEnabled))]
        if case .object(let stats) = host.triggerStats.json { triggers += stats }
        return .object([
            .init("functions", .array(list)),
            .init("invocations", .array(host.invocations.entries.map(InvocationJournal.json))),
            .init("triggers", .object(triggers)),
        ])
    }

    static func error(_ status: Int, _ message: String) -> HTTPResponse {
        .json(status, JSONValue.object([.init("error", .object([.init("code", .integer(status)), .init("message", .string(message))]))]).serialized())
    }
}
