import AuthEmulator
import DocumentStore
import FirestoreAPI
import FirestoreEngine
import FirestoreModel
import FoundationEssentials
import Functions
import HTTPServer
import PoetryBackend
import ShoutsBackend
import Synchronization

/// The composition root: reads `firebase.json`, opens the store, builds the engine and the
/// adapters, opens the ports and owns their lifecycle (docs/ARCHITECTURE.md rule 8).
public final class HearthApp: Sendable {
    /// Resolved configuration.
    public let config: FirebaseConfig
    /// The project served.
    public let project: String
    /// Where the data lives (`:memory:` when in memory).
    public let dataDescription: String
    /// The engine.
    public let engine: FirestoreEngine
    /// The emulators' clock (the engine's, the functions' and Auth's); `/emulator/v1/clock` moves it.
    public let clock: EmulatorClock
    /// Security rules state (file, hot reload, PUT endpoint, coverage, explanations).
    public let rules: RulesController
    /// Index definitions (firestore.indexes.json, the Admin API) and the missing indexes seen.
    public let indexes: IndexesController
    let firestoreServer: HTTPServer
    /// The web SDK's WebChannel sessions on the Firestore port (ended by `stop()`).
    public let webChannel: WebChannelService
    /// The in-process Functions host (the app's callables, schedules, triggers, FCM outbox).
    public let functions: FunctionsHost
    /// Nil when `firebase.json` names emulators but not `functions` (and no `--functions-port`).
    let functionsServer: HTTPServer?
    /// Runs schedules and triggers while the server runs; cancelled by `stop()`.
    let functionsTask = Mutex<Task<Void, Never>?>(nil)
    /// Drops document versions older than the retention window while the server runs, and
    /// returns free heap memory to the system (`MallocTuning.releaseFreeMemory`) after each pass.
    let versionCollector = Mutex<Task<Void, Never>?>(nil)
    /// Reload the rules and the indexes files on change.
    let watchers: [ConfigFileWatcher]
    /// Auth emulator, hub, import/export (issue 6).
    let suite: EmulatorSuite
    /// The Emulator UI (issue 15); nil when `emulators.ui.enabled` is false.
    let ui: EmulatorUI?

