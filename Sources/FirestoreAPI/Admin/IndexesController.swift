import FirestoreEngine
import FirestoreModel
import FoundationEssentials
import GoogleWire
import HTTPServer
import ProtoWire
import Synchronization

/// The indexes in force: loaded from the file `firebase.json` names (`firestore.indexes`),
/// hot reloaded, managed per project through the Firestore Admin API's index endpoints, and
/// the missing indexes seen since start for `hearth indexes suggest` / `check`.
///
/// The file's indexes apply to every project; the Admin API's creates and deletes are kept per
/// project, until restart, as changes to the file's list, so that a hot reload of the file
/// still reaches a project whose indexes were also managed through the API.
/// Source: docs/reference/indexes.md.
public final class IndexesController: Sendable {
    let engine: FirestoreEngine
    let log: @Sendable (String) -> Void
    let state = Mutex<State>(State())
    /// Held through each Admin API change, from reading the configuration to installing the
    /// next one, so that concurrent creates and deletes neither lose one another nor reach
    /// the engine in another order than `state` records them.
    let adminChanges = Mutex<Void>(())

    struct State {
        /// The file's configuration.
        var file = IndexConfiguration()
        /// The Admin API's changes to it, by project.
        var byProject: [String: Changes] = [:]

        /// The file's configuration with `project`'s changes applied.
        func configuration(forProject project: String) -> IndexConfiguration {
            guard let changes = byProject[project] else { return file }
            var config = file
            config.indexes.removeAll { changes.removed.contains($0) }
            for index in changes.added where !config.indexes.contains(index) { config.indexes.append(index) }
            return config
        }
    }

    /// One project's creates and deletes through the Admin API.
    struct Changes {
        /// Created indexes (not in the file when created).
        var added: [CompositeIndex] = []
        /// Deleted indexes of the file.
        var removed: [CompositeIndex] = []
    }

    /// Creates a controller that installs configurations into `engine`.
    public init(engine: FirestoreEngine, log: @escaping @Sendable (String) -> Void) {
        self.engine = engine
        self.log = log
    }

    /// Production's `FAILED_PRECONDITION` text for `missing`, the index `target` lacks in
    /// `database`, with the console link that creates it (for `IndexCatalog`).
    public static let productionMessage: @Sendable (MissingIndex, QueryTarget, DatabaseID) -> String = { missing, target, database in
        MissingIndexMessage.text(
            for: missing, database: database,
            multipleInequalityFields: IndexRequirement.hasInequalitiesOnSeveralFields(target.query))
    }

