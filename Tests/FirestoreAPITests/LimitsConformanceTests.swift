import FirestoreModel
import GoogleWire
import Testing

@testable import FirestoreAPI

/// `limits.json`: writes at and just past each size limit, replayed over REST on every write
/// path (Commit, UpdateDocument, CreateDocument, BatchWrite); status, error status and error
/// message must equal the emulator's, except where production's documented behaviour differs
/// (`skips.json` → `limits`, each reason citing its source).
@Suite struct LimitsConformanceTests {
    @Test func everyLimitCaseGetsTheRecordedAnswer() async throws {
        let corpus = try Conformance.load("limits.json")
        var tally = try ConformanceTally("limits")
        try await withHearth(project: Conformance.database.project) { c in
            for k in corpus["cases"]?.arrayItems ?? [] {
                let id = k["id"]?.stringItem ?? "?"
                let note = k["note"]?.stringItem ?? ""
                let expected = k["expect"]?.arrayItems ?? []
                var got: [String] = []
                var want: [String] = []
                for (index, step) in (k["steps"]?.arrayItems ?? []).enumerated() {
                    let method = step["method"]?.stringItem ?? "POST"
                    let body = method == "GET" ? nil : Self.expand(step["body"] ?? .null).serializedString
                    let reply = try await c.call(method, c.documents + (step["path"]?.stringItem ?? ""), body)
                    let recorded = index < expected.count ? expected[index] : .null
                    got.append(Self.outcome(reply.status, reply.json, read: recorded["fields"] != nil))
                    want.append(index < expected.count ? Self.outcome(recorded) : "?")
                }
                tally.check(id, got == want, "\(note): Hearth \(got), emulator \(want)")
            }
        }
        tally.finish()
    }

    /// One step's outcome as comparable text: status, error status and message, BatchWrite's
    /// per-write codes and messages, or with `read` (a GET step) the document's fields.
    static func outcome(_ status: Int, _ json: JSONValue, read: Bool = false) -> String {
        if status != 200 {
            return "\(status) \(json[path: "error", "status"]?.stringValue ?? "") \(json[path: "error", "message"]?.stringValue ?? "")"
        }
        if read { return "200 " + (json["fields"] ?? .object([])).serializedString }
        guard let statuses = json["status"]?.arrayItems else { return "200" }
        return "200 " + statuses.map { "\($0["code"].map(\.serializedString) ?? "0") \($0["message"]?.stringValue ?? "")" }.joined(separator: "; ")
    }

    /// The recorded outcome in the same text.
    static func outcome(_ recorded: JSONValue) -> String {
        let status = Int(recorded["status"]?.serializedString ?? "") ?? 0
        if let error = recorded["error"] {
            return "\(status) \(error["status"]?.stringItem ?? "") \(error["message"]?.stringItem ?? "")"
        }
        if let fields = recorded["fields"] { return "200 " + fields.serializedString }
        guard let codes = recorded["writeStatus"]?.arrayItems else { return "\(status)" }
        let messages = recorded["writeMessages"]?.arrayItems ?? []
        return "200 " + codes.enumerated().map { i, code in
            "\(code.serializedString) \(i < messages.count ? messages[i].stringItem ?? "" : "")"
        }.joined(separator: "; ")
    }

    /// Expands the corpus's compact forms: `{"$repeat": [text, n]}` → text repeated n times,
    /// a key `"$repeat:c:n"` → c repeated n times, `{"$name": [segments]}` → the document name.
    static func expand(_ v: JSONValue) -> JSONValue {
        switch v {
        case .array(let a): return .array(a.map(expand))
        case .object(let members):
            if members.count == 1, members[0].key == "$repeat", case .array(let args) = members[0].value, args.count == 2,
                let text = args[0].stringItem, let n = Int(args[1].serializedString)
            {
                return .string(String(repeating: text, count: n))
            }
            if members.count == 1, members[0].key == "$name", case .array(let segments) = members[0].value {
                let path = segments.map { expand($0).stringItem ?? "" }.joined(separator: "/")
                return .string(Conformance.database.documentsRoot + "/" + path)
            }
            return .object(members.map { m in
                let parts = m.key.split(separator: ":", omittingEmptySubsequences: false)
                if parts.count == 3, parts[0] == "$repeat", let n = Int(parts[2]) {
                    return JSONValue.Member(String(repeating: String(parts[1]), count: n), expand(m.value))
                }
                return JSONValue.Member(m.key, expand(m.value))
            })
        default: return v
        }
    }
}
