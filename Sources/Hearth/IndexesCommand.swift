import FirestoreModel
import FoundationEssentials
import HTTPServer
import GoogleWire


/// `hearth indexes list|suggest|check`: the app's index definitions beside what a running
/// Hearth holds and what its queries lacked.
///
/// - `list`: the composite indexes and field overrides of `firestore.indexes.json`, then,
///   when a Hearth is running, the composite indexes it holds (Admin API list).
/// - `suggest [--out FILE]`: the app's file with the indexes the queries since the server
///   started needed and still lack added (nothing else of the file changes), as
///   `firestore.indexes.json` (stdout, or FILE, relative to the working directory).
/// - `check`: exits 1, naming each, when a query since start lacked an index the
///   configuration in force still lacks; 0 otherwise; 2 for a usage or configuration
///   mistake or when no Hearth answers.
///
/// The running server is found at `--emulator HOST:PORT`, else `FIRESTORE_EMULATOR_HOST`
/// (set by `hearth exec`), else `firebase.json`'s Firestore address. `suggest` and `check`
/// cover every project the server saw unless a project is named (`--project`, `.firebaserc`,
/// `GCLOUD_PROJECT`). Other options as `start` (`--config`).
enum IndexesCommand {
    static func run(_ arguments: [String]) async throws -> Int32 {
        guard let verb = arguments.first, ["list", "suggest", "check"].contains(verb) else {
            throw ConfigError("indexes: expected list, suggest or check")
        }
        var rest = Array(arguments.dropFirst())
        let out = take("--out", from: &rest)
        let emulator = take("--emulator", from: &rest)
        let options = try StartOptions.parse(rest)
        guard options.rest.isEmpty else { throw ConfigError("indexes \(verb): unexpected \(options.rest.joined(separator: " "))") }
        let configPath = options.resolvedConfigPath()
        let config = try configPath.map { try FirebaseConfig.load(path: $0) }
            ?? FirebaseConfig.defaults(directory: FileManager.default.currentDirectoryPath)
        let project = options.resolvedProject(configDirectory: config.directory)
        let named = options.namedProject(configDirectory: config.directory)
        let appBytes = try config.indexesFile.map { path -> [UInt8] in
            guard let data = FileManager.default.contents(atPath: path) else { throw ConfigError("\(path): cannot read the file") }
            return [UInt8](data)
        }
        let appFile: IndexConfiguration
        do {
            appFile = try appBytes.map { bytes throws(IndexesFileError) in try IndexesFile.decode(bytes, fileName: config.indexesFile ?? "") }
                ?? IndexConfiguration()
        } catch {
            throw ConfigError(error.description)
        }
        let address = emulator ?? ProcessInfo.processInfo.environment["FIRESTORE_EMULATOR_HOST"]
            ?? "\(config.firestore.host):\(config.firestore.port)"

        switch verb {
        case "list":
            print("defined in \(config.indexesFile.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "(no indexes file)"):")
            for index in appFile.indexes { print("  \(index)") }
            for o in appFile.fieldOverrides {
                let settings = o.indexes.map { "\($0.queryScope.rawValue) \($0.kind.rawValue)" }.joined(separator: ", ")
                print("  \(o.collectionGroup).\(o.fieldPath.canonical) single-field: \(settings.isEmpty ? "exempt (none)" : settings)")
            }
            if appFile.indexes.isEmpty && appFile.fieldOverrides.isEmpty { print("  (none)") }
            guard let reply = try? await get(address, "/v1/projects/\(project)/databases/(default)/collectionGroups/-/indexes") else {
                print("no Hearth running at \(address): only the file is listed")
                return 0
            }
            print("held by Hearth at \(address) (project \(project)):")
            let held = array(reply["indexes"])
            for index in held {
                if let decoded = try? AdminIndexResource.decode(index) { print("  \(decoded.index) \(decoded.state.rawValue)") }
            }
            if held.isEmpty { print("  (none)") }
            return 0
        case "suggest", "check":
            let reply: JSONValue
            let path = named.map { "/emulator/v1/projects/\($0):missingIndexes" } ?? "/emulator/v1/missingIndexes"
            do {
                reply = try await get(address, path)
            } catch let e as ConfigError {
                throw ConfigError("indexes \(verb): Hearth at \(address): \(e.description)")
            } catch {
                throw ConfigError(
                    "indexes \(verb): no Hearth answering at \(address) (\(ErrorText.describe(error))); start one, or pass --emulator HOST:PORT")
            }
            let missing = array(reply["missing"])
            if verb == "check" {
                if missing.isEmpty {
                    print("indexes: every query since start had the index production needs\(named.map { " (project \($0))" } ?? "")")
                    return 0
                }
                HearthLog.error("indexes: \(missing.count) index(es) missing; production refuses these queries:")
                for m in missing {
                    let n = text(m["queries"])
                    HearthLog.error("  \(text(m["index"])) (project \(text(m["project"])), \(n) \(n == "1" ? "query" : "queries"))")
                }
                HearthLog.error("run `hearth indexes suggest --out firestore.indexes.json` to add them")
                return 1
            }
            // The server's suggestion is its configuration plus the missing indexes; the app's
            // file keeps everything it says and gains only what is missing.
            let suggested = try IndexesFile.decode(reply["suggested"]?.serialized() ?? Array("{}".utf8), fileName: "suggestion")
            // The suggestion's overrides first: they hold the settings the misses added.
            let merged = suggested.merging(appFile)
            let text = try appBytes.map { bytes throws(IndexesFileError) in try IndexesFile.amend(bytes, adding: merged) }
                ?? IndexesFile.encode(merged)
            if let out {
                do {
                    try Data(text.utf8).write(to: URL(fileURLWithPath: out))
                } catch {
                    throw ConfigError("indexes suggest: cannot write \(out) (\(ErrorText.describe(error)))")
                }
                HearthLog.info("indexes: wrote \(out) (\(merged.indexes.count) composite, \(merged.fieldOverrides.count) field overrides; \(missing.count) added)")
            } else {
                HearthLog.output(text)
            }
            return 0
        default:
            return 2
        }
    }

