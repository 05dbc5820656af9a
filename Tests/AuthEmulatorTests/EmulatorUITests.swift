import Foundation
import GoogleWire
import Hearth
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The Emulator UI's server (issue 15): its pages, `/api/config`, the in-process forwarding to
/// the emulators, the requests journal, the functions view and the live event stream.
@Suite struct EmulatorUITests {
    static let rules = """
        rules_version = '2';
        service cloud.firestore {
          match /databases/{database}/documents {
            match /notes/{id} {
              allow read: if request.auth != null;
            }
          }
        }
        """

    @Test func servesItsCompiledInPagesAndItsConfig() async throws {
        try await withEmulators(project: "demo-ui") { e in
            let index = try await Emulators.send("GET", e.uiURL("/"))
            #expect(index.status == 200)
            #expect(index.headers["content-type"] == "text/html; charset=utf-8")
            #expect(index.text.contains("<script type=\"module\""))
            let app = try await Emulators.send("GET", e.uiURL("/app.js"))
            #expect(app.status == 200)
            #expect(app.headers["content-type"] == "text/javascript; charset=utf-8")
            #expect(try await Emulators.send("GET", e.uiURL("/no-such-page.js")).status == 404)
            #expect(try await Emulators.send("GET", e.uiURL("/../Package.swift")).status == 404)
            let config = try await Emulators.send("GET", e.uiURL("/api/config")).json
            #expect(config["projectId"]?.string == "demo-ui")
            #expect(config["dataFile"]?.string == "in memory")
            #expect(config["emulators"]?["firestore"]?["port"]?.int == Int64(e.firestore))
            #expect(config["emulators"]?["auth"]?["port"]?.int == Int64(e.auth))
            #expect(config["emulators"]?["ui"]?["port"]?.int == Int64(e.ui))
            // The hub lists the UI as firebase-tools' hub does.
            let hub = try await Emulators.send("GET", e.hubURL("/emulators")).json
            #expect(hub["ui"]?["port"]?.int == Int64(e.ui))
            #expect(hub["ui"]?["name"]?.string == "ui")
        }
    }

