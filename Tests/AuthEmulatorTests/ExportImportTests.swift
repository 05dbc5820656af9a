import AuthEmulator
import DocumentStore
import FirestoreAPI
import FirestoreEngine
import FirestoreModel
import Foundation
import Hearth
import Testing

/// `HearthExport` round trips and the `--import` / `--export-on-exit` / `hearth export` wiring.
@Suite struct ExportImportTests {
    static let db = DatabaseID(project: "demo-export")
    static let other = DatabaseID(project: "demo-export", database: "other")

    /// One field per value type, with the extremes that break naive codecs.
    static let everyValue: FieldMap = [
        "null": .null,
        "true": .boolean(true), "false": .boolean(false),
        "intMax": .integer(.max), "intMin": .integer(.min), "intZero": .integer(0),
        "double": .double(1.5), "tenth": .double(0.1), "negativeZero": .double(-0.0), "nan": .double(.nan),
        "infinity": .double(.infinity), "negativeInfinity": .double(-.infinity),
        "subnormal": .double(.leastNonzeroMagnitude), "largest": .double(.greatestFiniteMagnitude),
        "integralDouble": .double(3),
        "timestamp": .timestamp(Timestamp(seconds: 1_700_000_000, nanos: 123_456_789)),
        "timestampMin": .timestamp(Timestamp(seconds: Timestamp.minSeconds, nanos: 0)),
        "timestampMax": .timestamp(Timestamp(seconds: Timestamp.maxSeconds, nanos: 999_999_000)),
        "string": .string("héllo \u{1F525} \"quoted\" \\ \n\t\u{0001} \u{2028}"), "empty": .string(""),
        "bytes": .bytes([0, 1, 127, 128, 254, 255]), "emptyBytes": .bytes([]),
        "reference": .reference("projects/demo-export/databases/(default)/documents/rooms/r1/messages/m%2F1"),
        "geo": .geoPoint(GeoPoint(latitude: -90, longitude: 180)),
        "geoZero": .geoPoint(GeoPoint(latitude: 0, longitude: 0)),
        "geoFraction": .geoPoint(GeoPoint(latitude: 48.858_37, longitude: 2.294_481)),
        "array": .array([
            .integer(1), .double(1), .string("1"), .null, .map([:]), .map(["k": .array([.boolean(false)])]),
        ]),
        "emptyArray": .array([]), "emptyMap": .map([:]),
        "map": .map([
            "nested": .map(["deeper": .map(["x": .integer(-1)])]), "a.b": .string("dotted key"),
            "`backticked`": .string("odd key"),
        ]),
    ]

    /// Every document of `db` in `store`, by path.
    static func contents(_ store: any DocumentStore, _ db: DatabaseID) throws -> [ResourcePath: Document] {
        let s = try store.snapshot()
        defer { s.close() }
        var out: [ResourcePath: Document] = [:]
        func visit(_ parent: ResourcePath) throws {
            for id in try s.collectionIDs(under: parent, in: db) {
                let c = parent.appending(id)
                for d in try s.listDocuments(in: c, database: db, startAfter: nil, limit: nil) { out[d.path] = d }
                let docs = try s.listDocuments(in: c, database: db, startAfter: nil, limit: nil).map(\.path)
                for p in docs + (try s.missingDocuments(in: c, database: db)) { try visit(p) }
            }
        }
        try visit(.root)
        return out
    }

