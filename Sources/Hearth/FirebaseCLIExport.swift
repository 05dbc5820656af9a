import AuthEmulator
import DocumentStore
import FirestoreEngine
import FirestoreModel
import FoundationEssentials
import GoogleWire
import ProtoWire

/// The export folder of the Firebase CLI (`firebase emulators:export DIR`, `--import DIR`,
/// `--export-on-exit`), which is Hearth's default export format:
///
/// ```
/// DIR/firebase-export-metadata.json
///     {"version": "<cli>", "firestore": {"version", "path": "firestore_export",
///      "metadata_file": "firestore_export/firestore_export.overall_export_metadata"},
///      "auth": {"version", "path": "auth_export"}}
/// DIR/firestore_export/firestore_export.overall_export_metadata
/// DIR/firestore_export/all_namespaces/all_kinds/all_namespaces_all_kinds.export_metadata
/// DIR/firestore_export/all_namespaces/all_kinds/output-0       one EntityProto per document
/// DIR/auth_export/accounts.json   {"kind": "identitytoolkit#DownloadAccountResponse", "users": […]}
/// DIR/auth_export/config.json     {"signIn": {"allowDuplicateEmails": …}, …}
/// ```
///
/// The Firestore part is what the official emulator's `POST /emulator/v1/projects/{p}:export`
/// writes (`ManagedExportMetadata`, `ManagedExportEntity`, `LevelDBLog`), so the official
/// emulator imports Hearth's folder (`--seed_from_export`) and Hearth imports the emulator's and
/// the CLI's. The format keeps a project's `(default)` database and its Auth accounts;
/// document create and update times are not part of it (imported documents get the import's
/// time), timestamps keep microseconds. Accounts keep Hearth's salted hashes, so an account
/// created in Hearth keeps its uid, email, providers and claims in the official emulator, but
/// not its password; accounts the Auth emulator exported (`fakeHash:…`) sign in to Hearth
/// with their passwords.
///
/// Writing goes to a sibling temporary folder renamed over `DIR` at the end, so a crash never
/// leaves half an export. Reading decodes everything before it changes anything, so a corrupt
/// or partial folder loads nothing; the error names the file and the record.
/// Source: firebase-tools `src/emulator/hubExport.ts` (layout, metadata, auth files);
/// docs/reference/firestore-wire.md §2.5; recorded in `Tests/Conformance/cli_export/`.
public enum FirebaseCLIExport {
    static let firestorePath = "firestore_export"
    static let overallFile = "firestore_export.overall_export_metadata"
    static let kindDirectory = "all_namespaces/all_kinds"
    static let kindFile = "all_namespaces_all_kinds.export_metadata"
    static let authPath = "auth_export"
    /// The version Hearth writes as the CLI's and the emulator's (firebase-tools reads but does not check them).
    static let writerVersion = "hearth"

    /// True when `directory` holds a Firebase CLI export: a metadata file that is not Hearth's
    /// own format, or no metadata file but a `firestore_export/` folder or an
    /// `.overall_export_metadata` file (the emulator's own export folder).
    public static func isCLIExport(_ directory: String) -> Bool {
        let root = URL(fileURLWithPath: directory)
        let metadata = root.appendingPathComponent(HearthExport.metadataFile).path
        if let data = FileManager.default.contents(atPath: metadata), let json = try? JSONValue.parse(Array(data)) {
            return json["hearth"] == nil
        }
        return overallMetadata(in: root) != nil
    }

