import FirestoreAPI
import Foundation
import GoogleWire
import Hearth
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A running Hearth (in memory or on a file) on an ephemeral port, and a small REST client.
struct RESTClient: Sendable {
    let base: String
    let project: String

    var documents: String { "/v1/projects/\(project)/databases/(default)/documents" }

    struct Reply: Sendable {
        let status: Int
        let body: [UInt8]
        var json: JSONValue { (try? JSONValue.parse(body, maxDepth: 1000)) ?? .null }
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    func call(_ method: String, _ path: String, _ body: String? = nil, token: String? = "owner") async throws -> Reply {
        var request = URLRequest(url: URL(string: base + path)!)
        request.httpMethod = method
        if let body { request.httpBody = Data(body.utf8) }
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        let (data, response) = try await URLSession.shared.data(for: request)
        return Reply(status: (response as? HTTPURLResponse)?.statusCode ?? 0, body: Array(data))
    }

    func name(_ path: String) -> String { "projects/\(project)/databases/(default)/documents/\(path)" }
}

/// Starts Hearth for the duration of `body`.
func withHearth(
    data: String? = nil, rules: String? = nil, project: String = "demo-rest",
    _ body: (RESTClient) async throws -> Void
) async throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    var config = #"{"emulators":{"firestore":{"host":"127.0.0.1","port":0}}"#
    if let rules {
        try rules.write(to: dir.appendingPathComponent("firestore.rules"), atomically: true, encoding: .utf8)
        config += #","firestore":{"rules":"firestore.rules"}"#
    }
    config += "}"
    try config.write(to: dir.appendingPathComponent("firebase.json"), atomically: true, encoding: .utf8)
    var options = StartOptions()
    options.configPath = dir.appendingPathComponent("firebase.json").path
    options.project = project
    options.quiet = true
    if let data { options.dataPath = data } else { options.inMemory = true }
    let app = try HearthApp(options: options)
    let ports = try await app.start()
    do {
        try await body(RESTClient(base: "http://127.0.0.1:\(ports.firestore)", project: project))
    } catch {
        await app.stop()
        throw error
    }
    await app.stop()
}

extension JSONValue {
    /// `self[a][b]…` for tests.
    subscript(path keys: String...) -> JSONValue? {
        var v: JSONValue? = self
        for k in keys { v = v?[k] }
        return v
    }

    var arrayValue: [JSONValue] {
        if case .array(let a) = self { return a }
        return []
    }

    var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }
}