    /// Builds everything from `options`; nothing listens until `start()`.
    /// - Throws: `ConfigError` for configuration mistakes; `FirestoreError` when the store cannot open.
    public init(options: StartOptions) throws {
        let configPath = options.resolvedConfigPath()
        var config: FirebaseConfig
        if let configPath {
            config = try FirebaseConfig.load(path: configPath)
            if let w = config.ignoredKeysWarning { HearthLog.info(w) }
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
        if let p = options.uiPort { config.ui.port = p }
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
            store = try SQLiteDocumentStore(path: path, keepsVersions: options.versionRetention != .zero)
            dataDescription = path
        }
        try EmulatorSuite.importIfRequested(options, into: store, project: project)
        let catalog = IndexCatalog(
            requireIndexes: options.requireIndexes ?? config.requireIndexes,
            message: IndexesController.productionMessage,
            warn: { HearthLog.error($0) })
        let clock = EmulatorClock()
        self.clock = clock
        let engine = try FirestoreEngine(
            store: store, clock: clock.now,
            versionRetention: options.versionRetention ?? FirestoreEngine.defaultVersionRetention, indexes: catalog)
        self.engine = engine
        engine.onStorageTrouble { HearthLog.error("hearth: \($0)") }
        let rules = RulesController(engine: engine, log: { HearthLog.info($0) })
        self.rules = rules
        var watchers: [ConfigFileWatcher] = []
        if let file = config.rulesFile {
            try rules.loadDefault(fromFile: file)
            watchers.append(ConfigFileWatcher(path: file, role: "rules") { try rules.loadDefault(fromFile: file) })
        } else {
            HearthLog.info("hearth: no Firestore rules file in firebase.json: every request is allowed (open rules)")
        }
        if catalog.requireIndexes {
            HearthLog.info("indexes: queries lacking the index production needs are refused (--require-indexes)")
        }
        let indexes = IndexesController(engine: engine, log: { HearthLog.info($0) })
        self.indexes = indexes
        if let file = config.indexesFile {
            try indexes.loadDefault(fromFile: file)
            watchers.append(ConfigFileWatcher(path: file, role: "indexes") { try indexes.loadDefault(fromFile: file) })
        }
        self.watchers = watchers
        let requestLog = Self.requestLog("firestore", quiet: options.quiet)
        // `--quiet`: no EXPLAIN line is even formatted.
        let queryLog: (@Sendable (String) -> Void)? = options.quiet ? nil : requestLog
        // `:reset` restores what `--import` loaded (the accounts database too); without an import, empty databases.
        let snapshots = SnapshotsController(engine: engine, databases: ["(default)", DocumentUserStore.databaseID])
        if options.importPath != nil { try snapshots.saveSeed(project: project) }
        let handler = FirestorePortHandler(
            rest: FirestoreRESTService(engine: engine, queryLog: queryLog),
            admin: EmulatorAdmin(
                engine: engine, rules: rules, indexes: indexes,
                export: { (database, directory, name) throws(FirestoreError) in
                    try FirebaseCLIExport.writeFirestore(store: store, database: database, exportName: name, toDirectory: directory)
                }, snapshots: snapshots, clock: ClockController(clock: clock, log: { HearthLog.info($0) })))
        webChannel = handler.webChannel
        let grpc = FirestoreGRPCService(engine: engine, log: requestLog, queryLog: queryLog)
        var firestoreConfiguration = HTTPServerConfiguration.googleShaped(host: config.firestore.host, port: config.firestore.port)
        firestoreConfiguration.eventLoops = Self.firestoreEventLoops
        firestoreServer = HTTPServer(
            configuration: firestoreConfiguration,
            handler: handler,
            http2: HTTP2Server(handler: FirestorePortStreamHandler(grpc: grpc, rest: handler), log: { _ in }),
            log: requestLog)
        let host = FunctionsHost(project: project, engine: engine, clock: clock.now)
        if config.functionsCodebase == PoetryBackend.codebase {
            try PoetryBackend.register(into: host)
        } else {
            ShoutsBackend.register(into: host)
        }
        functions = host
        let configured = EmulatorSuite.configuredEmulators(options.resolvedConfigPath())
        var functionsHandler: FunctionsPortHandler?
        if configured == nil || configured?.contains("functions") == true || options.functionsPort != nil {
            let f = FunctionsPortHandler(host: host)
            functionsHandler = f
            functionsServer = HTTPServer(
                configuration: HTTPServerConfiguration.googleShaped(host: config.functions.host, port: config.functions.port),
                handler: f, log: Self.requestLog("functions", quiet: options.quiet))
        } else {
            functionsServer = nil
        }
        let suite = try EmulatorSuite(
            options: options, config: config, project: project, store: store, functions: host, clock: clock)
        self.suite = suite
        if config.uiEnabled {
            let events = UIEventHub(
                project: project, engine: engine, journal: rules.journal, host: host, auth: suite.authHandler?.service)
            let handler = EmulatorUIHandler(
                project: project, config: config, dataDescription: dataDescription, importedFrom: options.importPath,
                registry: suite.registry, firestore: handler, auth: suite.authHandler, functions: functionsHandler,
                rules: rules, host: host, events: events,
                export: EmulatorSuite.exporter(store: store, project: project),
                assetDirectory: ProcessInfo.processInfo.environment["HEARTH_UI_DIR"])
            ui = EmulatorUI(
                endpoint: config.ui, explicitPort: options.uiPort != nil, handler: handler, events: events,
                log: Self.requestLog("ui", quiet: options.quiet))
        } else {
            ui = nil
        }
    }

    /// The one warning line when an emulator listens beyond loopback (`--host 0.0.0.0`, a LAN
    /// address in `firebase.json`), or nil: Hearth has no production authentication, and
    /// `Authorization: Bearer owner` passes every rule, so anyone who can reach such a port can
    /// read and change all data. The default, 127.0.0.1, reaches this machine only.
    static func exposureWarning(_ config: FirebaseConfig) -> String? {
        let loopback: Set<String> = ["127.0.0.1", "::1", "localhost", "[::1]"]
        let exposed = [
            ("firestore", config.firestore), ("functions", config.functions), ("auth", config.auth), ("hub", config.hub),
            ("ui", config.ui),
        ].filter { !loopback.contains($0.1.host) && !$0.1.host.hasPrefix("127.") }
        guard !exposed.isEmpty else { return nil }
        let names = exposed.map { "\($0.0) on \($0.1.host)" }.joined(separator: ", ")
        return "hearth: warning: \(names) can be reached from other machines, and Hearth has no production "
            + "authentication (Bearer owner passes every rule): anyone who reaches these ports can read and change all data"
    }

