import FirestoreModel
import Testing

@testable import SecurityRules

/// Hostile rules and data end in a clear error and a denial, never a hang or a crash.
struct HostileInputTests {
    @Test func deepEvaluationIsStoppedBeforeTheStackIs() throws {
        // Each function adds a left-deep chain of 150 additions with the next call at the bottom.
        let chain = (0..<149).map { _ in "1" }.joined(separator: " + ")
        var functions = "function f0(x) { return x; }\n"
        for i in 1...5 { functions += "function f\(i)(x) { return f\(i - 1)(x) + \(chain); }\n" }
        let rs = try Ruleset(source: wrapped("f5(1) > 0 || true", functions: functions), fileName: "deep")
        let d = rs.decide(getRequest("a/b"), access: NoDocumentAccess())
        #expect(!d.allowed)
        #expect(
            d.explanation.failure?.contains("nested deeper than 400") == true || d.explanation.failure?.contains("1000 expressions") == true
        )
    }

    @Test func hugeDocumentStringsWithRegexAreBounded() throws {
        let rs = try Ruleset(source: wrapped("resource.data.s.matches('(.*a)*b')"), fileName: "re")
        let big = String(repeating: "a", count: 1_000_000)
        let start = ContinuousClock.now
        let d = rs.decide(getRequest("a/b", resource: ["s": .string(big)]), access: NoDocumentAccess())
        #expect(!d.allowed)
        #expect(d.explanation.failure?.contains("work budget") == true)
        #expect(ContinuousClock.now - start < .seconds(15))
    }

    @Test func absurdRulesFilesAreRefusedQuickly() {
        let start = ContinuousClock.now
        let huge = String(repeating: "match /a/{b} { allow read: if true; }\n", count: 100_000)
        #expect(throws: RulesCompileError.self) { _ = try Ruleset(source: huge, fileName: "huge") }
        let garbage = String(repeating: "}{)(][;:?", count: 10_000)
        #expect(throws: RulesCompileError.self) { _ = try Ruleset(source: "service cloud.firestore {" + garbage, fileName: "g") }
        #expect(ContinuousClock.now - start < .seconds(10))
    }

    @Test func recursionIsACompileErrorNotARuntimeLoop() {
        let text = wrapped("f(1)", functions: "function f(x) { return x > 0 && g(x - 1); } function g(x) { return f(x); }")
        do {
            _ = try Ruleset(source: text, fileName: "rec")
            Issue.record("recursion should not compile")
        } catch {
            #expect(error.description.contains("Recursive function calls are not allowed: f -> g -> f"))
        }
    }

    @Test func manyWaysAreRefused() throws {
        let rs = try Ruleset(source: wrapped("true"), fileName: "w")
        let values = (0..<30).map { Value.integer(Int64($0)) }
        let filter = Filter.composite(
            .and,
            [
                .field(FieldPath(["a"]), .in, .array(values)), .field(FieldPath(["b"]), .in, .array(values)),
            ])
        let req = RulesRequest(
            database: testDatabase, method: .list, path: ResourcePath(relative: "c"), auth: .unauthenticated, time: testTime,
            query: QueryConstraints(filter: filter))
        let d = rs.decide(req, access: NoDocumentAccess())
        #expect(!d.allowed)
        #expect(d.explanation.failure?.contains("more than 512") == true)
    }

    @Test func deeplyNestedDocumentValuesCompare() {
        var v = RulesValue.int(1)
        for _ in 0..<20 { v = .map(RulesMap(["k": v])) }
        #expect(show(evaluate("a == b && a.diff(b).affectedKeys().size() == 0", ["a": v, "b": v])) == "true")
    }
}