    static func array(_ value: JSONValue?) -> [JSONValue] {
        if case .array(let items)? = value { return items }
        return []
    }

    static func text(_ value: JSONValue?) -> String {
        switch value {
        case .string(let s)?: return s
        case .number(let n)?: return n
        default: return "?"
        }
    }

    /// Removes `--name VALUE` (or `--name=VALUE`) from `arguments`, returning the value.
    static func take(_ name: String, from arguments: inout [String]) -> String? {
        if let i = arguments.firstIndex(where: { $0.hasPrefix(name + "=") }) {
            let v = String(arguments[i].dropFirst(name.count + 1))
            arguments.remove(at: i)
            return v
        }
        guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return nil }
        let v = arguments[i + 1]
        arguments.removeSubrange(i...(i + 1))
        return v
    }

    /// How long a request to the running server may take, in seconds: it answers these in
    /// milliseconds, so a port that accepts and never answers must not hold a CI job.
    static let requestTimeout = 5

    /// GETs `path` from the server at `address` (`host:port`, an `http://` prefix tolerated) as the owner.
    static func get(_ address: String, _ path: String) async throws -> JSONValue {
        let authority = address.hasPrefix("http://") ? String(address.dropFirst("http://".count)) : address
        guard let colon = authority.lastIndex(of: ":"), let port = Int(authority[authority.index(after: colon)...]),
            (1...65535).contains(port)
        else { throw ConfigError("bad address \(address) (expected host:port)") }
        var host = String(authority[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host == "localhost" { host = "127.0.0.1" }
        let client = LoopbackHTTPClient(host: host, port: port, timeoutSeconds: requestTimeout)
        let response = try await client.send("GET", path, headers: [("Authorization", "Bearer owner")])
        guard response.status == 200 else { throw ConfigError("\(path) answered HTTP \(response.status)") }
        return try JSONValue.parse(response.body)
    }
}