    /// Event loops of the Firestore port: one per core, at most 4 (each is a thread and a
    /// 64 KiB read buffer). On the loops run every request's parsing and encoding and the REST
    /// reads answered inline, so a second loop lets them use the second core (issue 14).
    static let firestoreEventLoops = max(1, min(4, ProcessInfo.processInfo.activeProcessorCount))

    /// How often superseded versions past the retention window are collected.
    static let versionCollectionInterval: Duration = .seconds(10)

    static func requestLog(_ prefix: String, quiet: Bool) -> @Sendable (String) -> Void {
        if quiet { return { _ in } }
        return { HearthLog.info(prefix + " " + $0) }
    }

    /// The ports actually bound (differs from the configuration when it asked for port 0).
    public struct BoundPorts: Sendable {
        /// Firestore port.
        public var firestore: Int
        /// Functions port (callables, FCM outbox, scheduled runs); nil when Functions does not run.
        public var functions: Int?
        /// Auth emulator port; nil when Auth does not run (issue 6).
        public var auth: Int? = nil
        /// Emulator hub port (issue 6).
        public var hub: Int? = nil
        /// Emulator UI port; nil when the UI is disabled (issue 15).
        public var ui: Int? = nil
    }

    /// Opens every port and prints one line per listening endpoint.
    /// - Returns: the bound ports.
    /// - Throws: `HTTPServerError` when a port cannot be bound.
    @discardableResult
    public func start() async throws -> BoundPorts {
        let port = try firestoreServer.start()
        HearthLog.info("hearth: project \(project), data \(dataDescription)")
        if let warning = Self.exposureWarning(config) { HearthLog.error(warning) }
        HearthLog.info("firestore  http://\(config.firestore.host):\(port)  (REST v1, gRPC, Listen)")
        var functionsPort: Int?
        if let functionsServer {
            do {
                functionsPort = try functionsServer.start()
            } catch {
                await firestoreServer.shutdown()
                throw error
            }
            HearthLog.info(
                "functions  http://\(config.functions.host):\(functionsPort ?? 0)  (callables: POST /\(project)/us-central1/{name}; "
                    + "FCM outbox: /emulator/v1/projects/\(project)/fcm/outbox)")
            suite.registry.register(name: "functions", host: config.functions.host, port: functionsPort ?? 0)
        }
        let host = functions
        // Unstructured on purpose: schedules and triggers live as long as the server, not a
        // request; `stop()` cancels the task.
        functionsTask.withLock { $0 = Task { await host.run(clock: ContinuousClock()) } }
        let engine = self.engine
        // Unstructured for the same reason: collection runs as long as the server. Each pass
        // deletes in small batches, so a writer waits for one batch at most; then the memory a
        // large answer or a load left free in malloc's heaps goes back to the system.
        versionCollector.withLock {
            $0 = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: Self.versionCollectionInterval)
                    do { try engine.collectExpiredVersions() } catch { HearthLog.info("hearth: version collection failed: \(error)") }
                    MallocTuning.releaseFreeMemory()
                }
            }
        }
        let more = try await suite.start(firestorePort: port)
        var uiPort: Int?
        if let ui {
            do {
                uiPort = try ui.start()
            } catch {
                await stop()
                throw error
            }
            suite.registry.register(name: "ui", host: config.ui.host, port: uiPort ?? 0)
            HearthLog.info("ui         http://\(config.ui.host):\(uiPort ?? 0)/  (Emulator UI)")
        }
        for w in watchers { w.start() }
        HearthLog.info("hearth: ready")
        return BoundPorts(firestore: port, functions: functionsPort, auth: more.auth, hub: more.hub, ui: uiPort)
    }

    /// Stops accepting, lets in-flight requests finish, closes the database.
    public func stop() async {
        for w in watchers { w.stop() }
        await ui?.stop()
        functionsTask.withLock { $0?.cancel() }
        versionCollector.withLock { $0?.cancel() }
        await functionsServer?.shutdown()
        webChannel.shutDown()
        await firestoreServer.shutdown()
        await suite.stop()  // Auth, hub, --export-on-exit.
        engine.close()
    }
}
