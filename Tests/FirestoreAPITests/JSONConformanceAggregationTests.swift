import FirestoreModel
import GoogleWire
import Testing

@testable import FirestoreAPI

/// `aggregation_cases.json`: each recorded runAggregationQuery, sent over REST to a Hearth
/// holding the corpus dataset, answers the emulator's aggregate fields (same alias, same
/// value type, equal value) or its error status and message.
@Suite struct JSONConformanceAggregationTests {
    @Test func aggregationsMatchTheEmulator() async throws {
        let corpus = try Conformance.load("aggregation_cases.json")
        guard case .object(let dataset)? = corpus["dataset"] else {
            Issue.record("no dataset")
            return
        }
        try await withHearth(project: Conformance.database.project) { c in
            for member in dataset {
                let body = JSONValue.object([.init("fields", member.value)]).serializedString
                let reply = try await c.call("PATCH", "\(c.documents)/\(member.key)", body)
                try #require(reply.status == 200, "write \(member.key): \(reply.text)")
            }
            var tally = try ConformanceTally("aggregation_cases")
            for item in corpus["cases"]?.arrayItems ?? [] {
                let name = item["name"]?.stringItem ?? "?"
                let request = JSONValue.object([.init("structuredAggregationQuery", item["structuredAggregationQuery"] ?? .null)])
                let reply = try await c.call("POST", "\(c.documents):runAggregationQuery", request.serializedString)
                if let want = item["result"] {
                    let got = reply.json.arrayValue.first?["result"]?["aggregateFields"]
                    tally.check(
                        name, reply.status == 200 && Self.sameFields(got, want), "got \(reply.text), emulator \(want.serializedString)")
                } else {
                    let status = item["error"]?["status"]?.stringItem
                    let message = item["error"]?["message"]?.stringItem
                    let error = reply.json["error"] ?? reply.json.arrayValue.first?["error"]
                    let agrees =
                        error?["status"]?.stringItem == status
                        && (message.map { error?["message"]?.stringItem?.contains($0) ?? false } ?? true)
                    tally.check(name, agrees, "got \(reply.status) \(reply.text), emulator \(status ?? "?") \(message ?? "")")
                }
            }
            tally.finish()
        }
    }

    /// Same aliases, and per alias the same value type and an equal value (NaN equals NaN;
    /// doubles compare by value, so the emulator's number text need not match Hearth's).
    static func sameFields(_ got: JSONValue?, _ want: JSONValue) -> Bool {
        guard case .object(let g)? = got, case .object(let w) = want, g.count == w.count else { return false }
        let gotByAlias = Dictionary(g.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
        for member in w {
            guard let gv = gotByAlias[member.key],
                let a = try? RESTCodec.decodeValue(gv), let b = try? RESTCodec.decodeValue(member.value),
                a.typeName == b.typeName, a.firestoreEquals(b)
            else { return false }
        }
        return true
    }
}
