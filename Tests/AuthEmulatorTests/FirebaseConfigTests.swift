import Foundation
import GoogleWire
import Testing

@testable import Hearth

/// `firebase.json` read as the Firebase CLI reads it: comments, relative paths, keys Hearth
/// does not serve named in one warning.
@Suite struct FirebaseConfigTests {
    func write(_ text: String, name: String = "firebase.json") throws -> (dir: String, path: String) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-config-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = dir + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return (dir, path)
    }

    @Test func blankingCommentsKeepsStringsAndOffsets() {
        func blank(_ s: String) -> String { String(decoding: JSONValue.blankingComments(Array(s.utf8)), as: UTF8.self) }
        #expect(blank(#"{"a": 1} // x"#) == #"{"a": 1}     "#)
        #expect(blank("{/* a\nb */\"k\": 2}") == "{    \n    \"k\": 2}")
        #expect(blank(#"{"u": "http://x/*y*/"}"#) == #"{"u": "http://x/*y*/"}"#)
        #expect(blank(#"{"q": "a\"//b"} //c"#) == #"{"q": "a\"//b"}    "#)
        #expect(blank(#"{"e": "\\"}//z"#) == #"{"e": "\\"}   "#)
        #expect(blank("/* open") == "       ")
        #expect(blank("1 / 2") == "1 / 2")
    }

    @Test func commentedFileLoads() throws {
        let (dir, path) = try write(
            """
            // Firebase CLI accepts comments
            {
              /* the emulators */
              "emulators": { "firestore": { "port": 0 }, // inline
                "storage": { "port": 9199 }, "database": { "port": 9000 } },
              "firestore": { "rules": "firestore.rules", "indexes": "sub/../firestore.indexes.json" },
              "storage": { "rules": "storage.rules" },
              "hosting": { "public": "http://example.com//x" }
            }
            """)
        let config = try FirebaseConfig.load(path: path)
        #expect(config.firestore.port == 0)
        #expect(config.rulesFile == URL(fileURLWithPath: dir + "/firestore.rules").standardizedFileURL.path)
        #expect(config.indexesFile == URL(fileURLWithPath: dir + "/firestore.indexes.json").standardizedFileURL.path)
        #expect(config.ignoredKeys == ["storage", "hosting", "emulators.storage", "emulators.database"])
        #expect(
            config.ignoredKeysWarning
                == "hearth: firebase.json: not served by Hearth, ignored: storage, hosting, emulators.storage, emulators.database")
    }

    @Test func servedKeysOnlyGiveNoWarning() throws {
        let (_, path) = try write(#"{"emulators": {"firestore": {"port": 0}, "auth": {"port": 0}}, "firestore": {}}"#)
        #expect(try FirebaseConfig.load(path: path).ignoredKeysWarning == nil)
    }

    @Test func parseErrorNamesLineAndColumn() throws {
        let (_, path) = try write("{\n  // c\n  \"emulators\": {,}\n}")
        do {
            _ = try FirebaseConfig.load(path: path)
            Issue.record("loaded")
        } catch let error as ConfigError {
            #expect(error.description.hasPrefix("\(path):3:17: invalid JSON"))
            #expect(!error.description.contains("\n"))
        }
    }

    @Test func missingAbsoluteRulesPathIsNamed() throws {
        let (dir, path) = try write(#"{"firestore": {"rules": "/nonexistent-hearth/firestore.rules"}}"#)
        _ = dir
        do {
            _ = try FirebaseConfig.load(path: path)
            Issue.record("loaded")
        } catch let error as ConfigError {
            #expect(error.description == "\(path): firestore.rules /nonexistent-hearth/firestore.rules does not exist")
        }
    }

    @Test func notAnObjectIsRefused() throws {
        let (_, path) = try write("[1] // list")
        #expect(throws: ConfigError.self) { try FirebaseConfig.load(path: path) }
    }

    @Test func indexesFileTakesComments() throws {
        let config = try IndexesFile.decode("// none yet\n{\"indexes\": [] /* later */, \"fieldOverrides\": []}")
        #expect(config.indexes.isEmpty)
    }
}

/// `hearth start` end to end on a project whose `firebase.json` and `firestore.indexes.json`
/// carry comments, as real projects' files do (issue 23 item 2).
@Suite struct CommentedProjectStartTests {
    @Test func startsServesTheRulesAndTheIndexes() async throws {
        let dir = FileManager.default.temporaryDirectory
            .appendingPathComponent("hearth-commented-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let files = [
            "firebase.json": """
                // Emulators for local development
                {
                  "firestore": { "rules": "firestore.rules", /* relative to this file */
                                 "indexes": "firestore.indexes.json" },
                  "emulators": { "firestore": { "port": 0 }, "hub": { "port": 0 },
                                 "ui": { "enabled": true } }, // ui: not served
                  "hosting": { "public": "public" }
                }
                """,
            "firestore.indexes.json": """
                {
                  // one composite index
                  "indexes": [ { "collectionGroup": "items", "queryScope": "COLLECTION",
                                 "fields": [ { "fieldPath": "a", "order": "ASCENDING" },
                                             { "fieldPath": "b", "order": "DESCENDING" } ] } ],
                  "fieldOverrides": [] /* none */
                }
                """,
            "firestore.rules": """
                rules_version = '2';
                service cloud.firestore {
                  match /databases/{db}/documents { match /open/{d} { allow read: if true } }
                }
                """,
        ]
        for (name, text) in files {
            try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let app = try HearthApp(options: startOptions(dir, project: "demo-commented"))
        let ports = try await app.start()
        do {
            let base = "http://127.0.0.1:\(ports.firestore)/v1/projects/demo-commented/databases/(default)/documents"
            #expect(try await Emulators.send("GET", base + "/open/x").status == 404)  // Allowed: not found.
            #expect(try await Emulators.send("GET", base + "/closed/x").status == 403)  // The file's rules.
            let project = "http://127.0.0.1:\(ports.firestore)/v1/projects/demo-commented/databases/(default)"
            let indexes = try await Emulators.send(
                "GET", project + "/collectionGroups/-/indexes", headers: ["Authorization": "Bearer owner"])
            #expect(indexes.status == 200)
            #expect(indexes.text.contains("\"fieldPath\": \"b\"") || indexes.text.contains("\"fieldPath\":\"b\""))
        } catch {
            await app.stop()
            throw error
        }
        await app.stop()
    }
}
