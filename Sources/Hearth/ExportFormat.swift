import AuthEmulator
import DocumentStore
import FirestoreAPI
import FirestoreEngine
import FirestoreModel
import FoundationEssentials
import GoogleWire

/// Hearth's export directory (`hearth export`, `--export-on-exit`, `--import`, hub
/// `POST /_admin/export`), format 1 — human-readable, diffable, exact:
///
/// ```
/// DIR/firebase-export-metadata.json      what is inside (below)
/// DIR/firestore/{project}/{database}.jsonl  one stored document per line
/// DIR/auth/{project}.json                the Auth accounts and settings of a project
/// ```
///
/// Each `.jsonl` line is the document exactly as Firestore REST v1 returns it —
/// `{"name":"projects/p/databases/d/documents/…","fields":{…},"createTime":"…","updateTime":"…"}`
/// — in the proto3 JSON value encoding of `RESTCodec.encodeValue` (int64 as decimal strings,
/// doubles in shortest round-trip form with `"NaN"`/`"Infinity"`/`"-Infinity"`, timestamps RFC
/// 3339 to the nanosecond, bytes as padded base64, references as full names, geo points,
/// nested maps and arrays). Every stored value therefore comes back identical, `createTime`
/// and `updateTime` included. (Stored data never holds `-0.0`: writes store it as `0.0`, as
/// the emulator does; NaN payload bits are not kept, NaN is NaN.) Documents are listed
/// depth-first, collections and documents in `__name__` order; "missing" documents (no data,
/// only sub-collections) have no line — their descendants do.
///
/// The metadata file:
/// `{"version":"hearth","hearth":{"format":1},"firestore":{"path":"firestore","databases":[{"project","database","file","documents"}]},"auth":{"path":"auth","projects":[{"project","file","users"}]},"rules":{"file":…}}`;
/// `rules.file` (the rules in force when exporting, relative to DIR when possible) is
/// informational: import takes rules from `firebase.json`. The auth file is
/// `{"kind":"identitytoolkit#DownloadAccountResponse","users":[UserInfo…],"config":{…}}` —
/// the `accounts:batchGet` shape; password hashes are salted PBKDF2, never passwords.
///
/// Hearth's default export is now the Firebase CLI's folder (`FirebaseCLIExport`); this format
/// stays readable by `--import` and is written by `hearth export --format hearth` (it alone keeps
/// document times and several projects or databases).
public enum HearthExport {
    /// The metadata file name (as firebase-tools names it).
    public static let metadataFile = "firebase-export-metadata.json"
    /// The format version written and accepted.
    public static let format = 1

    /// What an export or import moved.
    public struct Summary: Sendable, Equatable {
        /// Documents per database.
        public var documents: [DatabaseID: Int] = [:]
        /// Accounts per project.
        public var users: [String: Int] = [:]

        /// One line: `3 databases, 120 documents, 4 accounts`.
        public var description: String {
            "\(documents.count) database\(documents.count == 1 ? "" : "s"), \(documents.values.reduce(0, +)) documents, "
                + "\(users.values.reduce(0, +)) accounts"
        }
    }

    /// Why an export or import failed: the path and what was wrong.
    public struct Failure: Error, CustomStringConvertible {
        /// The message.
        public var description: String
    }

