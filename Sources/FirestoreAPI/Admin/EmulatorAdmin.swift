import FirestoreEngine
import FirestoreModel
import GoogleWire
import HTTPServer

/// The Firestore emulator's admin endpoints (`/emulator/v1/…`), docs/reference/firestore-wire.md §2.1:
/// `DELETE /emulator/v1/projects/{p}/databases/{d}/documents` clears a database;
/// `PUT …/projects/{p}:securityRules` replaces the rules; `GET …:ruleCoverage[.html]`;
/// Hearth's own `GET …/projects/{p}:ruleExplanations` returns the latest denials explained,
/// `GET|DELETE …/projects/{p}:requests[?after=ID]` every request the rules decided (`RequestJournal`), and
/// `GET /emulator/v1/stats` what the engine holds (open listen sessions, transactions), and
/// `GET|DELETE …/projects/{p}:missingIndexes` the indexes queries lacked since start, and
/// `POST …/projects/{p}:export` `{database, export_directory, export_name}` writes a managed
/// export of the database as the official emulator does (firebase-tools' hub calls it);
/// `POST …/projects/{p}:reset` and `…/projects/{p}/snapshots/…` (`SnapshotsController`);
/// `GET|PUT|DELETE /emulator/v1/clock` (`ClockController`).
/// It also answers the Firestore Admin API's index endpoints
/// (`/v1/projects/{p}/databases/{d}/collectionGroups/{g}/indexes…`, docs/reference/indexes.md).
public struct EmulatorAdmin: Sendable {
    /// The engine to clear.
    public let engine: FirestoreEngine
    /// Rules management, when rules are configured.
    public let rules: RulesController
    /// Index definitions and the missing indexes seen.
    public let indexes: IndexesController
    /// Writes the managed export of a database: `(database, export directory, export name)`,
    /// throwing `.failedPrecondition` when the directory does not exist and `.internal` when
    /// writing fails; nil answers `:export` with UNIMPLEMENTED.
    public let export: (@Sendable (DatabaseID, String, String) throws(FirestoreError) -> Void)?
    /// `:reset` and the named snapshots; nil leaves them unanswered (404).
    public let snapshots: SnapshotsController?
    /// `/emulator/v1/clock`; nil leaves it unanswered (404).
    public let clock: ClockController?

    /// Creates the admin endpoints.
    public init(
        engine: FirestoreEngine, rules: RulesController, indexes: IndexesController,
        export: (@Sendable (DatabaseID, String, String) throws(FirestoreError) -> Void)? = nil,
        snapshots: SnapshotsController? = nil, clock: ClockController? = nil
    ) {
        self.engine = engine
        self.rules = rules
        self.indexes = indexes
        self.export = export
        self.snapshots = snapshots
        self.clock = clock
    }

