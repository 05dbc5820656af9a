import AuthEmulator
import DocumentStore
import FirestoreEngine
import FirestoreModel
import Foundation
import GoogleWire
@testable import ProtoWire
import Testing

@testable import FirestoreAPI
@testable import Hearth

/// The Firebase CLI export format against the official emulator's recordings
/// (`scripts/record_cli_export.py`, `Tests/Conformance/cli_export/`): the emulator's
/// `firestore_export/` decodes to exactly the documents it served, Hearth encodes each of those
/// documents to the emulator's bytes, the metadata files match, the whole folder (Auth included)
/// imports, and a corrupt folder is refused naming the file and record while loading nothing.
@Suite struct CLIExportConformanceTests {
    static let folder = Conformance.directory.appendingPathComponent("cli_export")
    static let export = folder.appendingPathComponent("emulator_export")
    static let kinds = export.appendingPathComponent("firestore_export/all_namespaces/all_kinds")
    static let database = DatabaseID(project: "demo-cli-export")

    /// path → fields the emulator served for the data set.
    static func readback() throws -> [ResourcePath: FieldMap] {
        let json = try Conformance.load("cli_export/emulator_readback.json")
        guard case .object(let members)? = json["documents"] else { throw FirestoreError.notFound("no documents") }
        var out: [ResourcePath: FieldMap] = [:]
        for m in members {
            out[ResourcePath(relative: m.key)] = try RESTCodec.decodeFields(m.value, at: m.key)
        }
        return out
    }

