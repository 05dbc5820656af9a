import FirestoreEngine
import FirestoreModel
import GoogleWire
import HTTPServer
import Synchronization

/// Named snapshots of a project's data, and the reset to the seed (issue 16 item 2):
///
/// | request | answer |
/// |---|---|
/// | `POST /emulator/v1/projects/{p}:reset` | the project's databases restored to the seed: what `--import` loaded at start, or empty without an import |
/// | `PUT /emulator/v1/projects/{p}/snapshots/{name}` | saves the project's databases now as `name` (replacing one of that name) |
/// | `POST /emulator/v1/projects/{p}/snapshots/{name}:restore` | restores `name`; 404 when there is none |
/// | `GET /emulator/v1/projects/{p}/snapshots` | `{"snapshots": [{name, savedAt, databases: {id: documents}}]}` |
/// | `DELETE /emulator/v1/projects/{p}/snapshots/{name}` | forgets `name` |
///
/// Saving and restoring answer `{name, savedAt, restoredAt?, databases: {id: documents}}`. A
/// project's databases are those `databases` names (Hearth passes `(default)` and the Auth
/// emulator's accounts database, so users are saved and restored with the documents).
/// Snapshots live in memory: saving reads each database at one store snapshot and keeps the
/// documents in their stored encoding; restoring is one `FirestoreEngine.replaceAll` per
/// database (one SQLite transaction, no re-import, no triggers), and open listeners see the
/// restored state. The seed is named `seed` and cannot be replaced or deleted.
public final class SnapshotsController: Sendable {
    /// The name of the snapshot taken at start.
    public static let seed = "seed"

    struct Saved: Sendable {
        var savedAt: Timestamp
        var databases: [(id: String, documents: [Document])]
    }

    let engine: FirestoreEngine
    /// The database ids that make up a project's data.
    let databases: [String]
    private let saved = Mutex<[String: [String: Saved]]>([:])

    /// Creates the controller. - Parameter databases: the database ids saved per project.
    public init(engine: FirestoreEngine, databases: [String]) {
        self.engine = engine
        self.databases = databases
    }

    /// Records the seed of `project` (call once, after `--import` and before serving); without
    /// a call the seed is empty databases.
    /// - Throws: the store's `FirestoreError`.
    public func saveSeed(project: String) throws(FirestoreError) {
        _ = try save(project: project, name: Self.seed, replacingSeed: true)
    }

    func save(project: String, name: String, replacingSeed: Bool = false) throws(FirestoreError) -> JSONValue {
        guard replacingSeed || name != Self.seed else {
            throw .invalidArgument("The snapshot \"\(Self.seed)\" is what was imported at start; choose another name.")
        }
        var taken: [(id: String, documents: [Document])] = []
        for id in databases {
            taken.append((id, try engine.allDocuments(in: DatabaseID(project: project, database: id))))
        }
        let snapshot = Saved(savedAt: FirestoreEngine.systemClock(), databases: taken)
        saved.withLock { $0[project, default: [:]][name] = snapshot }
        return Self.json(name, snapshot)
    }

    func restore(project: String, name: String) throws(FirestoreError) -> JSONValue {
        let snapshot =
            saved.withLock { $0[project]?[name] }
            ?? (name == Self.seed ? Saved(savedAt: Timestamp(seconds: 0, nanos: 0), databases: databases.map { ($0, []) }) : nil)
        guard let snapshot else { throw FirestoreError(.notFound, "No snapshot named \"\(name)\" in project \(project).") }
        var at = Timestamp(seconds: 0, nanos: 0)
        for (id, documents) in snapshot.databases {
            at = try engine.replaceAll(DatabaseID(project: project, database: id), with: documents)
        }
        guard case .object(var members) = Self.json(name, snapshot) else { return .object([]) }
        members.append(.init("restoredAt", .string(at.rfc3339)))
        return .object(members)
    }

    func list(project: String) -> JSONValue {
        let all = saved.withLock { $0[project] ?? [:] }
        return .object([
            .init("snapshots", .array(all.sorted { $0.key < $1.key }.map { Self.json($0.key, $0.value) }))
        ])
    }

    func delete(project: String, name: String) throws(FirestoreError) -> JSONValue {
        guard name != Self.seed else { throw .invalidArgument("The snapshot \"\(Self.seed)\" cannot be deleted.") }
        let removed = saved.withLock { $0[project]?.removeValue(forKey: name) }
        guard removed != nil else { throw FirestoreError(.notFound, "No snapshot named \"\(name)\" in project \(project).") }
        return .object([])
    }

    static func json(_ name: String, _ s: Saved) -> JSONValue {
        .object([
            .init("name", .string(name)), .init("savedAt", .string(s.savedAt.rfc3339)),
            .init("databases", .object(s.databases.map { .init($0.id, .integer($0.documents.count)) })),
        ])
    }

    /// Routes `{p}:reset` and `{p}/snapshots[/{name}[:restore]]` (the part after
    /// `/emulator/v1/projects/`); nil when `rest` is neither.
    /// - Throws: `.invalidArgument` for a bad name, `.notFound` for an unknown snapshot or method.
    func route(_ method: String, _ rest: String) throws(FirestoreError) -> HTTPResponse? {
        let answer: JSONValue
        if rest.hasSuffix(":reset"), !rest.dropLast(6).contains("/") {
            let project = try Self.decode(String(rest.dropLast(6)), "project id")
            guard method == "POST" else { throw FirestoreError(.notFound, "No emulator method \(method) :reset.") }
            answer = try restore(project: project, name: Self.seed)
        } else {
            let parts = rest.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            guard parts.count >= 2, parts[1] == "snapshots", parts.count <= 3 else { return nil }
            let project = try Self.decode(parts[0], "project id")
            if parts.count == 2 {
                guard method == "GET" else { throw FirestoreError(.notFound, "No emulator method \(method) snapshots.") }
                answer = list(project: project)
            } else if parts[2].hasSuffix(":restore") {
                guard method == "POST" else { throw FirestoreError(.notFound, "No emulator method \(method) :restore.") }
                answer = try restore(project: project, name: try Self.decode(String(parts[2].dropLast(8)), "snapshot name"))
            } else {
                let name = try Self.decode(parts[2], "snapshot name")
                switch method {
                case "PUT", "POST": answer = try save(project: project, name: name)
                case "DELETE": answer = try delete(project: project, name: name)
                default: throw FirestoreError(.notFound, "No emulator method \(method) on a snapshot.")
                }
            }
        }
        return .json(200, answer.serialized())
    }

    static func decode(_ raw: String, _ what: String) throws(FirestoreError) -> String {
        guard let s = PercentEncoding.decode(raw), !s.isEmpty, s.utf8.count <= 256 else {
            throw .invalidArgument("Invalid \(what).")
        }
        return s
    }
}