    static func tempDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("hearth-export-\(UUID().uuidString)")
    }

    @Test func namesRoundTripByteForByte() throws {
        // U+00E9 and e + U+0301 (and a NUL-free RTL mark) are different ids and field names
        // (issue 23 item 3): export and import keep every one of them apart.
        let composed = "\u{E9}", decomposed = "e\u{301}", rtl = "a\u{200F}b"
        let source = InMemoryDocumentStore()
        let engine = try FirestoreEngine(store: source)
        var writes: [Write] = []
        for collection in [composed, decomposed] {
            for id in [composed, decomposed, rtl] {
                let fields: FieldMap = [composed: .integer(1), decomposed: .integer(2), rtl: .string(collection + id)]
                writes.append(Write(operation: .update(path: ResourcePath([collection, id]), fields: fields)))
            }
        }
        _ = try engine.commit(writes, in: Self.db, auth: .admin)
        let stored = try Self.contents(source, Self.db)
        #expect(stored.count == 6)

        let dir = Self.tempDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let written = try HearthExport.write(
            store: source, databases: [Self.db], authProjects: [], rulesFile: nil, to: dir.path)
        #expect(written.documents == [Self.db: 6])
        for target in [InMemoryDocumentStore() as any DocumentStore, try SQLiteDocumentStore(inMemory: ())] {
            _ = try HearthExport.read(from: dir.path, into: target)
            let copy = try Self.contents(target, Self.db)
            #expect(copy == stored)
            #expect(copy[ResourcePath([decomposed, composed])]?.fields.count == 3)
            #expect(copy[ResourcePath([decomposed, composed])]?.fields[rtl] == .string(decomposed + composed))
        }
    }

    @Test func everyValueTypeRoundTripsExactly() throws {
        let source = InMemoryDocumentStore()
        let engine = try FirestoreEngine(store: source)
        // Through the engine, as clients write: -0.0 keeps its sign, timestamps become microseconds.
        _ = try engine.commit(
            [
                Write(operation: .update(path: ResourcePath(["all", "types"]), fields: Self.everyValue)),
                Write(
                    operation: .update(
                        path: ResourcePath(["all", "types", "sub", "child"]), fields: ["n": .integer(1)])),
                Write(
                    operation: .update(
                        path: ResourcePath(["ghost", "parent", "sub", "orphan"]), fields: ["n": .integer(2)])),
            ], in: Self.db, auth: .admin)
        _ = try engine.commit(
            [
                Write(
                    operation: .update(
                        path: ResourcePath(["all", "types"]),
                        fields: Self.everyValue.merging(["v": .integer(2)]) { a, _ in a }))
            ],
            in: Self.db, auth: .admin)
        _ = try engine.commit(
            [Write(operation: .update(path: ResourcePath(["o", "1"]), fields: ["x": .integer(1)]))], in: Self.other,
            auth: .admin)
        // Straight into the store: nanosecond timestamps survive too.
        let nanos = Timestamp(seconds: 1_600_000_000, nanos: 987_654_321)
        try source.commit(
            [
                .put(
                    Document(
                        path: ResourcePath(["raw", "ns"]), fields: ["t": .timestamp(nanos)], createTime: nanos,
                        updateTime: nanos))
            ],
            in: Self.db, commitTime: nanos)

        let stored = try Self.contents(source, Self.db)
        let typed = try #require(stored[ResourcePath(["all", "types"])])
        guard case .double(let zero)? = typed.fields["negativeZero"] else {
            Issue.record("negativeZero is not a double")
            return
        }
        #expect(zero == 0 && zero.sign == .minus)  // -0.0 keeps its sign, as production keeps it
        #expect(typed.fields["timestamp"] == .timestamp(Timestamp(seconds: 1_700_000_000, nanos: 123_456_000)))
        #expect(typed.createTime < typed.updateTime)
        #expect(stored.count == 4)

        let dir = Self.tempDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let written = try HearthExport.write(
            store: source, databases: [Self.db, Self.other], authProjects: [], rulesFile: nil, to: dir.path)
        #expect(written.documents == [Self.db: 4, Self.other: 1])

        // Human-readable: one REST document per line.
        let jsonl = try String(
            contentsOf: dir.appendingPathComponent("firestore/demo-export/(default).jsonl"), encoding: .utf8)
        let lines = jsonl.split(separator: "\n")
        #expect(lines.count == 4)
        #expect(lines.contains { $0 == RESTCodec.encodeDocument(typed, database: Self.db).serializedString })

        for target in [InMemoryDocumentStore() as any DocumentStore, try SQLiteDocumentStore(inMemory: ())] {
            let read = try HearthExport.read(from: dir.path, into: target)
            #expect(read.documents == written.documents)
            let copy = try Self.contents(target, Self.db)
            #expect(copy == stored)  // Value identity: same types, same bits, same times
            guard case .double(let z)? = copy[ResourcePath(["all", "types"])]?.fields["negativeZero"] else {
                Issue.record("negativeZero lost")
                continue
            }
            #expect(z == 0 && z.sign == .minus)
            #expect(copy[ResourcePath(["raw", "ns"])]?.fields["t"] == .timestamp(nanos))
            #expect(try Self.contents(target, Self.other).count == 1)
            // Later commits sort after every imported document.
            #expect(try target.lastCommitTime().map { $0 >= typed.updateTime } == true)
            let engine2 = try FirestoreEngine(store: target)
            let r = try engine2.commit(
                [Write(operation: .update(path: ResourcePath(["new", "1"]), fields: [:]))], in: Self.db, auth: .admin)
            #expect(r.commitTime > typed.updateTime)
            target.close()
        }
    }

    @Test func importReplacesTheDatabasesItHolds() throws {
        let source = InMemoryDocumentStore()
        let t = Timestamp(seconds: 100, nanos: 0)
        try source.commit(
            [.put(Document(path: ResourcePath(["a", "1"]), fields: [:], createTime: t, updateTime: t))], in: Self.db,
            commitTime: t)
        let dir = Self.tempDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try HearthExport.write(store: source, databases: [Self.db], authProjects: [], rulesFile: nil, to: dir.path)
        let target = InMemoryDocumentStore()
        try target.commit(
            [.put(Document(path: ResourcePath(["stale", "1"]), fields: [:], createTime: t, updateTime: t))],
            in: Self.db, commitTime: t)
        try HearthExport.read(from: dir.path, into: target)
        #expect(Array(try Self.contents(target, Self.db).keys) == [ResourcePath(["a", "1"])])
    }

    @Test func aBadFileLoadsNothingEvenAfterAGoodOne() throws {
        let dir = Self.tempDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("firestore/p"), withIntermediateDirectories: true)
        try
            #"{"version":"hearth","hearth":{"format":1},"firestore":{"databases":[{"project":"p","database":"(default)","file":"firestore/p/a.jsonl"},{"project":"p","database":"b","file":"firestore/p/b.jsonl"}]}}"#
            .write(to: dir.appendingPathComponent(HearthExport.metadataFile), atomically: true, encoding: .utf8)
        try
            "{\"name\":\"projects/p/databases/(default)/documents/a/new\",\"createTime\":\"2020-01-01T00:00:00Z\",\"updateTime\":\"2020-01-01T00:00:00Z\"}\n"
            .write(to: dir.appendingPathComponent("firestore/p/a.jsonl"), atomically: true, encoding: .utf8)
        try "{not json\n".write(to: dir.appendingPathComponent("firestore/p/b.jsonl"), atomically: true, encoding: .utf8)
        let store = InMemoryDocumentStore()
        let db = DatabaseID(project: "p")
        let old = Document(path: ResourcePath(["a", "old"]), fields: [:], createTime: Timestamp(seconds: 1, nanos: 0),
            updateTime: Timestamp(seconds: 1, nanos: 0))
        try store.commit([.put(old)], in: db, commitTime: Timestamp(seconds: 1, nanos: 0))
        let error = #expect(throws: HearthExport.Failure.self) { try HearthExport.read(from: dir.path, into: store) }
        #expect(error?.description.contains("b.jsonl:1:") == true)
        let snapshot = try store.snapshot()
        defer { snapshot.close() }
        // The first database was not cleared and refilled before the second failed.
        #expect(try snapshot.document(old.path, in: db) != nil)
        #expect(try snapshot.document(ResourcePath(["a", "new"]), in: db) == nil)
    }

    @Test func badExportsAreReportedWithTheirPath() throws {
        let dir = Self.tempDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("firestore/p"), withIntermediateDirectories: true)
        #expect(throws: HearthExport.Failure.self) {
            try HearthExport.read(from: dir.path, into: InMemoryDocumentStore())
        }
        try
            #"{"version":"hearth","hearth":{"format":1},"firestore":{"databases":[{"project":"p","database":"(default)","file":"firestore/p/d.jsonl"}]}}"#
            .write(to: dir.appendingPathComponent(HearthExport.metadataFile), atomically: true, encoding: .utf8)
        try
            "{\"name\":\"projects/p/databases/(default)/documents/a/1\",\"createTime\":\"2020-01-01T00:00:00Z\",\"updateTime\":\"nope\"}\n"
            .write(to: dir.appendingPathComponent("firestore/p/d.jsonl"), atomically: true, encoding: .utf8)
        do {
            try HearthExport.read(from: dir.path, into: InMemoryDocumentStore())
            Issue.record("a bad timestamp was accepted")
        } catch let failure as HearthExport.Failure {
            #expect(failure.description.contains("d.jsonl:1:"))
        }
    }

    @Test func exportOnExitThenImportKeepsDocumentsAndAccounts() async throws {
        let dir = try makeProjectDirectory()
        let export = dir.appendingPathComponent("export")
        let data = dir.appendingPathComponent("data.sqlite").path
        defer { try? FileManager.default.removeItem(at: dir) }
        let project = "demo-roundtrip"
        var first = startOptions(dir, project: project, data: data)
        first.exportOnExit = export.path
        var written: Emulators.Reply?
        var uid: String?
        do {
            let app = try HearthApp(options: first)
            let ports = try await app.start()
            let e = Emulators(
                project: project, firestore: ports.firestore, auth: try #require(ports.auth),
                hub: try #require(ports.hub), ui: try #require(ports.ui), directory: dir)
            written = try await Emulators.send(
                "POST", e.firestoreURL("\(e.documents)/notes?documentId=n1"),
                body:
                    #"{"fields":{"big":{"integerValue":"-9223372036854775808"},"at":{"timestampValue":"2024-02-29T12:34:56.123456789Z"}}}"#,
                headers: ["Authorization": "Bearer owner"])
            uid = try await e.account("signUp", #"{"email":"keep@x.io","password":"secret1"}"#).json["localId"]?.string
            await app.stop()
        }
        let original = try #require(written?.json)
        #expect(FileManager.default.fileExists(atPath: export.appendingPathComponent(HearthExport.metadataFile).path))
        // The Firebase CLI's layout (FirebaseCLIExport).
        #expect(FileManager.default.fileExists(atPath: export.appendingPathComponent("auth_export/accounts.json").path))
        #expect(
            FileManager.default.fileExists(
                atPath: export.appendingPathComponent("firestore_export/firestore_export.overall_export_metadata").path))

        // A fresh in-memory Hearth seeded from the export.
        var second = startOptions(dir, project: project)
        second.importPath = export.path
        let app = try HearthApp(options: second)
        let ports = try await app.start()
        let e = Emulators(
            project: project, firestore: ports.firestore, auth: try #require(ports.auth), hub: try #require(ports.hub),
            ui: try #require(ports.ui), directory: dir)
        let read = try await Emulators.send(
            "GET", e.firestoreURL("\(e.documents)/notes/n1"), headers: ["Authorization": "Bearer owner"])
        // Fields identical; the CLI format keeps no document times (they are the import's).
        #expect(read.json["fields"] == original["fields"])
        #expect(read.json["createTime"] != nil)
        #expect(read.json["fields"]?["at"]?["timestampValue"]?.string == "2024-02-29T12:34:56.123456Z")
        let signIn = try await e.account("signInWithPassword", #"{"email":"keep@x.io","password":"secret1"}"#)
        #expect(signIn.status == 200)
        #expect(signIn.json["localId"]?.string == uid)
        // The hub exports the running data on request.
        let hubExport = dir.appendingPathComponent("hub-export")
        let viaHub = try await Emulators.send(
            "POST", e.hubURL("/_admin/export"), body: #"{"path":"\#(hubExport.path)"}"#)
        #expect(viaHub.status == 200, "\(viaHub.text)")
        await app.stop()
        let again = InMemoryDocumentStore()
        let summary = try FirebaseCLIExport.read(from: hubExport.path, into: again, project: project)
        #expect(summary.documents[DatabaseID(project: project)] == 1)
        #expect(summary.users[project] == 1)

        // `hearth export` reads the data file offline and writes the same documents.
        let offline = dir.appendingPathComponent("offline")
        #expect(
            try ExportCommand.run([
                offline.path, "--config", dir.appendingPathComponent("firebase.json").path, "--data", data, "--project",
                project,
            ]) == 0)
        let output = "firestore_export/all_namespaces/all_kinds/output-0"
        #expect(
            FileManager.default.contents(atPath: offline.appendingPathComponent(output).path)
                == FileManager.default.contents(atPath: hubExport.appendingPathComponent(output).path))
        // `--format hearth` writes Hearth's format 1, which keeps the document times too.
        let own = dir.appendingPathComponent("own")
        #expect(
            try ExportCommand.run([
                own.path, "--format", "hearth", "--config", dir.appendingPathComponent("firebase.json").path, "--data",
                data, "--project", project,
            ]) == 0)
        let line = try String(contentsOf: own.appendingPathComponent("firestore/\(project)/(default).jsonl"), encoding: .utf8)
        #expect(line.contains(original["createTime"]?.string ?? "?"))
        #expect(throws: ConfigError.self) {
            try ExportCommand.run([own.path, "--format", "zip", "--data", data])
        }
    }

    @Test func accountsPersistInTheDataFileAcrossRestarts() async throws {
        let dir = try makeProjectDirectory()
        let data = dir.appendingPathComponent("data.sqlite").path
        defer { try? FileManager.default.removeItem(at: dir) }
        for round in 0..<2 {
            let app = try HearthApp(options: startOptions(dir, project: "demo-persist", data: data))
            let ports = try await app.start()
            let e = Emulators(
                project: "demo-persist", firestore: ports.firestore, auth: try #require(ports.auth),
                hub: try #require(ports.hub), ui: try #require(ports.ui), directory: dir)
            if round == 0 {
                #expect(try await e.account("signUp", #"{"email":"p@x.io","password":"secret1"}"#).status == 200)
            } else {
                #expect(
                    try await e.account("signInWithPassword", #"{"email":"p@x.io","password":"secret1"}"#).status == 200
                )
            }
            await app.stop()
        }
    }
}