    /// Writes `databases` and the accounts of `authProjects` from `store` into `directory`,
    /// replacing it: the files go to a temporary sibling folder renamed over `directory` at the
    /// end, so a crash leaves the old folder or the whole new one.
    /// - Parameter rulesFile: the rules file in force, recorded for reference.
    /// - Throws: `Failure` naming the file that could not be written; `FirestoreError` when the
    ///   store fails; `AuthError` when account storage fails.
    @discardableResult
    public static func write(
        store: any DocumentStore, databases: [DatabaseID], authProjects: [String], rulesFile: String?,
        to directory: String
    ) throws -> Summary {
        let target = URL(fileURLWithPath: directory).standardizedFileURL
        let root = target.deletingLastPathComponent().appendingPathComponent(
            ".\(target.lastPathComponent).hearth-\(AutoID.make())")
        defer { try? FileManager.default.removeItem(at: root) }
        var summary = Summary()
        var databaseEntries: [JSONValue] = []
        let snapshot = try store.snapshot()
        defer { snapshot.close() }
        for db in databases {
            let relative = "firestore/\(try fileName(db.project))/\(try fileName(db.database)).jsonl"
            var text: [UInt8] = []
            var count = 0
            try snapshot.forEachDocument(in: db) { doc in
                RESTCodec.encodeDocument(doc, database: db).write(into: &text)
                text.append(0x0A)
                count += 1
            }
            try writeFile(text, root.appendingPathComponent(relative))
            summary.documents[db] = count
            databaseEntries.append(
                .object([
                    .init("project", .string(db.project)), .init("database", .string(db.database)),
                    .init("file", .string(relative)), .init("documents", .integer(count)),
                ]))
        }
        var authEntries: [JSONValue] = []
        let users = DocumentUserStore(store: store, clock: FirestoreEngine.systemClock)
        for project in authProjects {
            let relative = "auth/\(try fileName(project)).json"
            let accounts = try users.users(in: project)
            let body: JSONValue = .object([
                .init("kind", .string("identitytoolkit#DownloadAccountResponse")),
                .init("users", .array(accounts.map(\.json))), .init("config", try users.config(in: project).json),
            ])
            try writeFile(body.serialized() + [0x0A], root.appendingPathComponent(relative))
            summary.users[project] = accounts.count
            authEntries.append(
                .object([
                    .init("project", .string(project)), .init("file", .string(relative)),
                    .init("users", .integer(accounts.count)),
                ]))
        }
        var metadata: [JSONValue.Member] = [
            .init("version", .string("hearth")), .init("hearth", .object([.init("format", .integer(format))])),
            .init(
                "firestore",
                .object([.init("path", .string("firestore")), .init("databases", .array(databaseEntries))])),
            .init("auth", .object([.init("path", .string("auth")), .init("projects", .array(authEntries))])),
        ]
        if let rulesFile {
            metadata.append(.init("rules", .object([.init("file", .string(relativePath(rulesFile, from: target.path)))])))
        }
        try writeFile(JSONValue.object(metadata).serialized() + [0x0A], root.appendingPathComponent(metadataFile))
        try FirebaseCLIExport.replace(target, with: root)
        return summary
    }

    /// Loads the export in `directory` into `store`: each database it holds is cleared and
    /// refilled with its documents, times included; each project's accounts are replaced.
    /// Every file is read and decoded before anything changes, so a bad one loads nothing.
    /// The store's last commit time becomes at least the newest imported time, so later
    /// commits sort after every imported document.
    /// - Throws: `Failure` naming the file and line that could not be read or decoded.
    @discardableResult
    public static func read(from directory: String, into store: any DocumentStore) throws -> Summary {
        let root = URL(fileURLWithPath: directory)
        let metadataURL = root.appendingPathComponent(metadataFile)
        let metadata = try parseJSON(try readFile(metadataURL), metadataURL.path)
        guard case .number(let f)? = metadata["hearth"]?["format"], Int(f) == format else {
            throw Failure(
                description:
                    "\(metadataURL.path): not a Hearth export (format \(format)); firebase-tools exports cannot be imported"
            )
        }
        // 1. Decode everything.
        var databases: [(DatabaseID, [Document])] = []
        if case .array(let entries)? = metadata["firestore"]?["databases"] {
            for entry in entries {
                guard case .string(let project)? = entry["project"], case .string(let database)? = entry["database"],
                    case .string(let file)? = entry["file"]
                else {
                    throw Failure(
                        description: "\(metadataURL.path): a firestore.databases entry lacks project, database or file")
                }
                let db = DatabaseID(project: project, database: database)
                databases.append((db, try readDocuments(root.appendingPathComponent(file), db)))
            }
        }
        var accounts: [(project: String, users: [UserRecord], config: AuthProjectConfig?)] = []
        if case .array(let entries)? = metadata["auth"]?["projects"] {
            for entry in entries {
                guard case .string(let project)? = entry["project"], case .string(let file)? = entry["file"] else {
                    throw Failure(description: "\(metadataURL.path): an auth.projects entry lacks project or file")
                }
                let url = root.appendingPathComponent(file)
                let body = try parseJSON(try readFile(url), url.path)
                var users: [UserRecord] = []
                if case .array(let list)? = body["users"] {
                    for u in list {
                        do throws(AuthError) {
                            users.append(try UserRecord(json: u))
                        } catch {
                            throw Failure(description: "\(url.path): \(error.message)")
                        }
                    }
                }
                var settings: AuthProjectConfig?
                if let c = body["config"], let config = try? AuthRequestBody(json: c) {
                    var s = AuthProjectConfig()
                    s.apply(config)
                    settings = s
                }
                accounts.append((project, users, settings))
            }
        }
        // 2. Apply.
        var summary = Summary()
        for (db, docs) in databases {
            // One store transaction per database, at the newest imported time or now.
            var at = FirestoreEngine.systemClock()
            for d in docs { at = max(at, max(d.updateTime, d.createTime)) }
            try store.replaceAll(in: db, with: docs, at: at)
            summary.documents[db] = docs.count
        }
        let users = DocumentUserStore(store: store, clock: FirestoreEngine.systemClock)
        for entry in accounts {
            try users.deleteAll(in: entry.project)
            for u in entry.users { try users.put(u, in: entry.project) }
            if let config = entry.config { try users.setConfig(config, in: entry.project) }
            summary.users[entry.project] = entry.users.count
        }
        return summary
    }

