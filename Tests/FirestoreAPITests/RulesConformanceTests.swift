import FirestoreAPI
import Foundation
import GoogleWire
import Testing

/// Replays the Security Rules corpus recorded from the Cloud Firestore emulator
/// (`Tests/Conformance/rules/`, `scripts/record_rules_conformance.py`) against Hearth through its
/// public interface only: rules loaded with `PUT /emulator/v1/projects/{p}:securityRules`,
/// documents seeded with `Bearer owner` after `DELETE /emulator/v1/projects/{p}/databases/(default)/documents`,
/// requests sent over REST with unsigned tokens (docs/reference/firestore-wire.md §2.1, §2.2, §2.7).
///
/// Allowed vs denied must match for every step; a step the emulator denies and Hearth lets
/// through is reported first (false allow). Denial messages are compared only on the emulator's
/// `for '<method>' @ L<n>` fragments, and those differences are printed, not failed.
@Suite(.serialized) struct RulesConformanceTests {
    /// The rules Hearth starts with, so that rules are enforced before the first PUT.
    static let denyAll = "rules_version = '2'; service cloud.firestore { match /databases/{d}/documents { match /{p=**} { allow read, write: if false; } } }"

    /// Every recorded case, one Hearth instance, rules replaced per group.
    @Test func everyRecordedRulesCaseGetsTheEmulatorsVerdict() async throws {
        let corpus = try RulesCorpus.load()
        var report = RulesConformanceReport(skips: corpus.skips)
        try await withHearth(rules: Self.denyAll, project: corpus.project) { c in
            for group in corpus.groups {
                let put = try await c.call("PUT", "/emulator/v1/projects/\(c.project):securityRules", Self.rulesBody(group.rules), token: nil)
                guard put.status == 200 else {
                    for k in group.cases {
                        report.countCase()
                        report.check(k.id, title: "group \(group.name): Hearth rejected the rules: \(put.text)", isRead: false, expected: k.expect[0], status: 0, message: nil)
                    }
                    continue
                }
                for k in group.cases {
                    if k.resetBefore { try await Self.reset(c, seed: group.seed + k.seed) }
                    try await Self.run(k, corpus: corpus, client: c, report: &report)
                }
            }
            for k in corpus.compile {
                let put = try await c.call("PUT", "/emulator/v1/projects/\(c.project):securityRules", Self.rulesBody(k.rules), token: nil)
                report.countCase()
                report.checkCompile(k.id, title: k.title, expected: k.expect, compare: k.compare, status: put.status,
                                    message: put.json[path: "error", "message"]?.stringValue)
            }
        }
        report.finish()
    }

    /// Runs one case's steps, substituting the transaction id returned by a `:beginTransaction` step.
    static func run(_ k: RulesCorpus.Case, corpus: RulesCorpus, client c: RESTClient, report: inout RulesConformanceReport) async throws {
        report.countCase()
        let token = try k.auth.map { name -> String in
            guard let payload = corpus.tokens[name] else { throw RulesCorpus.Malformed(description: "\(k.id): unknown token \(name)") }
            return RulesCorpus.unsignedToken(payload)
        }
        var transaction: String?
        for (index, step) in k.steps.enumerated() {
            let path = transaction.map { step.path.replacingOccurrences(of: "$TXN", with: $0) } ?? step.path
            let body = step.body.map { String(decoding: $0.replacingTransaction(transaction).serialized(), as: UTF8.self) }
            let reply = try await c.call(step.method, c.documents + path, body, token: token)
            if step.path == ":beginTransaction" { transaction = reply.json["transaction"]?.stringValue }
            let message = reply.json[path: "error", "message"]?.stringValue ?? reply.json.arrayValue.first?[path: "error", "message"]?.stringValue
            let id = k.steps.count == 1 ? k.id : "\(k.id)#\(index + 1)"
            let isRead = step.method == "GET" || [":runQuery", ":runAggregationQuery", ":batchGet"].contains { step.path.hasSuffix($0) }
            report.check(id, title: k.title, isRead: isRead, expected: k.expect[index], status: reply.status, message: message)
        }
    }

    /// Clears the database and writes `seed` as owner.
    static func reset(_ c: RESTClient, seed: [(path: String, fields: JSONValue)]) async throws {
        let cleared = try await c.call("DELETE", "/emulator/v1/projects/\(c.project)/databases/(default)/documents", token: nil)
        try #require(cleared.status == 200)
        for doc in seed {
            let body = String(decoding: JSONValue.object(["fields": doc.fields]).serialized(), as: UTF8.self)
            let written = try await c.call("PATCH", c.documents + doc.path, body, token: "owner")
            try #require(written.status == 200, "seeding \(doc.path): \(written.text)")
        }
    }

    /// The PUT …:securityRules body for `rules`, as @firebase/rules-unit-testing sends it.
    static func rulesBody(_ rules: String) -> String {
        String(decoding: JSONValue.object(["rules": .object(["files": .array([.object(["content": .string(rules)])])])]).serialized(), as: UTF8.self)
    }

    /// The first compile error of each side's message.
    @Test func firstCompileErrorsAreExtracted() {
        let emu = "Error compiling rules:\nL5:25 Missing a closing '\nL5:25 Unexpected 'd'."
        #expect(RulesConformanceReport.firstEmulatorError(emu)?.at == "5:25")
        #expect(RulesConformanceReport.firstEmulatorError(emu)?.text == "Missing a closing '")
        let hearth = "firestore.rules:4:1: warning: Unused function: f.\n x\n^\nfirestore.rules:6:7: The 'match' body must contain at least one declaration.\n      }\n      ^"
        #expect(RulesConformanceReport.firstHearthError(hearth)?.at == "6:7")
        #expect(RulesConformanceReport.firstHearthError(hearth)?.text == "The 'match' body must contain at least one declaration.")
    }

    /// The fragments compared in denial messages.
    @Test func messageFragmentsAreExtracted() {
        let m = "\nevaluation error at L5:22 for 'list' @ L5, Property x is undefined on object. for 'get' @ L12, false for 'get' @ L12"
        #expect(RulesConformanceReport.fragments(m) == ["for 'list' @ L5", "for 'get' @ L12"])
        #expect(RulesConformanceReport.fragments("No matching allow statements") == ["No matching allow statements"])
    }
}
