import DocumentStore
import FirestoreModel
import FoundationEssentials

/// `hearth export <dir> [--format firebase|hearth] [--config firebase.json] [--data FILE]
/// [--project ID] [--database ID]…`: writes the data file's Firestore documents and Auth
/// accounts offline (it opens the SQLite file itself; a running Hearth may keep serving it,
/// WAL readers do not block). `--format firebase` (the default) writes the Firebase CLI's
/// folder (`FirebaseCLIExport`: the project's `(default)` database and its accounts);
/// `--format hearth` writes `HearthExport` format 1, which also takes each `--database`
/// (`ID` in the project, or `PROJECT/ID`).
public enum ExportCommand {
    /// Runs `arguments` (everything after `export`).
    /// - Returns: 0 on success.
    /// - Throws: `ConfigError` for a missing directory or data file; `HearthExport.Failure`,
    ///   `FirestoreError` when reading or writing fails.
    public static func run(_ arguments: [String]) throws -> Int32 {
        var rest: [String] = []
        var extra: [String] = []
        var format = "firebase"
        var i = 0
        while i < arguments.count {
            if arguments[i] == "--format" || arguments[i].hasPrefix("--format=") {
                let inline = arguments[i].hasPrefix("--format=")
                guard inline || i + 1 < arguments.count else { throw ConfigError("--format needs a value: firebase or hearth") }
                format = inline ? String(arguments[i].dropFirst("--format=".count)) : arguments[i + 1]
                guard format == "firebase" || format == "hearth" else {
                    throw ConfigError("--format \(format): expected firebase (the Firebase CLI's folder) or hearth")
                }
                i += inline ? 1 : 2
            } else if arguments[i] == "--database" {
                guard i + 1 < arguments.count else { throw ConfigError("--database needs a value") }
                extra.append(arguments[i + 1])
                i += 2
            } else if arguments[i].hasPrefix("--database=") {
                extra.append(String(arguments[i].dropFirst("--database=".count)))
                i += 1
            } else {
                rest.append(arguments[i])
                i += 1
            }
        }
        let options = try StartOptions.parse(rest)
        guard options.rest.count == 1, let directory = options.rest.first else {
            throw ConfigError(
                "usage: hearth export <dir> [--format firebase|hearth] [--config firebase.json] [--data FILE] [--project ID] [--database ID]")
        }
        let configPath = options.resolvedConfigPath()
        let config =
            try configPath.map(FirebaseConfig.load(path:))
            ?? FirebaseConfig.defaults(directory: FileManager.default.currentDirectoryPath)
        let project = options.resolvedProject(configDirectory: config.directory)
        let dataPath =
            options.dataPath
            ?? URL(fileURLWithPath: config.directory).appendingPathComponent(".hearth/firestore.sqlite").path
        guard FileManager.default.fileExists(atPath: dataPath) else {
            throw ConfigError("no data file at \(dataPath) (give --data FILE or --config firebase.json)")
        }
        if format == "firebase", !extra.isEmpty {
            throw ConfigError(
                "--database: the Firebase CLI's export holds one project's (default) database; use --format hearth for more")
        }
        var databases = [DatabaseID(project: project)]
        for e in extra {
            let parts = e.split(separator: "/", maxSplits: 1).map(String.init)
            databases.append(
                parts.count == 2
                    ? DatabaseID(project: parts[0], database: parts[1]) : DatabaseID(project: project, database: e))
        }
        let store = try SQLiteDocumentStore(path: dataPath)
        defer { store.close() }
        let summary =
            format == "firebase"
            ? try FirebaseCLIExport.write(store: store, project: project, to: directory)
            : try HearthExport.write(
                store: store, databases: databases, authProjects: Array(Set(databases.map(\.project))).sorted(),
                rulesFile: config.rulesFile, to: directory)
        HearthLog.info("hearth: exported \(summary.description) from \(dataPath) to \(directory)")
        return 0
    }
}
