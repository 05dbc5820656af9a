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