    /// The `.overall_export_metadata` file of a folder without `firebase-export-metadata.json`:
    /// in it, or in its `firestore_export/`.
    static func overallMetadata(in root: URL) -> URL? {
        for folder in [root, root.appendingPathComponent(firestorePath)] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            if let name = names.sorted().first(where: { $0.hasSuffix(".overall_export_metadata") }) {
                return folder.appendingPathComponent(name)
            }
        }
        return nil
    }

    // MARK: Writing

    /// Writes the `(default)` database of `project` and its Auth accounts to `directory`,
    /// replacing what was there (through a temporary sibling folder and a rename).
    /// - Throws: `HearthExport.Failure` naming the file that could not be written;
    ///   `FirestoreError` when the store fails; `AuthError` when account storage fails.
    @discardableResult
    public static func write(store: any DocumentStore, project: String, to directory: String) throws -> HearthExport.Summary {
        let target = URL(fileURLWithPath: directory).standardizedFileURL
        let parent = target.deletingLastPathComponent()
        let temporary = parent.appendingPathComponent(".\(target.lastPathComponent).hearth-\(AutoID.make())")
        defer { try? FileManager.default.removeItem(at: temporary) }
        let db = DatabaseID(project: project)
        let count = try writeFirestore(store: store, database: db, exportName: firestorePath, into: temporary)
        let users = DocumentUserStore(store: store, clock: FirestoreEngine.systemClock)
        let accounts = try users.users(in: project)
        let auth = temporary.appendingPathComponent(authPath)
        let accountsBody: JSONValue = .object([
            .init("kind", .string("identitytoolkit#DownloadAccountResponse")), .init("users", .array(accounts.map(\.json))),
        ])
        try HearthExport.writeFile(accountsBody.serialized() + [0x0A], auth.appendingPathComponent("accounts.json"))
        try HearthExport.writeFile(
            try users.config(in: project).json.serialized() + [0x0A], auth.appendingPathComponent("config.json"))

        let metadata: JSONValue = .object([
            .init("version", .string(writerVersion)),
            .init(
                "firestore",
                .object([
                    .init("version", .string(writerVersion)), .init("path", .string(firestorePath)),
                    .init("metadata_file", .string("\(firestorePath)/\(overallFile)")),
                ])),
            .init("auth", .object([.init("version", .string(writerVersion)), .init("path", .string(authPath))])),
        ])
        try HearthExport.writeFile(
            metadata.serialized() + [0x0A], temporary.appendingPathComponent(HearthExport.metadataFile))
        try replace(target, with: temporary)
        var summary = HearthExport.Summary()
        summary.documents[db] = count
        summary.users[project] = accounts.count
        return summary
    }

    /// Writes the managed export of `database` as the emulator's `:export` does: the folder
    /// `exportName` in `directory` with its overall metadata file, one kind group and `output-0`.
    /// - Returns: the documents written.
    /// - Throws: `HearthExport.Failure` naming the file that could not be written; `FirestoreError`.
    public static func writeFirestore(
        store: any DocumentStore, database db: DatabaseID, exportName: String, into directory: URL
    ) throws -> Int {
        let start = FirestoreEngine.systemClock()
        var output = LevelDBLog.Writer()
        var count = 0
        let snapshot = try store.snapshot()
        do {
            defer { snapshot.close() }
            try snapshot.forEachDocument(in: db) { doc in
                output.append(ManagedExportEntity.encode(path: doc.path, fields: doc.fields, database: db))
                count += 1
            }
        }
        let firestore = directory.appendingPathComponent(exportName)
        let kinds = firestore.appendingPathComponent(kindDirectory)
        try HearthExport.writeFile(output.bytes, kinds.appendingPathComponent("output-0"))
        try HearthExport.writeFile(
            ManagedExportMetadata.kind(
                exportName: exportName, startMicros: start.microseconds,
                endMicros: FirestoreEngine.systemClock().microseconds, outputFiles: ["output-0"]),
            kinds.appendingPathComponent(kindFile))
        try HearthExport.writeFile(
            ManagedExportMetadata.overall([
                .init(metadataPath: "\(kindDirectory)/\(kindFile)", entityCount: Int64(count), byteCount: Int64(output.bytes.count))
            ]),
            firestore.appendingPathComponent("\(exportName).overall_export_metadata"))
        return count
    }

    /// `writeFirestore` for the Firestore port's `POST …:export` (`EmulatorAdmin.export`).
    /// - Throws: `.failedPrecondition` "export_directory must be a directory" (the emulator's
    ///   words) when `directory` is not an existing directory; `.internal` when writing fails.
    static func writeFirestore(
        store: any DocumentStore, database: DatabaseID, exportName: String, toDirectory directory: String
    ) throws(FirestoreError) {
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory else {
            throw FirestoreError(.failedPrecondition, "export_directory must be a directory")
        }
        do {
            _ = try writeFirestore(
                store: store, database: database, exportName: exportName, into: URL(fileURLWithPath: directory))
        } catch let error as FirestoreError {
            throw error
        } catch {
            throw FirestoreError(.internalError, "Export failed: \(error)")
        }
    }

    /// Moves `temporary` to `target`; an existing `target` is moved aside first and removed
    /// after, so `target` is always either the old folder or the whole new one.
    static func replace(_ target: URL, with temporary: URL) throws {
        let fm = FileManager.default
        var isDirectory = false
        if fm.fileExists(atPath: target.path, isDirectory: &isDirectory) {
            // Replace an export, or an empty folder, never something else (`/tmp`, a project).
            let names = isDirectory ? ((try? fm.contentsOfDirectory(atPath: target.path)) ?? []) : ["?"]
            guard names.isEmpty || names.contains(HearthExport.metadataFile) else {
                throw HearthExport.Failure(
                    description: "\(target.path): not replaced: it is \(isDirectory ? "a folder that is not an export" : "a file") "
                        + "(no \(HearthExport.metadataFile)); choose a new or an empty folder")
            }
        }
        let old = target.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent).old-\(AutoID.make())")
        do {
            if fm.fileExists(atPath: target.path) { try fm.moveItem(at: target, to: old) }
            try fm.moveItem(at: temporary, to: target)
            try? fm.removeItem(at: old)
        } catch {
            if !fm.fileExists(atPath: target.path), fm.fileExists(atPath: old.path) { try? fm.moveItem(at: old, to: target) }
            throw HearthExport.Failure(description: "\(target.path): cannot write the export: \(ErrorText.describe(error))")
        }
    }

    // MARK: Reading

    /// What a folder holds, decoded.
    struct Contents {
        var documents: [DatabaseID: [ResourcePath: FieldMap]] = [:]
        var accounts: [UserRecord]?
        var authConfig: AuthProjectConfig?
    }

    /// Loads the folder into `store` as `project`'s data, whatever project the entities' keys
    /// name (the official emulator serves a seed that way): each database they name is cleared
    /// and refilled (at the import's time); the accounts and settings of `project` are replaced
    /// when the folder has an `auth_export`.
    /// - Throws: `HearthExport.Failure` naming the file (and the record, for entities) that
    ///   could not be read; nothing is changed then.
    @discardableResult
    public static func read(from directory: String, into store: any DocumentStore, project: String) throws
        -> HearthExport.Summary
    {
        let contents = try decode(directory, project: project)
        let now = FirestoreEngine.systemClock()
        var summary = HearthExport.Summary()
        for (db, docs) in contents.documents.sorted(by: { $0.key.name < $1.key.name }) {
            // One store transaction per database: a crash leaves the old data or all the new.
            let all = docs.sorted { $0.key < $1.key }.map {
                Document(path: $0.key, fields: $0.value, createTime: now, updateTime: now)
            }
            try store.replaceAll(in: db, with: all, at: now)
            summary.documents[db] = all.count
        }
        if let accounts = contents.accounts {
            let users = DocumentUserStore(store: store, clock: FirestoreEngine.systemClock)
            try users.deleteAll(in: project)
            for u in accounts { try users.put(u, in: project) }
            if let config = contents.authConfig { try users.setConfig(config, in: project) }
            summary.users[project] = accounts.count
        }
        return summary
    }

    /// Decodes the whole folder without touching any store.
    static func decode(_ directory: String, project: String) throws -> Contents {
        let root = URL(fileURLWithPath: directory)
        let fm = FileManager.default
        var firestoreMetadata: URL?
        var authDirectory: String? = authPath
        let metadataURL = root.appendingPathComponent(HearthExport.metadataFile)
        var isDirectory = false
        guard fm.fileExists(atPath: root.path, isDirectory: &isDirectory), isDirectory else {
            throw HearthExport.Failure(description: "\(root.path): no such export folder")
        }
        if fm.fileExists(atPath: metadataURL.path) {
            let metadata = try HearthExport.parseJSON(try HearthExport.readFile(metadataURL), metadataURL.path)
            guard case .object = metadata, metadata["firestore"] != nil || metadata["auth"] != nil else {
                throw HearthExport.Failure(
                    description: "\(metadataURL.path): not an export's metadata (an object naming firestore or auth)")
            }
            authDirectory = nil
            if case .string(let file)? = metadata["firestore"]?["metadata_file"] {
                firestoreMetadata = root.appendingPathComponent(file)
            } else if metadata["firestore"] != nil {
                throw HearthExport.Failure(description: "\(metadataURL.path): firestore.metadata_file is missing")
            }
            if case .string(let path)? = metadata["auth"]?["path"] { authDirectory = path }
        } else {
            // No metadata file: the emulator's own export folder, or the folder holding it.
            firestoreMetadata = overallMetadata(in: root)
            if firestoreMetadata == nil {
                throw HearthExport.Failure(
                    description: "\(root.path): not an export folder (no firebase-export-metadata.json, no .overall_export_metadata)")
            }
        }
        var contents = Contents()
        if let overall = firestoreMetadata { contents.documents = try readFirestore(overall, project: project) }
        if let path = authDirectory {
            let auth = root.appendingPathComponent(path)
            let accountsURL = auth.appendingPathComponent("accounts.json")
            if FileManager.default.fileExists(atPath: accountsURL.path) {
                contents.accounts = try readAccounts(accountsURL)
                let configURL = auth.appendingPathComponent("config.json")
                if FileManager.default.fileExists(atPath: configURL.path) {
                    let body = try HearthExport.parseJSON(try HearthExport.readFile(configURL), configURL.path)
                    do throws(AuthError) {
                        var settings = AuthProjectConfig()
                        settings.apply(try AuthRequestBody(json: body))
                        contents.authConfig = settings
                    } catch {
                        throw HearthExport.Failure(description: "\(configURL.path): \(error.message)")
                    }
                }
            }
        }
        return contents
    }

    /// The documents of an overall metadata file's kind groups, per database.
    static func readFirestore(_ overall: URL, project: String) throws -> [DatabaseID: [ResourcePath: FieldMap]] {
        let groups = try decodeFile(overall) { try ManagedExportMetadata.kindGroups(inOverall: $0) }
        var out: [DatabaseID: [ResourcePath: FieldMap]] = [:]
        let base = overall.deletingLastPathComponent()
        for group in groups {
            let kindURL = base.appendingPathComponent(group.metadataPath)
            let files = try decodeFile(kindURL) { try ManagedExportMetadata.outputFiles(inKind: $0) }
            for name in files {
                let url = kindURL.deletingLastPathComponent().appendingPathComponent(name)
                let records = try decodeFile(url) { try LevelDBLog.records(in: $0) }
                for (index, record) in records.enumerated() {
                    do throws(ProtoWireError) {
                        let entity = try ManagedExportEntity.decode(record)
                        guard Self.isDatabaseID(entity.database.database) else {
                            throw ProtoWireError(
                                .invalidValue("\"\(entity.database.database)\" is not a database id"), offset: 0)
                        }
                        do throws(FirestoreError) {
                            try entity.path.validateIDs()
                            // As a write would store it (transforms may build deeper values than a client sends).
                            try DocumentLimits.validate(
                                fields: entity.fields, path: entity.path, maxDepth: DocumentLimits.maxTransformedDepth)
                        } catch {
                            throw ProtoWireError(.invalidValue("\(entity.path.relativeString): \(error.message)"), offset: 0)
                        }
                        // The served project's: the emulator serves a seed whatever project its keys name.
                        out[DatabaseID(project: project, database: entity.database.database), default: [:]][entity.path] =
                            entity.fields
                    } catch {
                        throw HearthExport.Failure(description: "\(url.path): record \(index + 1): \(error)")
                    }
                }
            }
        }
        return out
    }

    /// `decode` of the bytes of the file at `url`. - Throws: `HearthExport.Failure` naming the
    /// file when it cannot be read, or with what `decode` threw (`path: reason`).
    static func decodeFile<T>(_ url: URL, _ decode: ([UInt8]) throws -> T) throws -> T {
        let bytes = try HearthExport.readFile(url)
        do {
            return try decode(bytes)
        } catch {
            throw HearthExport.Failure(description: "\(url.path): \(error)")
        }
    }

    /// `(default)`, or a database id as Firestore allows them (a lower-case letter, then 3–62
    /// lower-case letters, digits or hyphens); Hearth's reserved `(hearth-…)` ids never.
    static func isDatabaseID(_ id: String) -> Bool {
        if id == "(default)" { return true }
        let bytes = Array(id.utf8)
        guard (4...63).contains(bytes.count), let first = bytes.first, (0x61...0x7A).contains(first) else { return false }
        return bytes.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2D }
    }

    /// The accounts of an `accounts.json`; `fakeHash:` passwords of the Auth emulator are re-hashed.
    static func readAccounts(_ url: URL) throws -> [UserRecord] {
        let body = try HearthExport.parseJSON(try HearthExport.readFile(url), url.path)
        guard case .array(let list)? = body["users"] else {
            if body["users"] == nil { return [] }  // the Auth emulator omits "users" when there are none
            throw HearthExport.Failure(description: "\(url.path): \"users\" is not an array")
        }
        var out: [UserRecord] = []
        for (index, u) in list.enumerated() {
            do throws(AuthError) {
                var user = try UserRecord(json: u)
                if let password = user.passwordHash.flatMap(PasswordHasher.emulatorFakeHashPassword) {
                    (user.passwordHash, user.salt) = PasswordHasher.hash(password)
                }
                out.append(user)
            } catch {
                throw HearthExport.Failure(description: "\(url.path): users[\(index)]: \(error.message)")
            }
        }
        return out
    }
}
