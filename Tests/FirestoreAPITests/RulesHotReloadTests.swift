import Foundation
import Hearth
import Testing

/// The rules file named in firebase.json is reloaded when it changes; a file with errors is
/// reported and the rules in force stay (issue 3 item 3).
@Suite(.serialized) struct RulesHotReloadTests {
    static let denyAll = """
        rules_version = '2';
        service cloud.firestore { match /databases/{db}/documents { match /{p=**} { allow read, write: if false; } } }
        """
    static let allowAll = """
        rules_version = '2';
        service cloud.firestore { match /databases/{db}/documents { match /{p=**} { allow read, write: if true; } } }
        """

    @Test func editedRulesFileIsReloadedAndABrokenEditIsRefused() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-reload-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let rulesFile = dir.appendingPathComponent("firestore.rules")
        try Self.denyAll.write(to: rulesFile, atomically: true, encoding: .utf8)
        try #"{"firestore":{"rules":"firestore.rules"},"emulators":{"firestore":{"host":"127.0.0.1","port":0}}}"#
            .write(to: dir.appendingPathComponent("firebase.json"), atomically: true, encoding: .utf8)
        var options = StartOptions()
        options.configPath = dir.appendingPathComponent("firebase.json").path
        options.project = "demo-reload"
        options.inMemory = true
        options.quiet = true
        let app = try HearthApp(options: options)
        let ports = try await app.start()
        let c = RESTClient(base: "http://127.0.0.1:\(ports.firestore)", project: "demo-reload")

        func status() async throws -> Int { try await c.call("GET", c.documents + "/a/b", token: nil).status }
        func eventually(_ expected: Int) async throws -> Bool {
            for _ in 0..<40 {
                if try await status() == expected { return true }
                try await Task.sleep(for: .milliseconds(100))
            }
            return false
        }
        #expect(try await status() == 403)
        try Self.allowAll.write(to: rulesFile, atomically: true, encoding: .utf8)
        #expect(try await eventually(404), "the edited (open) rules were not loaded")
        try "service cloud.firestore { match /x { allow read: if ; } }".write(to: rulesFile, atomically: true, encoding: .utf8)
        try await Task.sleep(for: .milliseconds(1500))
        #expect(try await status() == 404, "a broken edit must leave the rules in force")
        await app.stop()
    }
}
