import AuthEmulator
import DocumentStore
import FirestoreEngine
import FirestoreModel
import FoundationEssentials
import Functions
import GoogleWire
import HTTPServer

/// What `HearthApp` runs beside Firestore for local-dev and CI parity (issue 6): the Auth
/// emulator, the emulator hub, `--import` and `--export-on-exit`.
///
/// Which emulators run: firebase-tools starts those named in `firebase.json`'s `emulators`
/// section, so Auth runs when that section names `auth` (or there is no `firebase.json` or no
/// `emulators` section, or `--auth-port` is given). The hub always runs; when its port was
/// not configured (`emulators.hub`, `--hub-port`) and 4400 is taken, it falls back to an
/// ephemeral port, as firebase-tools does for its hub. Source: docs/reference/firestore-wire.md §2.3, §2.4.
final class EmulatorSuite: Sendable {
    let config: FirebaseConfig
    let project: String
    let store: any DocumentStore
    let registry = EmulatorRegistry()
    let authServer: HTTPServer?
    /// The Auth emulator's handler (the UI forwards to it in-process).
    let authHandler: AuthEmulatorHandler?
    let hubServer: HTTPServer
    let hubFallback: HTTPServer?
    let exportOnExit: String?

    /// Builds the servers; nothing listens until `start`.
    /// - Throws: `ConfigError` for `--export-on-exit` without a directory and without `--import`.
    /// - Parameters:
    ///   - functions: the functions host, whose triggers the hub turns on and off.
    ///   - clock: the emulators' clock, which Auth's token and sign-in times follow.
    init(
        options: StartOptions, config: FirebaseConfig, project: String, store: any DocumentStore,
        functions: FunctionsHost? = nil, clock: EmulatorClock = EmulatorClock()
    ) throws {
        self.config = config
        self.project = project
        self.store = store
        let configured = Self.configuredEmulators(options.resolvedConfigPath())
        let log = HearthApp.requestLog("auth", quiet: options.quiet)
        if configured == nil || configured?.contains("auth") == true || options.authPort != nil {
            let service = AuthService(
                store: DocumentUserStore(store: store, clock: FirestoreEngine.systemClock), defaultProject: project,
                clock: { Date(timeIntervalSince1970: Double(clock.now().microseconds) / 1_000_000) })
            let handler = AuthEmulatorHandler(service: service, log: { HearthLog.info($0) })
            authHandler = handler
            authServer = HTTPServer(
                configuration: HTTPServerConfiguration.googleShaped(host: config.auth.host, port: config.auth.port),
                handler: handler, log: log)
        } else {
            authServer = nil
            authHandler = nil
        }
        let registry = self.registry
        var hub = HubHandler(registry: registry, export: Self.exporter(store: store, project: project))
        if let functions {
            hub.setBackgroundTriggers = { functions.setBackgroundTriggers(enabled: $0) }
            hub.triggerStatus = {
                guard case .object(let members) = functions.triggerStats.json else { return .object([]) }
                return .object([.init("enabled", .bool(functions.backgroundTriggersEnabled))] + members)
            }
        }
        let hubLog = HearthApp.requestLog("hub", quiet: options.quiet)
        hubServer = HTTPServer(
            configuration: HTTPServerConfiguration.googleShaped(host: config.hub.host, port: config.hub.port), handler: hub,
            log: hubLog)
        let hubExplicit = configured?.contains("hub") == true || options.hubPort != nil
        hubFallback =
            hubExplicit || config.hub.port == 0
            ? nil
            : HTTPServer(
                configuration: HTTPServerConfiguration.googleShaped(host: config.hub.host, port: 0), handler: hub, log: hubLog)
        if let dir = options.exportOnExit {
            guard let resolved = dir.isEmpty ? options.importPath : dir else {
                throw ConfigError("--export-on-exit needs a directory (or --import DIR to export back to)")
            }
            exportOnExit = resolved
        } else {
            exportOnExit = nil
        }
    }

    /// Loads `options.importPath` into `store` (before the engine opens it): a Firebase CLI
    /// export (`FirebaseCLIExport`; its accounts go to `project`) or a Hearth format 1 export.
    /// - Throws: `HearthExport.Failure` naming what could not be read.
    static func importIfRequested(_ options: StartOptions, into store: any DocumentStore, project: String) throws {
        guard let dir = options.importPath else { return }
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDirectory), isDirectory else {
            throw HearthExport.Failure(description: "\(dir): no such export folder (--import)")
        }
        let cli = FirebaseCLIExport.isCLIExport(dir)
        let summary =
            cli
            ? try FirebaseCLIExport.read(from: dir, into: store, project: project)
            : try HearthExport.read(from: dir, into: store)
        HearthLog.info("hearth: imported \(summary.description) from \(dir)\(cli ? " (Firebase CLI export)" : " (Hearth export)")")
    }

    /// Binds Auth and the hub, registers every emulator with the hub and prints one line each.
    /// - Returns: the bound Auth port (nil when Auth does not run) and hub port.
    /// - Throws: `HTTPServerError` when a configured port cannot be bound.
    func start(firestorePort: Int) async throws -> (auth: Int?, hub: Int) {
        registry.register(name: "firestore", host: config.firestore.host, port: firestorePort)
        var authPort: Int?
        if let authServer {
            let port = try authServer.start()
            authPort = port
            registry.register(name: "auth", host: config.auth.host, port: port)
            HearthLog.info("auth       http://\(config.auth.host):\(port)  (Auth emulator)")
        }
        let hubPort: Int
        do {
            hubPort = try hubServer.start()
        } catch HTTPServerError.addressInUse(let host, let port) where hubFallback != nil {
            HearthLog.info("hub: \(host):\(port) is in use; the hub listens on an ephemeral port instead")
            do {
                hubPort = try hubFallback?.start() ?? 0
            } catch {
                await authServer?.shutdown()
                throw error
            }
        } catch {
            await authServer?.shutdown()
            throw error
        }
        registry.register(name: "hub", host: config.hub.host, port: hubPort)
        HearthLog.info("hub        http://\(config.hub.host):\(hubPort)  (emulator hub: GET /emulators)")
        return (authPort, hubPort)
    }

    /// Stops Auth and the hub, then writes the `--export-on-exit` export (before the store closes).
    func stop() async {
        await authServer?.shutdown()
        await hubServer.shutdown()
        await hubFallback?.shutdown()
        guard let dir = exportOnExit else { return }
        do {
            let summary = try Self.exporter(store: store, project: project)(dir)
            HearthLog.info("hearth: exported \(summary.description) to \(dir)")
        } catch {
            HearthLog.error("hearth: export to \(dir) failed: \(error)")
        }
    }

    /// Writes a Firebase CLI export (`FirebaseCLIExport`) of the running project (its
    /// `(default)` database and its Auth users) to a directory: what the hub's `/_admin/export`,
    /// the UI's export and `--export-on-exit` write.
    static func exporter(store: any DocumentStore, project: String)
        -> @Sendable (String) throws -> HearthExport.Summary
    {
        return { path in try FirebaseCLIExport.write(store: store, project: project, to: path) }
    }

    /// The keys of `firebase.json`'s `emulators` section; nil without a file or a section.
    static func configuredEmulators(_ path: String?) -> Set<String>? {
        guard let path, let data = FileManager.default.contents(atPath: path),
            case .object(let emulators)? = (try? JSONValue.parse(JSONValue.blankingComments(Array(data))))?["emulators"]
        else { return nil }
        return Set(emulators.map(\.key))
    }
}
