import FirestoreModel
import Testing

@testable import FirestoreAPI

/// `value_ordering.json`: the model's total order agrees with the emulator's.
@Suite struct JSONConformanceOrderingTests {
    @Test func valueOrderMatchesTheEmulator() throws {
        let corpus = try Conformance.load("value_ordering.json")
        var values: FieldMap = [:]
        var notes: [String: String] = [:]
        for entry in corpus["values"]?.arrayItems ?? [] where entry["writeError"] == nil {
            let id = entry["id"]?.stringItem ?? ""
            values[id] = try RESTCodec.decodeValue(entry["value"] ?? .null)
            notes[id] = entry["note"]?.stringItem ?? ""
        }
        var rank: [String: Int] = [:]
        for (g, group) in (corpus["groups"]?.arrayItems ?? []).enumerated() {
            for id in group.arrayItems ?? [] { rank[id.stringItem ?? ""] = g }
        }
        #expect(rank.count == values.count && values.count > 90)

        var tally = try ConformanceTally("value_ordering")
        let ids = values.keys.sorted()
        for a in ids {
            guard let va = values[a], let ra = rank[a] else { continue }
            var wrong: [String] = []
            for b in ids {
                guard let vb = values[b], let rb = rank[b] else { continue }
                if Value.compare(va, vb) != Ordering(ra, rb) { wrong.append(notes[b] ?? b) }
            }
            tally.check(a, wrong.isEmpty, "\(notes[a] ?? a) is ordered wrongly against: \(wrong.joined(separator: ", "))")
        }
        tally.finish()
    }
}
