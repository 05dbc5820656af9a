import DocumentStore
import FirestoreModel
import FoundationEssentials

/// `hearth export <dir> [--config firebase.json] [--data FILE] [--project ID] [--database ID]…`:
/// writes the data file's Firestore documents and Auth accounts in `HearthExport` format,
/// offline (it opens the SQLite file itself; a running Hearth may keep serving it, WAL readers
/// do not block). The project's `(default)` database is exported, plus each `--database`
/// (`ID` in the project, or `PROJECT/ID`).
public enum ExportCommand {
    /// Runs `arguments` (everything after `export`).
    /// - Returns: 0 on success.
    /// - Throws: `ConfigError` for a missing directory or data file; `HearthExport.Failure`,
    ///   `FirestoreError` when reading or writing fails.
    public static func run(_ arguments: [String]) throws -> Int32 {
        var rest: [String] = []
        var extra: [String] = []
        var i = 0
        while i < arguments.count {
            if arguments[i] == "--database" {
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
                "usage: hearth export <dir> [--config firebase.json] [--data FILE] [--project ID] [--database ID]")
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
        var databases = [DatabaseID(project: project)]
        for e in extra {
            let parts = e.split(separator: "/", maxSplits: 1).map(String.init)
            databases.append(
                parts.count == 2
                    ? DatabaseID(project: parts[0], database: parts[1]) : DatabaseID(project: project, database: e))
        }
        let store = try SQLiteDocumentStore(path: dataPath)
        defer { store.close() }
        let summary = try HearthExport.write(
            store: store, databases: databases, authProjects: Array(Set(databases.map(\.project))).sorted(),
            rulesFile: config.rulesFile, to: directory)
        HearthLog.info("hearth: exported \(summary.description) from \(dataPath) to \(directory)")
        return 0
    }
}
