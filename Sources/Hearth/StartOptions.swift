import FoundationEssentials
import GoogleWire

/// Options of `hearth start` (and `hearth exec`, which shares them).
///
/// `--project`, `--config <firebase.json>`, `--data <sqlite path>`, `--in-memory`, `--host`,
/// and one `--<emulator>-port` per emulator overriding `firebase.json`.
public struct StartOptions: Sendable {
    /// Project id; default from `.firebaserc` beside `firebase.json`, else `GCLOUD_PROJECT`, else `demo-project`.
    public var project: String?
    /// Path of `firebase.json`; default `./firebase.json`, else `./firebase/firebase.json`.
    public var configPath: String?
    /// SQLite file; default `.hearth/firestore.sqlite` beside `firebase.json`.
    public var dataPath: String?
    /// Keep everything in memory (nothing written to disk).
    public var inMemory = false
    /// Host to bind every emulator to, overriding `firebase.json`.
    public var host: String?
    /// Port overrides.
    public var firestorePort: Int?
    public var functionsPort: Int?
    public var authPort: Int?
    public var hubPort: Int?
    /// `--ui-port N`: the Emulator UI's port (issue 15).
    public var uiPort: Int?
    /// Suppress the one-line-per-request log (`--quiet`).
    public var quiet = false
    /// `--version-retention DURATION` (`3600`, `90s`, `30m`, `1h`, `7d`): how far back
    /// `read_time` reads reach; older versions are collected. Default one hour, as production.
    public var versionRetention: Duration?
    // Issue 6 (import/export): begin
    /// `--import DIR`: load a Hearth export before serving (replaces the databases it holds).
    public var importPath: String?
    /// `--export-on-exit [DIR]`: export on clean shutdown to DIR; `""` = the `--import` directory.
    public var exportOnExit: String?
    // Issue 6: end
    /// `--require-indexes`: refuse, as production does, queries that lack an index
    /// (`FAILED_PRECONDITION` with the console link). Nil = `firebase.json`'s
    /// `emulators.firestore.requireIndexes`, default off as the emulator.
    public var requireIndexes: Bool?
    /// Arguments left after options (for `exec`: the command after `--`).
    public var rest: [String] = []

    /// Creates default options (used by tests and embedding code).
    public init() {}

    /// Parses `arguments` (without the subcommand).
    /// - Throws: `ConfigError` naming an unknown option or a missing/invalid value.
    public static func parse(_ arguments: [String]) throws -> StartOptions {
        var o = StartOptions()
        var i = 0
        func value(_ name: String) throws -> String {
            i += 1
            guard i < arguments.count else { throw ConfigError("\(name) needs a value") }
            return arguments[i]
        }
        func port(_ name: String) throws -> Int {
            let v = try value(name)
            guard let p = Int(v), (0...65535).contains(p) else { throw ConfigError("\(name): \"\(v)\" is not a port") }
            return p
        }
        func duration(_ name: String) throws -> Duration {
            let v = try value(name)
            guard let d = parseDuration(v) else {
                throw ConfigError("\(name): \"\(v)\" is not a duration (seconds, or a number with s, m, h or d)")
            }
            return d
        }
        while i < arguments.count {
            var arg = arguments[i]
            if arg.hasPrefix("--"), let eq = arg.firstIndex(of: "=") {
                let name = String(arg[..<eq])
                let v = String(arg[arg.index(after: eq)...])
                var copy = arguments
                copy.replaceSubrange(i...i, with: [name, v])
                return try parse(copy)
            }
            switch arg {
            case "--project", "-P": o.project = try value(arg)
            case "--config", "-c": o.configPath = try value(arg)
            case "--data": o.dataPath = try value(arg)
            case "--in-memory": o.inMemory = true
            case "--require-indexes": o.requireIndexes = true
            case "--quiet", "-q": o.quiet = true
            case "--host": o.host = try value(arg)
            case "--firestore-port", "--port": o.firestorePort = try port(arg)
            case "--functions-port": o.functionsPort = try port(arg)
            case "--auth-port": o.authPort = try port(arg)
            case "--hub-port": o.hubPort = try port(arg)
            case "--ui-port": o.uiPort = try port(arg)
            case "--version-retention": o.versionRetention = try duration(arg)
            case "--import": o.importPath = try value(arg)  // issue 6
            case "--export-on-exit":  // issue 6: the directory is optional
                if i + 1 < arguments.count, !arguments[i + 1].hasPrefix("-") {
                    i += 1
                    o.exportOnExit = arguments[i]
                } else {
                    o.exportOnExit = ""
                }
            case "--":
                o.rest = Array(arguments[(i + 1)...])
                return o
            default:
                if arg.hasPrefix("-") { throw ConfigError("unknown option \(arg)") }
                arg = arguments[i]
                o.rest.append(arg)
            }
            i += 1
        }
        return o
    }

    /// `N`, `Ns`, `Nm`, `Nh` or `Nd` (N a non-negative integer) as a duration; nil otherwise.
    static func parseDuration(_ text: String) -> Duration? {
        let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3600, "d": 86400]
        var digits = Substring(text)
        var scale: Int64 = 1
        if let last = text.last, let u = units[last] {
            digits = digits.dropLast()
            scale = u
        }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let n = Int64(digits), n >= 0 else { return nil }
        let (seconds, overflow) = n.multipliedReportingOverflow(by: scale)
        return overflow ? nil : .seconds(seconds)
    }

    /// Resolves the config file path.
    func resolvedConfigPath() -> String? {
        if let c = configPath {
            var isDir = false
            if FileManager.default.fileExists(atPath: c, isDirectory: &isDir), isDir {
                return URL(fileURLWithPath: c).appendingPathComponent("firebase.json").path
            }
            return c
        }
        for candidate in ["firebase.json", "firebase/firebase.json"] where FileManager.default.fileExists(atPath: candidate) {
            return candidate
        }
        return nil
    }

    /// The project id: flag, `.firebaserc` default alias, `GCLOUD_PROJECT`, then `demo-project`.
    func resolvedProject(configDirectory: String) -> String {
        namedProject(configDirectory: configDirectory) ?? "demo-project"
    }

    /// The project the user named (flag, `.firebaserc` default alias, `GCLOUD_PROJECT`), or nil.
    func namedProject(configDirectory: String) -> String? {
        if let p = project { return p }
        let rc = URL(fileURLWithPath: configDirectory).appendingPathComponent(".firebaserc").path
        if let data = FileManager.default.contents(atPath: rc),
            case .string(let d)? = (try? JSONValue.parse(JSONValue.blankingComments(Array(data))))?["projects"]?["default"]
        {
            return d
        }
        if let env = ProcessInfo.processInfo.environment["GCLOUD_PROJECT"], !env.isEmpty { return env }
        return nil
    }
}
