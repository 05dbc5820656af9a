import FirestoreModel
import FirestoreRPC
import GoogleWire
import Testing

@testable import FirestoreAPI

/// `Tests/Conformance/explain_requests.json` (scripts/record_explain_conformance.py): Hearth's
/// REST decoder accepts exactly the `explainOptions` bodies the emulator accepts, except the
/// cases below. What the emulator then answers (results, never `explainMetrics`: it ignores
/// explain) is where Hearth deliberately follows production instead
/// (docs/reference/firestore-wire.md §1.12), so only acceptance is compared.
@Suite("Query explain conformance (emulator)")
struct ExplainConformanceTests {
    /// Cases where Hearth knowingly differs, with the reason.
    static let skips: [String: String] = [
        "runQuery analyze \"true\" (string)":
            "The emulator's JSON parser takes a quoted boolean; proto3 JSON writes bool as true/false and Hearth's codec accepts only those, for every bool field alike."
    ]

    struct Case: Sendable, CustomTestStringConvertible {
        let id: String
        let verb: String
        let body: String
        let accepted: Bool
        var testDescription: String { id }
    }

    static func cases() throws -> [Case] {
        let corpus = try Conformance.load("explain_requests.json")
        return try (corpus["cases"]?.arrayItems ?? []).map { c in
            let id = try #require(c["id"]?.stringItem)
            let verb = try #require(c["verb"]?.stringItem)
            let body = try #require(c["body"])
            guard case .number(let status)? = c["expect"]?["status"] else { throw FirestoreError.invalidArgument("no status in \(id)") }
            return Case(id: id, verb: verb, body: body.serializedString, accepted: status == "200")
        }
    }

    @Test func theCorpusIsThere() throws {
        let cases = try Self.cases()
        #expect(cases.count >= 10)
        #expect(cases.contains { $0.accepted } && cases.contains { !$0.accepted })
        for id in Self.skips.keys { #expect(cases.contains { $0.id == id }, "skip names no case: \(id)") }
    }

    @Test(arguments: try cases())
    func acceptsWhatTheEmulatorAccepts(c: Case) throws {
        let request = try RESTRoute.parse("/v1/projects/demo-explain/databases/(default)/documents:\(c.verb)", method: "POST")
        let route = try #require(request)
        let method: FirestoreMethod = c.verb == "runQuery" ? .runQuery : .runAggregationQuery
        var accepted = true
        do {
            _ = try RESTRequestDecoder(route: route, query: QueryParameters([]), body: Array(c.body.utf8)).decode(method)
        } catch {
            #expect(error.code == .invalidArgument, "\(c.id): \(error)")
            accepted = false
        }
        if Self.skips[c.id] != nil {
            #expect(accepted != c.accepted, "\(c.id) is skipped but now agrees with the emulator")
        } else {
            #expect(
                accepted == c.accepted,
                "\(c.id): Hearth \(accepted ? "accepts" : "rejects"), the emulator \(c.accepted ? "accepts" : "rejects")")
        }
    }
}