    /// `(database, collection group, index id)` when `path` is an Admin API index path.
    static func indexPath(_ path: String) -> (DatabaseID, String, String?)? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        // ["", "v1", "projects", p, "databases", d, "collectionGroups", g, "indexes", id?]
        guard segments.count == 9 || segments.count == 10, segments[0].isEmpty, segments[1] == "v1",
            segments[2] == "projects", segments[4] == "databases", segments[6] == "collectionGroups", segments[8] == "indexes",
            let project = PercentEncoding.decode(segments[3]), let database = PercentEncoding.decode(segments[5]),
            let group = PercentEncoding.decode(segments[7]), !project.isEmpty, !database.isEmpty, !group.isEmpty
        else { return nil }
        let id = segments.count == 10 ? PercentEncoding.decode(segments[9]) : nil
        if segments.count == 10, id?.isEmpty ?? true { return nil }
        return (DatabaseID(project: project, database: database), group, id)
    }

    /// Answers an Admin API index request (`indexPath` matched).
    public func handleIndexRequest(_ request: HTTPRequest) -> HTTPResponse? {
        guard let (database, group, id) = Self.indexPath(request.path) else { return nil }
        do throws(FirestoreError) {
            return try indexes.handleAdmin(request, database: database, collectionGroup: group, indexID: id)
        } catch {
            return FirestoreRESTService.errorResponse(error)
        }
    }

    /// Answers one `/emulator/…` request.
    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        do throws(FirestoreError) {
            return try route(request)
        } catch {
            return FirestoreRESTService.errorResponse(error)
        }
    }

    func route(_ request: HTTPRequest) throws(FirestoreError) -> HTTPResponse {
        let raw = request.path
        if raw == "/emulator/v1/stats" && request.method == "GET" {
            // Hearth's own diagnostics: what the engine currently holds.
            let stats: JSONValue = .object([
                "listenSessions": .integer(engine.listenSessionCount),
                "openTransactions": .integer(engine.openTransactionCount),
            ])
            return .json(200, stats.serialized())
        }
        if raw == "/emulator/v1/clock", let clock { return try clock.handle(request.method, body: request.body) }
        if raw == "/emulator/v1/missingIndexes" {
            switch request.method {
            case "GET": return indexes.missing(project: nil)
            case "DELETE": return indexes.clearMissing()
            default: throw FirestoreError(.notFound, "No emulator method \(request.method) \(raw).")
            }
        }
        guard raw.hasPrefix("/emulator/v1/projects/") else {
            throw FirestoreError(.notFound, "No emulator method at \(raw).")
        }
        let rest = String(raw.dropFirst("/emulator/v1/projects/".count))
        if let snapshots, let answer = try snapshots.route(request.method, rest) { return answer }
        // `{p}:verb`
        if let colon = rest.firstIndex(of: ":"), !rest[..<colon].contains("/") {
            guard let project = PercentEncoding.decode(String(rest[..<colon])), !project.isEmpty else {
                throw .invalidArgument("Invalid project id.")
            }
            let verb = String(rest[rest.index(after: colon)...])
            switch (request.method, verb) {
            case ("PUT", "securityRules"), ("POST", "securityRules"):
                return rules.replace(project: project, body: request.body)
            case ("GET", "securityRules"):
                return rules.current(project: project)
            case ("GET", "ruleCoverage"):
                return rules.coverageJSON(project: project)
            case ("GET", "ruleCoverage.html"):
                return rules.coverageHTML(project: project)
            case ("GET", "ruleExplanations"):
                return rules.explanations(project: project)
            case ("DELETE", "ruleExplanations"):
                return rules.clearExplanations(project: project)
            case ("GET", "requests"):
                guard let after = RequestJournal.after(request.queryItem("after")) else {
                    throw .invalidArgument("after must be a non-negative integer.")
                }
                return rules.requests(project: project, after: after)
            case ("DELETE", "requests"):
                rules.journal.clear(project: project)
                return .json(200, Array("{}".utf8))
            case ("POST", "export"):
                return try exportDatabase(project: project, body: request.body)
            case ("GET", "missingIndexes"):
                return indexes.missing(project: project)
            case ("DELETE", "missingIndexes"):
                return indexes.clearMissing()
            default:
                throw FirestoreError(.notFound, "No emulator method \(request.method) :\(verb).")
            }
        }
        // `{p}/databases/{d}/documents`
        let segments = rest.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if request.method == "DELETE", segments.count == 4, segments[1] == "databases", segments[3] == "documents",
            let project = PercentEncoding.decode(segments[0]), let database = PercentEncoding.decode(segments[2])
        {
            try engine.clear(DatabaseID(project: project, database: database))
            return .json(200, Array("{}".utf8))
        }
        throw FirestoreError(.notFound, "No emulator method \(request.method) \(raw).")
    }

    /// `POST …/projects/{p}:export`: the body's `database` (default: the project's `(default)`)
    /// written to `export_directory`/`export_name` (default `firestore_export`); answers `{}`.
    /// - Throws: `.invalidArgument` for a body that is not such an object or a database of
    ///   another project; the export closure's `.failedPrecondition` (HTTP 400, as the emulator
    ///   answers) when `export_directory` is not an existing directory, `.internalError` when writing fails.
    func exportDatabase(project: String, body: [UInt8]) throws(FirestoreError) -> HTTPResponse {
        guard let export else { throw FirestoreError(.unimplemented, "Export is not available on this server.") }
        let json: JSONValue
        do {
            json = try JSONValue.parse(body.isEmpty ? Array("{}".utf8) : body)
        } catch {
            throw .invalidArgument("Invalid JSON payload received. \(error.message)")
        }
        guard case .object = json else { throw .invalidArgument("The export request must be a JSON object.") }
        var database = DatabaseID(project: project)
        for key in ["database", "export_directory", "export_name"] {
            if let v = json[key], case .string = v {} else if json[key] != nil { throw .invalidArgument("\(key) must be a string.") }
        }
        if case .string(let name)? = json["database"] {
            let parts = name.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 4, parts[0] == "projects", parts[2] == "databases", parts[1] == project, !parts[3].isEmpty
            else { throw .invalidArgument("database must be projects/\(project)/databases/{database_id}.") }
            database = DatabaseID(project: project, database: parts[3])
        }
        guard case .string(let directory)? = json["export_directory"], !directory.isEmpty else {
            throw .invalidArgument("export_directory is required.")
        }
        var name = "firestore_export"
        if case .string(let given)? = json["export_name"] {
            guard !given.isEmpty, given.utf8.count <= 255, !given.contains("/"), !given.contains("\0"), given != ".",
                given != ".."
            else {
                throw .invalidArgument("export_name must be a folder name (at most 255 bytes, no '/').")
            }
            name = given
        }
        try export(database, directory, name)
        return .json(200, Array("{\n}\n".utf8))
    }
}
