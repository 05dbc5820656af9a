import FirestoreModel
import Testing

@testable import FirestoreAPI

/// `query_cases.json`: `StructuredQuery.validate()` + `evaluate` over the decoded dataset give
/// the emulator's result ids (last path segments), in order, or fail where it fails with its
/// status and message.
@Suite struct JSONConformanceQueryTests {
    @Test func queriesMatchTheEmulator() throws {
        let corpus = try Conformance.load("query_cases.json")
        let db = Conformance.database
        var documents: [Document] = []
        guard case .object(let dataset)? = corpus["dataset"] else {
            Issue.record("no dataset")
            return
        }
        for member in dataset {
            // Keys are ids in `q`, or deeper paths (`d01/q/x1`) for sub-collections.
            let path = ResourcePath(relative: "q/" + member.key)
            let fields = try RESTCodec.decodeFields(member.value, at: member.key)
            try DocumentLimits.validate(fields: fields, path: path)
            let t = Timestamp(seconds: 1, nanos: 0)
            documents.append(Document(path: path, fields: fields, createTime: t, updateTime: t))
        }
        #expect(documents.count >= 20)

        var tally = try ConformanceTally("query_cases")
        for c in corpus["cases"]?.arrayItems ?? [] {
            let name = c["name"]?.stringItem ?? "?"
            let expected = c["result"]?.arrayItems?.compactMap(\.stringItem)
            let outcome: Result<[String], FirestoreError>
            do {
                let query = try RESTCodec.decodeStructuredQuery(c["query"] ?? .null)
                try query.validate()
                let target = QueryTarget(parent: ResourcePath(relative: c["parent"]?.stringItem ?? ""), query: query)
                outcome = .success(query.evaluate(over: documents, target: target, in: db).documents.map(\.path.lastSegment))
            } catch {
                outcome = .failure(error)
            }
            switch (outcome, expected) {
            case (.success(let ids), let want?):
                tally.check(name, ids == want, "got \(ids), emulator \(want)")
            case (.failure(let e), nil):
                // The status, and the emulator's message within Hearth's (the REST codec may
                // prefix the field it was decoding).
                let want = c["error"]?["status"]?.stringItem ?? "?"
                let message = c["error"]?["message"]?.stringItem ?? ""
                tally.check(name, e.code.name == want && e.message.contains(message), "got \(e), emulator \(want) \(message)")
            case (.success(let ids), nil):
                tally.check(name, false, "got \(ids), emulator failed with \(c["error"]?.serializedString ?? "?")")
            case (.failure(let e), let want?):
                tally.check(name, false, "got \(e), emulator \(want)")
            }
        }
        tally.finish()
    }
}
