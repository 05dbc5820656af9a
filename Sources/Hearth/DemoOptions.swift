/// Options of `hearth demo`: `[--config firebase.json] [--project ID] [--keep]`.
public struct DemoOptions: Sendable {
    /// Path of `firebase.json` (or its directory); default as for `hearth start`.
    public var configPath: String?
    /// Project id; default as for `hearth start` (`.firebaserc`, `GCLOUD_PROJECT`, …).
    public var project: String?
    /// Keep the emulators running after the report until SIGINT/SIGTERM.
    public var keep = false

    /// Creates default options.
    public init() {}

    /// Parses `arguments` (without the subcommand); `--name=value` is accepted too.
    /// - Throws: `ConfigError` naming an unknown option or a missing value.
    public static func parse(_ arguments: [String]) throws -> DemoOptions {
        var o = DemoOptions()
        var i = 0
        while i < arguments.count {
            var name = arguments[i]
            var inline: String?
            if name.hasPrefix("--"), let eq = name.firstIndex(of: "=") {
                inline = String(name[name.index(after: eq)...])
                name = String(name[..<eq])
            }
            func value() throws -> String {
                if let inline { return inline }
                i += 1
                guard i < arguments.count else { throw ConfigError("\(name) needs a value") }
                return arguments[i]
            }
            switch name {
            case "--config", "-c": o.configPath = try value()
            case "--project", "-P": o.project = try value()
            case "--keep": o.keep = true
            default: throw ConfigError("demo: unknown argument \(arguments[i])")
            }
            i += 1
        }
        return o
    }

    /// Options for the emulators the demo starts: in memory, quiet, every port ephemeral
    /// (port 0), so it never clashes with a running `hearth start`.
    var startOptions: StartOptions {
        var s = StartOptions()
        s.configPath = configPath
        s.project = project
        s.inMemory = true
        s.quiet = true
        s.firestorePort = 0
        s.functionsPort = 0
        s.authPort = 0
        s.hubPort = 0
        s.uiPort = 0
        return s
    }
}