    /// Reads, validates and puts in force the `firestore.indexes.json` at `path`.
    /// - Throws: `IndexesFileError` naming the line of the first mistake, or when the file
    ///   cannot be read; the configuration in force stays.
    public func loadDefault(fromFile path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw IndexesFileError(fileName: path, line: 0, column: 0, message: "cannot read the indexes file")
        }
        let configuration = try IndexesFile.decode([UInt8](data), fileName: path)
        try adminChanges.withLock { (_: inout Void) throws(FirestoreError) in
            let changed = state.withLock { s -> [(String, IndexConfiguration)] in
                s.file = configuration
                return s.byProject.keys.map { ($0, s.configuration(forProject: $0)) }
            }
            try engine.setIndexConfiguration(configuration)
            for (project, config) in changed { try engine.setIndexConfiguration(config, forProject: project) }
        }
        log("indexes: loaded \(path) (\(configuration.indexes.count) composite, \(configuration.fieldOverrides.count) field overrides)")
    }

    /// The configuration in force for `project`.
    public func configuration(forProject project: String) -> IndexConfiguration {
        state.withLock { $0.configuration(forProject: project) }
    }

    /// `GET /emulator/v1/projects/{p}:missingIndexes`: the indexes the queries since start
    /// needed and lacked, each with its query count, and the `firestore.indexes.json` that adds them.
    ///
    /// Only indexes still missing count: one the configuration in force now provides (the
    /// app added it, the file was reloaded) is left out. `project` nil: every project, and the
    /// suggestion starts from the file's configuration.
    public func missing(project: String?) -> HTTPResponse {
        let misses = engine.indexes.misses().filter { miss in
            (project == nil || miss.project == project) && !configuration(forProject: miss.project).provides(miss.index)
        }
        // The configuration in force plus every missing index: what the app's file should say.
        var suggestion = project.map { configuration(forProject: $0) } ?? state.withLock { $0.file }
        for m in misses { suggestion = suggestion.adding(m.index) }
        let suggested = (try? JSONValue.parse(Array(IndexesFile.encode(suggestion).utf8))) ?? .object([])
        let body: JSONValue = .object([
            "missing": .array(
                misses.map {
                    .object([
                        "index": .string($0.index.description), "project": .string($0.project), "queries": .integer(Int64($0.queries)),
                    ])
                }),
            "suggested": suggested,
        ])
        return .json(200, body.serialized())
    }

    /// `DELETE /emulator/v1/projects/{p}:missingIndexes`: forgets the missing indexes seen.
    public func clearMissing() -> HTTPResponse {
        engine.indexes.clearMisses()
        return .json(200, Array("{}".utf8))
    }

    // MARK: Admin API

    /// Answers `…/v1/projects/{p}/databases/{d}/collectionGroups/{g}/indexes[/{id}]`:
    /// list (`g` may be `-`), create (a finished long-running operation), get and delete.
    /// - Throws: `.notFound` for an unknown index or method, `.invalidArgument` for a bad body,
    ///   `.alreadyExists` when the same index exists.
    func handleAdmin(
        _ request: HTTPRequest, database: DatabaseID, collectionGroup: String, indexID: String?
    ) throws(FirestoreError) -> HTTPResponse {
        try adminChanges.withLock { (_: inout Void) throws(FirestoreError) -> HTTPResponse in
            try handleAdminSerially(request, database: database, collectionGroup: collectionGroup, indexID: indexID)
        }
    }

    private func handleAdminSerially(
        _ request: HTTPRequest, database: DatabaseID, collectionGroup: String, indexID: String?
    ) throws(FirestoreError) -> HTTPResponse {
        let project = database.project
        let config = configuration(forProject: project)
        switch (request.method, indexID) {
        case ("GET", nil):
            let listed = config.indexes.filter { collectionGroup == "-" || $0.collectionGroup == collectionGroup }
            return .json(200, AdminIndexResource.listResponse(listed.map { Self.resource($0, in: database) }).serialized())
        case ("POST", nil):
            guard collectionGroup != "-" else { throw .invalidArgument("Creating an index needs a collection group id, not -.") }
            let json: JSONValue
            do { json = try JSONValue.parse(request.body) } catch { throw .invalidArgument("Invalid JSON body: \(error)") }
            let index = try AdminIndexResource.decodeIndex(json, collectionGroup: collectionGroup)
            guard !config.indexes.contains(index) else {
                throw .init(.alreadyExists, "Index already exists.")
            }
            try change(project) { changes, file in
                changes.removed.removeAll { $0 == index }
                if !file.indexes.contains(index) { changes.added.append(index) }
            }
            return .json(200, Self.resource(index, in: database).createOperation(operationID: Self.id(of: index)).serialized())
        case ("GET", let id?):
            guard let index = config.indexes.first(where: { Self.id(of: $0) == id && $0.collectionGroup == collectionGroup }) else {
                throw .init(.notFound, "Index not found.")
            }
            return .json(200, Self.resource(index, in: database).json.serialized())
        case ("DELETE", let id?):
            guard let index = config.indexes.first(where: { Self.id(of: $0) == id && $0.collectionGroup == collectionGroup }) else {
                throw .init(.notFound, "Index not found.")
            }
            try change(project) { changes, file in
                changes.added.removeAll { $0 == index }
                if file.indexes.contains(index) { changes.removed.append(index) }
            }
            return .json(200, Array("{}".utf8))
        default:
            throw .init(.notFound, "No index method \(request.method) \(request.path).")
        }
    }

    /// Applies `edit` to `project`'s changes (given the file's configuration) and installs the
    /// result. Called with `adminChanges` held.
    private func change(_ project: String, _ edit: (inout Changes, IndexConfiguration) -> Void) throws(FirestoreError) {
        let configuration = state.withLock { s -> IndexConfiguration in
            edit(&s.byProject[project, default: Changes()], s.file)
            return s.configuration(forProject: project)
        }
        try engine.setIndexConfiguration(configuration, forProject: project)
    }

    /// The Admin API resource of `index` in `database` (built before any answer: `READY`).
    static func resource(_ index: CompositeIndex, in database: DatabaseID) -> AdminIndexResource {
        AdminIndexResource(database: database, indexID: id(of: index), index: index)
    }

    /// A stable id from the definition (FNV-1a of its description, as 13 base-32 letters), so
    /// that an index keeps its name across restarts. Production's ids are opaque too.
    static func id(of index: CompositeIndex) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in index.description.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
        var out = "CI"
        for _ in 0..<13 {
            out.append(alphabet[Int(hash & 31)])
            hash >>= 5
        }
        return out
    }
}