    @Test func forwardsToTheEmulatorsAndRefusesAnotherOrigin() async throws {
        try await withEmulators(project: "demo-ui") { e in
            let owner = ["Authorization": "Bearer owner"]
            let write = try await Emulators.send(
                "PATCH", e.uiURL("/api/firestore\(e.documents)/notes/n1"), body: #"{"fields":{"t":{"stringValue":"x"}}}"#,
                headers: owner)
            #expect(write.status == 200)
            let read = try await Emulators.send("GET", e.firestoreURL("\(e.documents)/notes/n1"), headers: owner)
            #expect(read.json["fields"]?["t"]?["stringValue"]?.string == "x")
            let users = try await Emulators.send(
                "POST", e.uiURL("/api/auth/identitytoolkit.googleapis.com/v1/projects/demo-ui/accounts"),
                body: #"{"email":"ui@x.io","password":"secret1"}"#, headers: owner)
            #expect(users.status == 200)
            let list = try await Emulators.send(
                "POST", e.uiURL("/api/auth/identitytoolkit.googleapis.com/v1/projects/demo-ui/accounts:batchGet"),
                body: "{}", headers: owner)
            #expect(list.json["users"]?.elements.first?["email"]?.string == "ui@x.io")
            let evil = try await Emulators.send(
                "PATCH", e.uiURL("/api/firestore\(e.documents)/notes/n1"), body: #"{"fields":{}}"#,
                headers: owner.merging(["Origin": "http://evil.test"]) { a, _ in a })
            #expect(evil.status == 403)
            let export = try await Emulators.send(
                "POST", e.uiURL("/api/export"), body: #"{"path":"x"}"#, headers: ["Origin": "http://evil.test"])
            #expect(export.status == 403)
            let after = try await Emulators.send("GET", e.firestoreURL("\(e.documents)/notes/n1"), headers: owner)
            #expect(after.json["fields"]?["t"]?["stringValue"]?.string == "x", "the refused write changed nothing")
        }
    }

    @Test func anotherHostNameIsRefusedAndForwardedAnswersCarryNoCORS() async throws {
        try await withEmulators(project: "demo-ui") { e in
            // A page whose own name was rebound to 127.0.0.1 sends Host and Origin alike.
            let rebound = try await Emulators.send(
                "POST", e.uiURL("/api/export"), body: #"{"path":"x"}"#,
                headers: ["Host": "rebind.evil.test:\(e.ui)", "Origin": "http://rebind.evil.test:\(e.ui)"])
            #expect(rebound.status == 403)
            let read = try await Emulators.send(
                "GET", e.uiURL("/api/firestore\(e.documents)/notes/n1"),
                headers: ["Host": "rebind.evil.test", "Authorization": "Bearer owner"])
            #expect(read.status == 403)
            for host in ["localhost:\(e.ui)", "127.0.0.1:\(e.ui)", "[::1]:\(e.ui)", "127.0.0.2"] {
                #expect(try await Emulators.send("GET", e.uiURL("/api/config"), headers: ["Host": host]).status == 200, "\(host)")
            }
            let forwarded = try await Emulators.send(
                "GET", e.uiURL("/api/firestore\(e.documents)/notes/n1?mask.fieldPaths=t"),
                headers: ["Authorization": "Bearer owner", "Origin": "http://evil.test"])
            #expect(forwarded.status == 404, "forwarded with its query")
            #expect(forwarded.headers["access-control-allow-origin"] == nil)
            #expect(try await Emulators.send("GET", e.uiURL("/api/requests?after=abc")).status == 400)
            #expect(try await Emulators.send("GET", e.uiURL("/api/requests?after=-1")).status == 400)
            let huge = try await Emulators.send("GET", e.uiURL("/api/requests?after=99999999999999999999999"))
            #expect(huge.status == 200)
            #expect(huge.json["requests"]?.elements.isEmpty == true)
            #expect(try await Emulators.send("HEAD", e.uiURL("/api/config")).status == 200)
        }
    }

    @Test func theRequestsJournalHoldsGrantsWithTheirAllowAndDenialsExplained() async throws {
        try await withEmulators(project: "demo-ui") { e in
            let body = JSONValue.object([
                .init("rules", .object([.init("files", .array([.object([.init("content", .string(Self.rules))])]))]))
            ])
            let put = try await Emulators.send(
                "PUT", e.firestoreURL("/emulator/v1/projects/demo-ui:securityRules"),
                body: String(decoding: body.serialized(), as: UTF8.self))
            #expect(put.status == 200)
            let denied = try await Emulators.send("GET", e.firestoreURL("\(e.documents)/notes/n1"))
            #expect(denied.status == 403)
            let token = unsignedJWT(#"{"sub":"alice","user_id":"alice","aud":"demo-ui"}"#)
            let granted = try await Emulators.send(
                "GET", e.firestoreURL("\(e.documents)/notes/n1"), headers: ["Authorization": "Bearer \(token)"])
            #expect(granted.status == 404, "allowed, and the document does not exist")
            let journal = try await Emulators.send("GET", e.uiURL("/api/requests")).json
            let entries = journal["requests"]?.elements ?? []
            try #require(entries.count == 2, "\(journal)")
            #expect(entries[0]["verdict"]?.string == "deny")
            #expect(entries[0]["method"]?.string == "get")
            #expect(entries[0]["path"]?.string == "/databases/(default)/documents/notes/n1")
            #expect(entries[0]["uid"] == .null)
            #expect(entries[0]["message"]?.string == "\nfalse for 'get' @ L5")
            #expect(entries[0]["statements"]?.elements.first?["line"]?.int == 5)
            #expect(entries[0]["statements"]?.elements.first?["result"]?.string == "false")
            #expect(entries[0]["grantedBy"] == .null)
            #expect(entries[1]["verdict"]?.string == "allow")
            #expect(entries[1]["uid"]?.string == "alice")
            #expect(entries[1]["grantedBy"]?["line"]?.int == 5)
            #expect(entries[1]["grantedBy"]?["match"]?.string == "/databases/{database}/documents/notes/{id}")
            // The same journal on the Firestore port, and `after` pages it.
            let firstID = try #require(entries[0]["id"]?.int)
            let later = try await Emulators.send(
                "GET", e.firestoreURL("/emulator/v1/projects/demo-ui:requests?after=\(firstID)")).json
            #expect(later["requests"]?.elements.map { $0["verdict"]?.string } == ["allow"])
            let bad = try await Emulators.send("GET", e.firestoreURL("/emulator/v1/projects/demo-ui:requests?after=abc"))
            #expect(bad.status == 400)
            let rules = try await Emulators.send("GET", e.uiURL("/api/rules")).json
            #expect(rules["source"]?.string == Self.rules)
            #expect(rules["loadedAt"]?.string.map { $0 <= journal["requests"]?.elements.first?["time"]?.string ?? "" } == true)
            #expect(rules["coverage"]?["evaluatedExpressions"]?.int ?? 0 > 0)
            #expect(try await Emulators.send("DELETE", e.uiURL("/api/requests")).status == 200)
            #expect(try await Emulators.send("GET", e.uiURL("/api/requests")).json["requests"]?.elements.isEmpty == true)
        }
    }

    @Test func theEventStreamCarriesCommitsAndDecisionsAsTheyHappen() async throws {
        try await withEmulators(project: "demo-ui") { e in
            let stream = try EventStreamReader(port: e.ui)
            defer { stream.close() }
            #expect(try stream.read(until: "hearth events").contains("retry: 2000"))
            let write = try await Emulators.send(
                "PATCH", e.firestoreURL("\(e.documents)/live/d1"), body: #"{"fields":{"n":{"integerValue":"1"}}}"#,
                headers: ["Authorization": "Bearer owner"])
            #expect(write.status == 200)
            let change = try stream.read(until: "\n\n", after: "event: change")
            #expect(change.contains(#""path":"projects/demo-ui/databases/(default)/documents/live/d1","kind":"added""#))
            // Another project's commit is not this UI's.
            _ = try await Emulators.send(
                "PATCH", e.firestoreURL("/v1/projects/other/databases/(default)/documents/live/d2"),
                body: #"{"fields":{}}"#, headers: ["Authorization": "Bearer owner"])
            _ = try await Emulators.send(
                "DELETE", e.firestoreURL("\(e.documents)/live/d1"), headers: ["Authorization": "Bearer owner"])
            let removal = try stream.read(until: "\n\n", after: "event: change")
            #expect(removal.contains(#""kind":"removed""#))
            #expect(!removal.contains("live/d2"))
        }
    }

    @Test func theEventStreamTellsOfAuthAccountChangesSoTheUsersTableIsLive() async throws {
        try await withEmulators(project: "demo-ui") { e in
            let stream = try EventStreamReader(port: e.ui)
            defer { stream.close() }
            _ = try stream.read(until: "hearth events")
            let signUp = try await Emulators.send(
                "POST", e.authURL("/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k"), body: "{}")
            #expect(signUp.status == 200)
            let event = try stream.read(until: "\n\n", after: "event: auth")
            #expect(event.contains("data: {}"))
            // The UI's own forwarded calls change accounts too, and are told the same way.
            let uid = signUp.json["localId"]?.string ?? ""
            let update = try await Emulators.send(
                "POST", e.uiURL("/api/auth/identitytoolkit.googleapis.com/v1/projects/demo-ui/accounts:update"),
                body: #"{"localId":"\#(uid)","displayName":"Ada"}"#,
                headers: ["Authorization": "Bearer owner", "Content-Type": "application/json"])
            #expect(update.status == 200)
            #expect(try stream.read(until: "\n\n", after: "event: auth").contains("data: {}"))
        }
    }

    @Test func uiEnabledFalseServesNoUI() async throws {
        let dir = try makeProjectDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try #"{"emulators":{"firestore":{"port":0},"hub":{"port":0},"ui":{"enabled":false,"port":0}}}"#.write(
            to: dir.appendingPathComponent("firebase.json"), atomically: true, encoding: .utf8)
        let app = try HearthApp(options: startOptions(dir, project: "demo-noui"))
        let ports = try await app.start()
        #expect(ports.ui == nil)
        let hub = try await Emulators.send("GET", "http://127.0.0.1:\(try #require(ports.hub))/emulators").json
        #expect(hub["ui"] == nil)
        await app.stop()
        let bad = dir.appendingPathComponent("bad.json")
        try #"{"emulators":{"ui":{"enabled":"yes"}}}"#.write(to: bad, atomically: true, encoding: .utf8)
        #expect(throws: ConfigError.self) { try FirebaseConfig.load(path: bad.path) }
    }
}

/// A blocking reader of `GET /api/events` on a raw socket (URLSession would buffer the stream).
final class EventStreamReader: @unchecked Sendable {
    let fd: Int32
    var buffer: [UInt8] = []

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        try #require(connected == 0, "connect to the UI port")
        let request = Array("GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
    }

    /// Reads until the text after the first `after` (or from the start) contains `marker`;
    /// returns that text and drops it from the buffer. Fails after 10 s.
    func read(until marker: String, after start: String = "") throws -> String {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let text = String(decoding: buffer, as: UTF8.self)
            if let s = start.isEmpty ? text.startIndex : text.range(of: start)?.upperBound,
                let m = text[s...].range(of: marker)
            {
                buffer = Array(text[m.upperBound...].utf8)
                return String(text[s..<m.upperBound])
            }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 200) >= 0 else { break }
            if p.revents != 0 {
                var chunk = [UInt8](repeating: 0, count: 4096)
                let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if n <= 0 { break }
                buffer += chunk[0..<n]
            }
        }
        Issue.record("no \(marker) after \(start) in: \(String(decoding: buffer, as: UTF8.self))")
        throw CancellationError()
    }

    func close() { _ = Glibc.close(fd) }
}
