import FirestoreModel
import GoogleWire
import Testing

@testable import FirestoreAPI

/// `rest_paths.json`: document ids holding `:`, `%`, spaces, `@`, `+`, `=`, UTF-8 and `%2F` in
/// REST paths, beside the custom verbs, replayed in order against Hearth. Status, error status
/// and the returned names must equal the emulator's, except where production differs
/// (`skips.json` → `rest_paths`, each reason citing its source).
@Suite struct RESTPathsConformanceTests {
    @Test func everyRecordedPathGetsTheEmulatorsAnswer() async throws {
        let corpus = try Conformance.load("rest_paths.json")
        var tally = try ConformanceTally("rest_paths")
        try await withHearth(project: Conformance.database.project) { c in
            for k in corpus["cases"]?.arrayItems ?? [] {
                let id = k["id"]?.stringItem ?? "?"
                let method = k["method"]?.stringItem ?? "GET"
                let path = k["path"]?.stringItem ?? ""
                let body = k["body"].flatMap { $0 == .null ? nil : $0.serializedString }
                let reply = try await c.call(method, c.documents + path, body)
                let got = Self.outcome(reply.status, reply.json)
                let want = Self.recorded(k["expect"] ?? .null)
                tally.check(id, got == want, "\(method) \(path): Hearth \(got), emulator \(want)")
            }
        }
        tally.finish()
    }

    /// Hearth's reply in the recorder's terms.
    static func outcome(_ status: Int, _ json: JSONValue) -> String {
        if status != 200 { return "\(status) \(json[path: "error", "status"]?.stringValue ?? "")" }
        if let results = json.arrayItems {
            return "200 names=" + results.compactMap { $0[path: "document", "name"]?.stringValue }.joined(separator: ",")
        }
        if let documents = json["documents"]?.arrayItems {
            return "200 names=" + documents.compactMap { $0["name"]?.stringValue }.joined(separator: ",")
        }
        if let ids = json["collectionIds"]?.arrayItems {
            return "200 collectionIds=" + ids.compactMap(\.stringItem).joined(separator: ",")
        }
        if let name = json["name"]?.stringValue { return "200 name=\(name)" }
        return "200"
    }

    /// The recorded outcome in the same terms.
    static func recorded(_ e: JSONValue) -> String {
        let status = Int(e["status"]?.serializedString ?? "") ?? 0
        if status != 200 { return "\(status) \(e["errorStatus"]?.stringItem ?? "")" }
        if let names = e["names"]?.arrayItems { return "200 names=" + names.compactMap(\.stringItem).joined(separator: ",") }
        if let ids = e["collectionIds"]?.arrayItems { return "200 collectionIds=" + ids.compactMap(\.stringItem).joined(separator: ",") }
        if let name = e["name"]?.stringItem { return "200 name=\(name)" }
        return "200"
    }
}
