import FirestoreAPI
import Foundation
import GoogleWire

/// The Security Rules corpus recorded from the Cloud Firestore emulator by
/// `scripts/record_rules_conformance.py`: `Tests/Conformance/rules/cases.json`, the
/// `<group>.rules` files beside it and `skips.json` (grouped by reason).
struct RulesCorpus {
    /// One REST call of a case; `path` is relative to `/v1/projects/{p}/databases/(default)/documents`.
    struct Step {
        /// HTTP method.
        let method: String
        /// Path (with query string) below the documents root; `$TXN` marks the transaction id.
        let path: String
        /// JSON body, or nil for none.
        let body: JSONValue?
    }

    /// What the emulator answered to one step.
    struct Outcome {
        /// HTTP status.
        let status: Int
        /// `error.status` (`PERMISSION_DENIED`, …), when the answer is an error.
        let errorStatus: String?
        /// `error.message`, normalised by the recorder (absent for 404s).
        let message: String?
    }

    /// One request case: the token, whether to clear and re-seed first, the steps and the answers.
    struct Case {
        /// `<group>.<name>[/<token>]`, unique in the corpus.
        let id: String
        /// The language area the case exercises.
        let area: String
        /// What the case checks (for expression cases, the expression).
        let title: String
        /// Key into `tokens`, or nil for a request without Authorization.
        let auth: String?
        /// Whether to clear the database and write the seed documents first.
        let resetBefore: Bool
        /// Documents written (as owner) for this case on top of the group's seed.
        let seed: [(path: String, fields: JSONValue)]
        /// The REST calls, in order.
        let steps: [Step]
        /// The emulator's answer to each step.
        let expect: [Outcome]
    }

    /// One rules text with its seed documents and cases.
    struct Group {
        /// Group name (also the `.rules` file name).
        let name: String
        /// The rules text.
        let rules: String
        /// Documents written (as owner) before a case that resets.
        let seed: [(path: String, fields: JSONValue)]
        /// The group's cases, in recording order.
        let cases: [Case]
    }

    /// A ruleset loaded with PUT …:securityRules and the emulator's answer.
    struct CompileCase {
        /// `compile.<name>`.
        let id: String
        /// What the ruleset exercises.
        let title: String
        /// The rules text.
        let rules: String
        /// The emulator's answer to the PUT.
        let expect: Outcome
        /// What else must agree when both refuse the rules: nil the verdict only, `position`
        /// the first error's line and column, `message` also its text.
        let compare: String?
    }

    /// The project the corpus was recorded in (tokens name it as `aud`).
    let project: String
    /// Token name → JWT payload.
    let tokens: [String: JSONValue]
    /// Request cases grouped by rules text.
    let groups: [Group]
    /// Rulesets loaded only to compare the PUT verdict.
    let compile: [CompileCase]
    /// Case id → reason, from `skips.json`.
    let skips: [String: String]

    /// `Tests/Conformance/rules/`, located from this file.
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Conformance").appendingPathComponent("rules")

    /// A corpus file that is missing or does not have the recorded shape.
    struct Malformed: Error, CustomStringConvertible {
        /// What is wrong.
        let description: String
    }

