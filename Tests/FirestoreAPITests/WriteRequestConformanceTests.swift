import FirestoreModel
import GoogleWire
import Testing

@testable import FirestoreAPI

/// `transforms.json` → `requests`: Commit, Commit in a transaction and BatchWrite requests of
/// several writes, combining verifies with other writes of one document, replayed over REST.
/// Status and error status must equal the emulator's, and the message too where it is about
/// verifies or repeated documents (the emulator's own wording elsewhere, e.g. its NOT_FOUND
/// with an entity dump, is not Hearth's); write results must equal the recorded ones, with
/// `<verifyTime>` (a document verified missing) read as the commit time, as Hearth reports it.
@Suite struct WriteRequestConformanceTests {
    @Test func everyRequestGetsTheRecordedAnswer() async throws {
        let corpus = try Conformance.load("transforms.json")
        var tally = try ConformanceTally("transform_requests")
        try await withHearth(project: Conformance.database.project) { c in
            for k in corpus["requests"]?.arrayItems ?? [] {
                let id = k["id"]?.stringItem ?? "?"
                let note = k["note"]?.stringItem ?? ""
                let rpc = k["rpc"]?.stringItem ?? "commit"
                let base = "requests/\(id)/docs"
                let fields = #"{"fields":{"a":{"integerValue":"1"}}}"#
                let setup = try await c.call("PATCH", c.documents + "/\(base)/e", fields)
                let before = setup.json["updateTime"]?.stringValue ?? "?"
                var body: [JSONValue.Member] = [.init("writes", Self.named(k["writes"] ?? .null, under: c.name(base)))]
                var transaction: String?
                if rpc == "transaction" {
                    let began = try await c.call("POST", c.documents + ":beginTransaction", "{}")
                    transaction = began.json["transaction"]?.stringValue
                    body.append(.init("transaction", .string(transaction ?? "")))
                }
                let verb = rpc == "batchWrite" ? ":batchWrite" : ":commit"
                let reply = try await c.call("POST", c.documents + verb, JSONValue.object(body).serializedString)
                var got = Self.outcome(reply.status, reply.json, before: before)
                if let transaction, reply.status != 200 {
                    let again = try await c.call("POST", c.documents + ":commit", #"{"transaction":"\#(transaction)"}"#)
                    got += " then \(again.status)"
                }
                let want = Self.outcome(k)
                tally.check(id, got == want, "\(note): Hearth \(got), emulator \(want)")
            }
        }
        tally.finish()
    }

    /// Hearth's answer as comparable text, its clock readings as the corpus's placeholders.
    static func outcome(_ status: Int, _ json: JSONValue, before: String) -> String {
        if status != 200 { return "\(status) " + error(json["error"] ?? .null) }
        let commitTime = json["commitTime"]?.stringValue
        let results = (json["writeResults"]?.arrayItems ?? []).map { r -> String in
            guard let t = r["updateTime"]?.stringValue else { return "{}" }
            if t == before { return "<updateTime:before>" }
            if let commitTime { return t == commitTime ? "<commitTime>" : t }
            return "<time>"  // BatchWrite: each write commits on its own.
        }
        let codes = (json["status"]?.arrayItems ?? []).map { $0["code"].map(\.serializedString) ?? "0" }
        return "200 \(results) \(codes)"
    }

    /// The recorded answer in the same text; `<verifyTime>` is the commit time in Hearth.
    static func outcome(_ k: JSONValue) -> String {
        let status = Int(k["status"]?.serializedString ?? "") ?? 0
        if status != 200 {
            var text = "\(status) " + error(k["error"] ?? .null)
            if let again = k["transactionAfterwards"]?["status"] { text += " then \(again.serializedString)" }
            return text
        }
        let results = (k["writeResults"]?.arrayItems ?? []).map { r -> String in
            guard let t = r["updateTime"]?.stringItem else { return "{}" }
            return t == "<verifyTime>" ? "<commitTime>" : t
        }
        let codes = (k["writeStatus"]?.arrayItems ?? []).map(\.serializedString)
        return "200 \(results) \(codes)"
    }

    /// An error's status, and its message when about verifies or repeated documents.
    static func error(_ e: JSONValue) -> String {
        let status = e["status"]?.stringItem ?? e["status"]?.stringValue ?? ""
        let message = e["message"]?.stringItem ?? e["message"]?.stringValue ?? ""
        let compared = message.hasPrefix("a verify") || message.hasPrefix("the same document")
        return compared ? "\(status) \(message)" : status
    }

    /// The corpus's short document names (`e`, `m`, `o`, `n`) → full names under `base`.
    static func named(_ writes: JSONValue, under base: String) -> JSONValue {
        .array((writes.arrayItems ?? []).map { w in
            guard case .object(let members) = w else { return w }
            return .object(members.map { m in
                switch m.key {
                case "verify", "delete": return .init(m.key, .string("\(base)/\(m.value.stringItem ?? "")"))
                case "update", "transform":
                    let key = m.key == "update" ? "name" : "document"
                    guard case .object(let inner) = m.value else { return m }
                    return .init(m.key, .object(inner.map { i in
                        i.key == key ? .init(key, .string("\(base)/\(i.value.stringItem ?? "")")) : i
                    }))
                default: return m
                }
            })
        })
    }
}
