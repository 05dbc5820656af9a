import AuthEmulator
import Foundation
import GoogleWire
import Hearth
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A running Hearth (in memory unless `data` is given) with Firestore, Auth and the hub on
/// ephemeral ports, and a small HTTP client.
struct Emulators: Sendable {
    let project: String
    let firestore: Int
    let auth: Int
    let hub: Int
    /// The Emulator UI's port (issue 15).
    let ui: Int
    let directory: URL

    struct Reply: Sendable {
        let status: Int
        let body: [UInt8]
        /// Response header fields, names lower-cased.
        var headers: [String: String] = [:]
        var json: JSONValue { (try? JSONValue.parse(body)) ?? .null }
        var text: String { String(decoding: body, as: UTF8.self) }
        /// `error.message` of an Auth error body.
        var errorMessage: String? { json["error"]?["message"]?.string }
    }

    /// Sends a request; `body` is sent as is with `contentType`.
    static func send(
        _ method: String, _ url: String, body: String? = nil, contentType: String? = "application/json",
        headers: [String: String] = [:]
    ) async throws -> Reply {
        var request = URLRequest(url: try #require(URL(string: url)))
        request.httpMethod = method
        if let body {
            request.httpBody = Data(body.utf8)
            if let contentType { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
        }
        for (k, v) in headers { request.setValue(v, forHTTPHeaderField: k) }
        // No idle keep-alive connection left behind: HTTPServer.shutdown waits ~2 s to drain one.
        request.setValue("close", forHTTPHeaderField: "Connection")
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = response as? HTTPURLResponse
        var fields: [String: String] = [:]
        for (k, v) in http?.allHeaderFields ?? [:] {
            if let k = k as? String, let v = v as? String { fields[k.lowercased()] = v }
        }
        return Reply(status: http?.statusCode ?? 0, body: Array(data), headers: fields)
    }

    /// `POST /identitytoolkit.googleapis.com/v1/accounts:{op}?key=fake-key` with a JSON body.
    func account(_ op: String, _ body: String) async throws -> Reply {
        try await Self.send(
            "POST", "http://127.0.0.1:\(auth)/identitytoolkit.googleapis.com/v1/accounts:\(op)?key=fake-key", body: body
        )
    }

    /// An Auth emulator URL.
    func authURL(_ path: String) -> String { "http://127.0.0.1:\(auth)\(path)" }

    /// A Firestore URL.
    func firestoreURL(_ path: String) -> String { "http://127.0.0.1:\(firestore)\(path)" }

    /// A hub URL.
    func hubURL(_ path: String) -> String { "http://127.0.0.1:\(hub)\(path)" }

    /// An Emulator UI URL.
    func uiURL(_ path: String) -> String { "http://127.0.0.1:\(ui)\(path)" }

    /// `/v1/projects/{p}/databases/(default)/documents`.
    var documents: String { "/v1/projects/\(project)/databases/(default)/documents" }
}

/// Writes a `firebase.json` naming firestore, auth and hub on port 0 into a fresh directory.
func makeProjectDirectory() throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-auth-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let config =
        #"{"emulators":{"firestore":{"host":"127.0.0.1","port":0},"auth":{"host":"127.0.0.1","port":0},"hub":{"host":"127.0.0.1","port":0},"ui":{"port":0}}}"#
    try config.write(to: dir.appendingPathComponent("firebase.json"), atomically: true, encoding: .utf8)
    return dir
}

/// Options for a Hearth on `dir`'s firebase.json.
func startOptions(_ dir: URL, project: String, data: String? = nil) -> StartOptions {
    var o = StartOptions()
    o.configPath = dir.appendingPathComponent("firebase.json").path
    o.project = project
    o.quiet = true
    if let data { o.dataPath = data } else { o.inMemory = true }
    return o
}

/// Runs `body` against a started Hearth; stops it afterwards.
func withEmulators(
    project: String = "demo-auth", configure: (inout StartOptions, URL) -> Void = { _, _ in },
    _ body: (Emulators) async throws -> Void
) async throws {
    let dir = try makeProjectDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    var o = startOptions(dir, project: project)
    configure(&o, dir)
    let app = try HearthApp(options: o)
    let ports = try await app.start()
    do {
        let emulators = Emulators(
            project: project, firestore: ports.firestore, auth: try #require(ports.auth), hub: try #require(ports.hub),
            ui: try #require(ports.ui), directory: dir)
        try await body(emulators)
    } catch {
        await app.stop()
        throw error
    }
    await app.stop()
}

/// An unsigned JWT with `claims` (what a test passes as a Google `id_token`).
func unsignedJWT(_ claims: String) -> String {
    BearerToken.base64URLEncode(Data(#"{"alg":"none","typ":"JWT"}"#.utf8)) + "."
        + BearerToken.base64URLEncode(Data(claims.utf8)) + "."
}

/// The payload of a JWT, or `.null`.
func claims(of token: String?) -> JSONValue {
    guard let token, let (_, payload) = EmulatorJWT.decode(token) else { return .null }
    return payload
}

extension JSONValue {
    /// The string, if this is one.
    var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The elements, if this is an array (else empty).
    var elements: [JSONValue] {
        if case .array(let a) = self { return a }
        return []
    }

    /// The integer value of a number.
    var int: Int64? {
        if case .number(let t) = self { return Int64(t) }
        return nil
    }
}