    /// Reads and decodes the corpus.
    /// - Throws: `Malformed` when a file is missing or does not have the recorded shape.
    static func load() throws -> RulesCorpus {
        let root = try json("cases.json")
        guard let project = root["project"]?.stringItem else { throw Malformed(description: "cases.json: no project") }
        var tokens: [String: JSONValue] = [:]
        if case .object(let members)? = root["tokens"] {
            for m in members { tokens[m.key] = m.value }
        }
        var groups: [Group] = []
        for g in root["groups"]?.arrayItems ?? [] {
            guard let name = g["name"]?.stringItem, let file = g["rules"]?.stringItem else {
                throw Malformed(description: "cases.json: group without name or rules")
            }
            guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(file).path) else {
                throw Malformed(description: "missing \(file)")
            }
            let cases = try (g["cases"]?.arrayItems ?? []).map(decodeCase)
            groups.append(Group(name: name, rules: String(decoding: data, as: UTF8.self), seed: documents(g["seed"]), cases: cases))
        }
        let compile = try (root["compile"]?.arrayItems ?? []).map { c -> CompileCase in
            guard let id = c["id"]?.stringItem, let rules = c["rules"]?.stringItem, let expect = c["expect"] else {
                throw Malformed(description: "cases.json: bad compile case")
            }
            return CompileCase(id: id, title: c["title"]?.stringItem ?? "", rules: rules, expect: try outcome(expect),
                               compare: c["compare"]?.stringItem)
        }
        var skips: [String: String] = [:]
        for group in try json("skips.json")["skips"]?.arrayItems ?? [] {
            guard let reason = group["reason"]?.stringItem, !reason.isEmpty else {
                throw Malformed(description: "skips.json: every skip needs a reason")
            }
            for id in group["cases"]?.arrayItems ?? [] { skips[id.stringItem ?? ""] = reason }
        }
        return RulesCorpus(project: project, tokens: tokens, groups: groups, compile: compile, skips: skips)
    }

    private static func json(_ name: String) throws -> JSONValue {
        guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path) else {
            throw Malformed(description: "missing \(name)")
        }
        return try JSONValue.parse([UInt8](data))
    }

    private static func documents(_ value: JSONValue?) -> [(path: String, fields: JSONValue)] {
        guard case .object(let members)? = value else { return [] }
        return members.map { ($0.key, $0.value) }
    }

    private static func decodeCase(_ c: JSONValue) throws -> Case {
        guard let id = c["id"]?.stringItem else { throw Malformed(description: "case without id") }
        let steps = try (c["steps"]?.arrayItems ?? []).map { s -> Step in
            guard let method = s["method"]?.stringItem, let path = s["path"]?.stringItem else {
                throw Malformed(description: "\(id): bad step")
            }
            return Step(method: method, path: path, body: s["body"])
        }
        let expect = try (c["expect"]?.arrayItems ?? []).map(outcome)
        guard !steps.isEmpty, steps.count == expect.count else { throw Malformed(description: "\(id): steps and expect differ") }
        return Case(
            id: id, area: c["area"]?.stringItem ?? "", title: c["title"]?.stringItem ?? "", auth: c["auth"]?.stringItem,
            resetBefore: c["resetBefore"] == .bool(true), seed: documents(c["seed"]), steps: steps, expect: expect)
    }

    private static func outcome(_ o: JSONValue) throws -> Outcome {
        guard case .number(let text)? = o["status"], let status = Int(text) else { throw Malformed(description: "outcome without status") }
        return Outcome(status: status, errorStatus: o["errorStatus"]?.stringItem, message: o["message"]?.stringItem)
    }

    /// The unsigned (`alg: none`) bearer token for `payload`, encoded as
    /// @firebase/rules-unit-testing does (base64url without padding, empty signature; docs/reference/firestore-wire.md §2.7).
    static func unsignedToken(_ payload: JSONValue) -> String {
        func b64(_ bytes: [UInt8]) -> String {
            Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }
        return b64(Array(#"{"alg":"none","type":"JWT"}"#.utf8)) + "." + b64(payload.serialized()) + "."
    }
}

extension JSONValue {
    /// `self` with every `$TXN` inside string leaves replaced by `transaction`.
    func replacingTransaction(_ transaction: String?) -> JSONValue {
        guard let transaction else { return self }
        switch self {
        case .string(let s): return .string(s.replacingOccurrences(of: "$TXN", with: transaction))
        case .array(let a): return .array(a.map { $0.replacingTransaction(transaction) })
        case .object(let members): return .object(members.map { .init($0.key, $0.value.replacingTransaction(transaction)) })
        default: return self
        }
    }
}
