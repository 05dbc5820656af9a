import Foundation
import Hearth
import Testing

/// `hearth exec` (in process) and the hub's discovery endpoints.
@Suite struct ExecAndHubTests {
    func exec(_ command: [String], project: String = "demo-exec") async throws -> Int32 {
        let dir = try makeProjectDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        return try await ExecCommand.run(
            ["--config", dir.appendingPathComponent("firebase.json").path, "--project", project, "--"] + command)
    }

    @Test func exitCodesPassThrough() async throws {
        #expect(try await exec(["sh", "-c", "exit 0"]) == 0)
        #expect(try await exec(["sh", "-c", "exit 3"]) == 3)
        let killed = try await exec(["sh", "-c", "kill -KILL $$"])
        #expect(killed == 128 + 9)
    }

    @Test func theCommandRunsWithDefaultSignalsAndNothingBlocked() async throws {
        // Hearth ignores SIGINT/SIGTERM to catch them itself; the child must not inherit that,
        // or Ctrl-C would not stop it (a fresh-user run found a blocked mask and SIG_IGN here).
        #expect(try await exec(["sh", "-c", "kill -TERM $$; sleep 5"]) == 143)
        #expect(try await exec(["sh", "-c", "grep -q '^SigBlk:[[:space:]]*0*$' /proc/self/status"]) == 0)
        #expect(try await exec(["sh", "-c", "kill -INT $$; sleep 5"]) == 130)
    }

    @Test func theCommandSeesTheEmulatorEnvironment() async throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-exec-env-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        #expect(try await exec(["sh", "-c", #"test -n "$FIRESTORE_EMULATOR_HOST""#]) == 0)
        let status = try await exec(["sh", "-c", #"env > "$0""#, out.path])
        #expect(status == 0)
        let text = try String(contentsOf: out, encoding: .utf8)
        var env: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let eq = line.firstIndex(of: "=") else { continue }
            env[String(line[..<eq])] = String(line[line.index(after: eq)...])
        }
        #expect(env["GCLOUD_PROJECT"] == "demo-exec")
        #expect(env["GOOGLE_CLOUD_PROJECT"] == "demo-exec")
        for key in ["FIRESTORE_EMULATOR_HOST", "FIREBASE_AUTH_EMULATOR_HOST", "FIREBASE_EMULATOR_HUB"] {
            let value = try #require(env[key], "\(key) missing")
            #expect(value.hasPrefix("127.0.0.1:"), "\(key)=\(value)")
            #expect(Int(value.dropFirst("127.0.0.1:".count)).map { $0 > 0 } == true, "\(key)=\(value)")
        }
        #expect(env["FIREBASE_FIRESTORE_EMULATOR_ADDRESS"] == env["FIRESTORE_EMULATOR_HOST"])
    }

    @Test func withoutACommandOrWithAnUnknownOne() async throws {
        await #expect(throws: ConfigError.self) { try await exec([]) }
        await #expect(throws: ConfigError.self) { try await exec(["hearth-no-such-command-\(UUID().uuidString)"]) }
    }

    @Test func hubListsEveryEmulator() async throws {
        try await withEmulators { e in
            let list = try await Emulators.send("GET", e.hubURL("/emulators"))
            #expect(list.status == 200)
            let j = list.json
            #expect(j["firestore"]?["port"]?.int == Int64(e.firestore))
            #expect(j["firestore"]?["host"]?.string == "127.0.0.1")
            #expect(j["auth"]?["port"]?.int == Int64(e.auth))
            #expect(j["hub"]?["port"]?.int == Int64(e.hub))
            #expect(j["auth"]?["name"]?.string == "auth")
            #expect(j["auth"]?["listen"]?.elements.first?["family"]?.string == "IPv4")
            #expect(j["auth"]?["pid"]?.int == Int64(ProcessInfo.processInfo.processIdentifier))
            let locator = try await Emulators.send("GET", e.hubURL("/"))
            #expect(locator.json["version"]?.string == "hearth")
            #expect(locator.json["port"]?.int == Int64(e.hub))
            let external = try await Emulators.send(
                "POST", e.hubURL("/_admin/export"), body: #"{"path":"x"}"#, headers: ["Origin": "http://evil.test"])
            #expect(external.status == 403)
            let triggers = try await Emulators.send("PUT", e.hubURL("/functions/disableBackgroundTriggers"))
            #expect(triggers.status == 200)
        }
    }

    @Test func authIsNotStartedWhenFirebaseJSONDoesNotNameIt() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-noauth-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try #"{"emulators":{"firestore":{"port":0},"hub":{"port":0}}}"#.write(
            to: dir.appendingPathComponent("firebase.json"), atomically: true, encoding: .utf8)
        let app = try HearthApp(options: startOptions(dir, project: "demo-noauth"))
        let ports = try await app.start()
        #expect(ports.auth == nil)
        let hub = try #require(ports.hub)
        let list = try await Emulators.send("GET", "http://127.0.0.1:\(hub)/emulators")
        #expect(list.json["auth"] == nil)
        #expect(list.json["firestore"] != nil)
        await app.stop()
    }
}
