import DocumentStore
import FirestoreAPI
import FirestoreEngine
import FirestoreModel
import Foundation
import HTTPServer

/// The composition root: reads `firebase.json`, opens the store, builds the engine and the
/// adapters, opens the ports and owns their lifecycle (ARCHITECTURE rule 8).
public final class HearthApp: Sendable {
    /// Resolved configuration.
    public let config: FirebaseConfig
    /// The project served.
    public let project: String
    /// Where the data lives (`:memory:` when in memory).
    public let dataDescription: String
    /// The engine.
    public let engine: FirestoreEngine
    /// Security rules state (file, hot reload, PUT endpoint, coverage, explanations).
    public let rules: RulesController
    let firestoreServer: HTTPServer
    let watcher: RulesFileWatcher?
    /// Auth emulator, hub, import/export (issue 6).
    let suite: EmulatorSuite

    /// Builds everything from `options`; nothing listens until `start()`.
    /// - Throws: `ConfigError` for configuration mistakes; `FirestoreError` when the store cannot open.
    public init(options: StartOptions) throws {
        let configPath = options.resolvedConfigPath()
        var config: FirebaseConfig
        if let configPath {
            config = try FirebaseConfig.load(path: configPath)
        } else {
            config = FirebaseConfig.defaults(directory: FileManager.default.currentDirectoryPath)
        }
        if let h = options.host {
            for kp in [\FirebaseConfig.firestore, \.functions, \.auth, \.hub, \.ui] { config[keyPath: kp].host = h }
        }
        if let p = options.firestorePort { config.firestore.port = p }
        if let p = options.functionsPort { config.functions.port = p }
        if let p = options.authPort { config.auth.port = p }
        if let p = options.hubPort { config.hub.port = p }
        self.config = config
        self.project = options.resolvedProject(configDirectory: config.directory)

        let store: any DocumentStore
        if options.inMemory {
            store = InMemoryDocumentStore()
            dataDescription = "in memory"
        } else {
            let path =
                options.dataPath
                ?? URL(fileURLWithPath: config.directory).appendingPathComponent(".hearth/firestore.sqlite").path
            try FileManager.default.createDirectory(
                atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path, withIntermediateDirectories: true)
            store = try SQLiteDocumentStore(path: path)
            dataDescription = path
        }
        try EmulatorSuite.importIfRequested(options, into: store)  // issue 6
        let engine = try FirestoreEngine(store: store)
        self.engine = engine
        let rules = RulesController(engine: engine, log: { HearthLog.info($0) })
        self.rules = rules
        if let file = config.rulesFile {
            try rules.loadDefault(fromFile: file)
            watcher = RulesFileWatcher(path: file, rules: rules)
        } else {
            HearthLog.info("hearth: no Firestore rules file in firebase.json: every request is allowed (open rules)")
            watcher = nil
        }
        let handler = FirestorePortHandler(
            rest: FirestoreRESTService(engine: engine), admin: EmulatorAdmin(engine: engine, rules: rules))
        firestoreServer = HTTPServer(
            configuration: HTTPServerConfiguration(host: config.firestore.host, port: config.firestore.port),
            handler: handler, log: Self.requestLog("firestore", quiet: options.quiet))
        suite = try EmulatorSuite(options: options, config: config, project: project, store: store)  // issue 6
    }

    static func requestLog(_ prefix: String, quiet: Bool) -> @Sendable (String) -> Void {
        if quiet { return { _ in } }
        return { HearthLog.info(prefix + " " + $0) }
    }

    /// The ports actually bound (differs from the configuration when it asked for port 0).
    public struct BoundPorts: Sendable {
        /// Firestore port.
        public var firestore: Int
        /// Auth emulator port; nil when Auth does not run (issue 6).
        public var auth: Int? = nil
        /// Emulator hub port (issue 6).
        public var hub: Int? = nil
    }

    /// Opens every port and prints one line per listening endpoint.
    /// - Returns: the bound ports.
    /// - Throws: `HTTPServerError` when a port cannot be bound.
    @discardableResult
    public func start() async throws -> BoundPorts {
        let port = try firestoreServer.start()
        HearthLog.info("hearth: project \(project), data \(dataDescription)")
        HearthLog.info("firestore  http://\(config.firestore.host):\(port)  (REST v1)")
        let more = try await suite.start(firestorePort: port)  // issue 6
        watcher?.start()
        HearthLog.info("hearth: ready")
        return BoundPorts(firestore: port, auth: more.auth, hub: more.hub)
    }

    /// Stops accepting, lets in-flight requests finish, closes the database.
    public func stop() async {
        watcher?.stop()
        await firestoreServer.shutdown()
        await suite.stop()  // issue 6: auth, hub, --export-on-exit
        engine.close()
    }
}