    static func bytes(_ url: URL) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw FirestoreError.notFound("missing \(url.lastPathComponent)")
        }
        return [UInt8](data)
    }

    @Test func theEmulatorsRecordsDecodeToTheDocumentsItServed() throws {
        let records = try LevelDBLog.records(in: try Self.bytes(Self.kinds.appendingPathComponent("output-0")))
        let want = try Self.readback()
        #expect(records.count == want.count)
        var got: [ResourcePath: FieldMap] = [:]
        for r in records {
            let e = try ManagedExportEntity.decode(r)
            #expect(e.database == Self.database)
            got[e.path] = e.fields
        }
        #expect(Set(got.keys) == Set(want.keys))
        for (path, fields) in want {
            #expect(got[path] == fields, "\(path)")
        }
        // é and e + U+0301 stay two documents and two fields.
        #expect(got[ResourcePath(["ids", "\u{E9}"])] != nil && got[ResourcePath(["ids", "e\u{301}"])] != nil)
        #expect(got[ResourcePath(["values", "names"])]?.count == 6)
    }

    @Test func hearthEncodesEachDocumentToTheEmulatorsBytes() throws {
        let records = try LevelDBLog.records(in: try Self.bytes(Self.kinds.appendingPathComponent("output-0")))
        for r in records {
            let e = try ManagedExportEntity.decode(r)
            let mine = ManagedExportEntity.encode(path: e.path, fields: e.fields, database: e.database)
            #expect(mine == r, "\(e.path): Hearth's record differs from the emulator's")
        }
    }

    @Test func theMetadataFilesMatchTheEmulators() throws {
        let output = try Self.bytes(Self.kinds.appendingPathComponent("output-0"))
        let records = try LevelDBLog.records(in: output)
        let overall = try Self.bytes(Self.export.appendingPathComponent("firestore_export/firestore_export.overall_export_metadata"))
        let groups = try ManagedExportMetadata.kindGroups(inOverall: overall)
        #expect(
            groups == [
                .init(
                    metadataPath: "all_namespaces/all_kinds/all_namespaces_all_kinds.export_metadata",
                    entityCount: Int64(records.count), byteCount: Int64(output.count))
            ])
        #expect(ManagedExportMetadata.overall(groups) == overall)
        let kind = try Self.bytes(Self.kinds.appendingPathComponent("all_namespaces_all_kinds.export_metadata"))
        #expect(try ManagedExportMetadata.outputFiles(inKind: kind) == ["output-0"])
        // The header's two times are the export's; with them Hearth writes the same bytes.
        var r = ProtoReader(kind)
        var times: [Int64] = []
        while let tag = try r.readTag() {
            guard tag.fieldNumber == 1 else {
                try r.skipField(tag)
                continue
            }
            var h = try r.readSubmessage()
            while let t = try h.readTag() {
                if t.wireType == .varint { times.append(try h.readInt64()) } else { try h.skipField(t) }
            }
        }
        #expect(times.count == 2)
        #expect(
            ManagedExportMetadata.kind(
                exportName: "firestore_export", startMicros: times[0], endMicros: times[1], outputFiles: ["output-0"])
                == kind)
    }

    @Test func theWholeFolderImportsWithItsAccounts() throws {
        let store = InMemoryDocumentStore()
        let summary = try FirebaseCLIExport.read(from: Self.export.path, into: store, project: "demo-cli-export")
        let want = try Self.readback()
        #expect(summary.documents[Self.database] == want.count)
        let snapshot = try store.snapshot()
        defer { snapshot.close() }
        for (path, fields) in want {
            #expect(try snapshot.document(path, in: Self.database)?.fields == fields, "\(path)")
        }
        let users = DocumentUserStore(store: store, clock: FirestoreEngine.systemClock)
        let accounts = try users.users(in: "demo-cli-export")
        #expect(accounts.map(\.localId) == ["alice-uid", "anon-uid", "gina-uid"])
        let alice = try #require(accounts.first)
        // The Auth emulator's fakeHash became a salted hash of the same password.
        #expect(alice.passwordHash?.hasPrefix("fakeHash") == false)
        #expect(PasswordHasher.verify("alice-secret", hash: alice.passwordHash ?? "", salt: alice.salt ?? ""))
        #expect(!PasswordHasher.verify("wrong", hash: alice.passwordHash ?? "", salt: alice.salt ?? ""))
        #expect(alice.customAttributes == #"{"admin":true}"#)
        #expect(accounts[2].providerUserInfo.first?.providerId == "google.com")
    }

    @Test func aSeedLoadsIntoTheServedProjectWhateverItsKeysName() throws {
        // The official emulator serves a seed to any project (checked against 1.19.9); Hearth
        // loads it into the project it serves.
        let store = InMemoryDocumentStore()
        let summary = try FirebaseCLIExport.read(from: Self.export.path, into: store, project: "demo-other")
        #expect(summary.documents[DatabaseID(project: "demo-other")] == (try Self.readback().count))
        #expect(summary.documents[Self.database] == nil)
        let snapshot = try store.snapshot()
        defer { snapshot.close() }
        #expect(try snapshot.document(ResourcePath(["ids", "123"]), in: DatabaseID(project: "demo-other")) != nil)
        #expect(try snapshot.document(ResourcePath(["ids", "123"]), in: Self.database) == nil)
    }

    @Test func anExportOfTheImportIsTheEmulatorsExport() throws {
        let store = InMemoryDocumentStore()
        try FirebaseCLIExport.read(from: Self.export.path, into: store, project: "demo-cli-export")
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("cli-export-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        let summary = try FirebaseCLIExport.write(store: store, project: "demo-cli-export", to: out.path)
        #expect(summary.users["demo-cli-export"] == 3)
        let mine = try Self.bytes(out.appendingPathComponent("firestore_export/all_namespaces/all_kinds/output-0"))
        let theirs = try Self.bytes(Self.kinds.appendingPathComponent("output-0"))
        // Same records; the emulator orders them by its own key encoding, Hearth by path.
        #expect(Set(try LevelDBLog.records(in: mine)) == Set(try LevelDBLog.records(in: theirs)))
        // No temporary folder is left beside the export.
        let siblings = try FileManager.default.contentsOfDirectory(atPath: out.deletingLastPathComponent().path)
        #expect(!siblings.contains { $0.hasPrefix(".\(out.lastPathComponent).") })
        // And it reads back: documents and accounts.
        let again = InMemoryDocumentStore()
        let read = try FirebaseCLIExport.read(from: out.path, into: again, project: "demo-cli-export")
        #expect(read == summary)
        let metadata = try JSONValue.parse(try Self.bytes(out.appendingPathComponent("firebase-export-metadata.json")))
        #expect(metadata["firestore"]?["metadata_file"] == .string("firestore_export/firestore_export.overall_export_metadata"))
        #expect(metadata["auth"]?["path"] == .string("auth_export"))
    }

    /// Ways to damage `output-0`, each with the words its error must hold.
    enum Damage: String, CaseIterable, Sendable {
        case flippedByte, truncated

        func apply(_ b: [UInt8]) -> [UInt8] {
            switch self {
            case .flippedByte:
                var c = b
                c[200] ^= 0x40
                return c
            case .truncated: return Array(b.prefix(b.count - 10))
            }
        }

        var message: String { self == .flippedByte ? "checksum mismatch" : "runs past the end" }
    }

    /// A copy of the emulator's folder with `output-0` damaged.
    static func damagedCopy(_ damage: Damage) throws -> URL {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("cli-damaged-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: export, to: copy)
        let output = copy.appendingPathComponent("firestore_export/all_namespaces/all_kinds/output-0")
        try Data(damage.apply(try bytes(output))).write(to: output)
        return copy
    }

    @Test(arguments: Damage.allCases)
    func aCorruptFolderNamesTheFileAndRecordAndLoadsNothing(_ damage: Damage) throws {
        let copy = try Self.damagedCopy(damage)
        defer { try? FileManager.default.removeItem(at: copy) }
        let store = InMemoryDocumentStore()
        let kept = Document(path: ResourcePath(["values", "scalars"]), fields: ["kept": .boolean(true)],
            createTime: Timestamp(seconds: 1, nanos: 0), updateTime: Timestamp(seconds: 1, nanos: 0))
        try store.commit([.put(kept)], in: Self.database, commitTime: Timestamp(seconds: 1, nanos: 0))
        let error = #expect(throws: HearthExport.Failure.self, "\(damage)") {
            try FirebaseCLIExport.read(from: copy.path, into: store, project: "demo-cli-export")
        }
        #expect(error?.description.contains("output-0: record at byte") == true, "\(error?.description ?? "")")
        #expect(error?.description.contains(damage.message) == true, "\(error?.description ?? "")")
        let snapshot = try store.snapshot()
        defer { snapshot.close() }
        #expect(try snapshot.document(kept.path, in: Self.database)?.fields == kept.fields)
    }

    @Test func aMissingOutputFileIsNamed() throws {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("cli-missing-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: Self.export, to: copy)
        defer { try? FileManager.default.removeItem(at: copy) }
        try FileManager.default.removeItem(at: copy.appendingPathComponent("firestore_export/all_namespaces/all_kinds/output-0"))
        let error = #expect(throws: HearthExport.Failure.self) {
            try FirebaseCLIExport.read(from: copy.path, into: InMemoryDocumentStore(), project: "demo-cli-export")
        }
        #expect(error?.description.contains("output-0: cannot read the file") == true, "\(error?.description ?? "")")
    }

    @Test func aFolderTellsItsFormatAndTheEmulatorsOwnFolderImports() throws {
        #expect(FirebaseCLIExport.isCLIExport(Self.export.path))
        // The emulator's own folder without the CLI's metadata file, and the folder inside it.
        #expect(FirebaseCLIExport.isCLIExport(Self.export.appendingPathComponent("firestore_export").path))
        let store = InMemoryDocumentStore()
        let summary = try FirebaseCLIExport.read(
            from: Self.export.appendingPathComponent("firestore_export").path, into: store, project: "demo-cli-export")
        #expect(summary.documents[Self.database] == (try Self.readback().count))
    }

    @Test func aSeedNamingAReservedDatabaseOrNotAnExportIsRefused() throws {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("cli-reserved-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: Self.export, to: copy)
        defer { try? FileManager.default.removeItem(at: copy) }
        var w = ProtoWriter()
        w.writeMessageField(13) { k in
            k.writeStringField(13, "dev~demo-cli-export")
            k.writeMessageField(14) { ManagedExportEntity.writePath(["rooms", "r1"], into: &$0) }
            k.writeStringField(23, "(hearth-auth)")
        }
        var log = LevelDBLog.Writer()
        log.append(w.bytes)
        try Data(log.bytes).write(to: copy.appendingPathComponent("firestore_export/all_namespaces/all_kinds/output-0"))
        let error = #expect(throws: HearthExport.Failure.self) {
            try FirebaseCLIExport.read(from: copy.path, into: InMemoryDocumentStore(), project: "demo-cli-export")
        }
        #expect(error?.description.contains("\"(hearth-auth)\" is not a database id") == true, "\(error?.description ?? "")")
        // A metadata file that is JSON but no export's, and a folder that does not exist.
        try "[1,2]".write(to: copy.appendingPathComponent(HearthExport.metadataFile), atomically: true, encoding: .utf8)
        #expect(throws: HearthExport.Failure.self) {
            try FirebaseCLIExport.read(from: copy.path, into: InMemoryDocumentStore(), project: "p")
        }
        let missing = #expect(throws: HearthExport.Failure.self) {
            try FirebaseCLIExport.read(from: copy.path + "-nope", into: InMemoryDocumentStore(), project: "p")
        }
        #expect(missing?.description.hasSuffix("no such export folder") == true)
    }

    @Test func anExportNeverReplacesAFolderThatIsNotOne() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cli-victim-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try "keep me".write(to: dir.appendingPathComponent("thesis.txt"), atomically: true, encoding: .utf8)
        let error = #expect(throws: HearthExport.Failure.self) {
            try FirebaseCLIExport.write(store: InMemoryDocumentStore(), project: "p", to: dir.path)
        }
        #expect(error?.description.contains("not replaced") == true)
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("thesis.txt").path))
        // An export, or an empty folder, is replaced.
        let empty = dir.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        try FirebaseCLIExport.write(store: InMemoryDocumentStore(), project: "p", to: empty.path)
        try FirebaseCLIExport.write(store: InMemoryDocumentStore(), project: "p", to: empty.path)
        #expect(FileManager.default.fileExists(atPath: empty.appendingPathComponent(HearthExport.metadataFile).path))
    }
}
