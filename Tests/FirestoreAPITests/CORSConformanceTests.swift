import Foundation
import GoogleWire
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `cors.json`: the Cloud Firestore emulator's CORS answers (REST answers with `Origin`,
/// `OPTIONS` preflights with the web SDK's requested headers, no `Origin`), replayed against
/// Hearth's Firestore port: the status, every `access-control-*` and `vary` header and whether
/// the body is empty must be the emulator's, except where `skips.json` → `cors` says why not.
@Suite struct CORSConformanceTests {
    @Test func everyCORSCaseGetsTheRecordedHeaders() async throws {
        let corpus = try Conformance.load("cors.json")
        var tally = try ConformanceTally("cors")
        try await withHearth(project: Conformance.database.project) { c in
            for k in corpus["cases"]?.arrayItems ?? [] {
                let id = k["id"]?.stringItem ?? "?"
                let path = (k["path"]?.stringItem ?? "/").replacingOccurrences(
                    of: "{docs}", with: Conformance.database.documentsRoot)
                var request = URLRequest(url: URL(string: c.base + path)!)
                request.httpMethod = k["method"]?.stringItem ?? "GET"
                request.setValue("Bearer owner", forHTTPHeaderField: "Authorization")
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                if let body = k["body"], body != .null { request.httpBody = Data(body.serializedString.utf8) }
                if case .object(let headers)? = k["headers"] {
                    for h in headers { request.setValue(h.value.stringItem, forHTTPHeaderField: h.key) }
                }
                let (data, response) = try await URLSession.shared.data(for: request)
                let http = response as? HTTPURLResponse
                var got: [String] = ["\(http?.statusCode ?? 0)", data.isEmpty ? "empty" : "body"]
                var headers: [(String, String)] = []
                for (name, value) in http?.allHeaderFields ?? [:] {
                    let name = "\(name)".lowercased()
                    if name.hasPrefix("access-control-") || name == "vary" { headers.append((name, "\(value)")) }
                }
                got += headers.sorted { $0.0 < $1.0 }.map { "\($0.0): \($0.1)" }
                let expect = k["expect"] ?? .null
                var want: [String] = [
                    expect["status"]?.serializedString ?? "?", expect["emptyBody"] == .bool(true) ? "empty" : "body",
                ]
                if case .object(let recorded)? = expect["headers"] {
                    want += recorded.map { "\($0.key): \($0.value.stringItem ?? "")" }.sorted()
                }
                tally.check(id, got == want, "\(k["note"]?.stringItem ?? ""): Hearth \(got), emulator \(want)")
            }
        }
        tally.finish()
    }
}