/// The Firestore port's `POST /emulator/v1/projects/{p}:export`, as firebase-tools' hub calls it
/// on the official emulator (docs/reference/firestore-wire.md §2.5).
@Suite struct FirestorePortExportTests {
    @Test func writesTheManagedExportAndRefusesAMissingDirectory() async throws {
        try await withEmulators(project: "demo-port-export") { e in
            let put = try await Emulators.send(
                "PATCH", e.firestoreURL("\(e.documents)/c/d"), body: #"{"fields":{"n":{"integerValue":"7"}}}"#,
                headers: ["Authorization": "Bearer owner"])
            #expect(put.status == 200)
            let out = FileManager.default.temporaryDirectory.appendingPathComponent("port-export-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: out) }
            let body =
                #"{"database":"projects/demo-port-export/databases/(default)","export_directory":"\#(out.path)","export_name":"firestore_export"}"#
            let answer = try await Emulators.send(
                "POST", e.firestoreURL("/emulator/v1/projects/demo-port-export:export"), body: body)
            #expect(answer.status == 200, "\(answer.text)")
            let store = InMemoryDocumentStore()
            let summary = try FirebaseCLIExport.read(
                from: out.appendingPathComponent("firestore_export").path, into: store, project: "demo-port-export")
            #expect(summary.documents[DatabaseID(project: "demo-port-export")] == 1)
            let missing = try await Emulators.send(
                "POST", e.firestoreURL("/emulator/v1/projects/demo-port-export:export"),
                body: #"{"export_directory":"\#(out.path)/nope"}"#)
            #expect(missing.status == 400)
            #expect(missing.json["error"]?["status"]?.string == "FAILED_PRECONDITION")
            #expect(missing.json["error"]?["message"]?.string == "export_directory must be a directory")
            let otherProject = try await Emulators.send(
                "POST", e.firestoreURL("/emulator/v1/projects/demo-port-export:export"),
                body: #"{"database":"projects/else/databases/(default)","export_directory":"\#(out.path)"}"#)
            #expect(otherProject.status == 400)
        }
    }
}