    /// The documents of one `.jsonl` file.
    /// - Throws: `Failure` naming the file and line.
    static func readDocuments(_ url: URL, _ db: DatabaseID) throws -> [Document] {
        let bytes = try readFile(url)
        var docs: [Document] = []
        var line = 0
        for raw in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            line += 1
            if raw.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) { continue }
            do throws(FirestoreError) {
                let json = try JSONValue.parse(Array(raw))
                guard case .string(let name)? = json["name"], let create = json["createTime"],
                    let update = json["updateTime"]
                else { throw .invalidArgument("a document needs name, createTime and updateTime") }
                docs.append(
                    Document(
                        path: try RESTCodec.decodeDocumentName(name, database: db, at: "name"),
                        fields: try RESTCodec.decodeFields(json["fields"], at: "fields"),
                        createTime: try RESTCodec.decodeTimestamp(create, at: "createTime"),
                        updateTime: try RESTCodec.decodeTimestamp(update, at: "updateTime")))
            } catch {
                throw Failure(description: "\(url.path):\(line): \(error.message)")
            }
        }
        return docs
    }

    /// A project or database id as a file name; rejects ids that would escape the directory.
    /// - Throws: `Failure` for an empty id, `.`/`..`, or one containing `/` or NUL.
    static func fileName(_ id: String) throws -> String {
        guard !id.isEmpty, id != ".", id != "..", !id.contains("/"), !id.contains("\0") else {
            throw Failure(description: "cannot export \"\(id)\": not usable as a file name")
        }
        return id
    }

    static func writeFile(_ bytes: [UInt8], _ url: URL) throws {
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url, options: .atomic)
        } catch {
            throw Failure(description: "\(url.path): cannot write: \(ErrorText.describe(error))")
        }
    }

    static func readFile(_ url: URL) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw Failure(description: "\(url.path): cannot read the file")
        }
        return Array(data)
    }

    static func parseJSON(_ bytes: [UInt8], _ path: String) throws -> JSONValue {
        do {
            return try JSONValue.parse(bytes)
        } catch {
            throw Failure(description: "\(path): \(error.message)")
        }
    }

    /// `path` relative to the directory `base` when it lies beneath a common ancestor
    /// (`../firebase/firestore.rules`); absolute otherwise.
    static func relativePath(_ path: String, from base: String) -> String {
        let target = URL(fileURLWithPath: path).standardizedFileURL.pathComponents
        let from = URL(fileURLWithPath: base).standardizedFileURL.pathComponents
        var common = 0
        while common < min(target.count, from.count) && target[common] == from[common] { common += 1 }
        guard common > 1 else { return path }
        return (Array(repeating: "..", count: from.count - common) + target[common...]).joined(separator: "/")
    }
}
