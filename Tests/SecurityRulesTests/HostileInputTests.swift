import FirestoreModel
import Foundation
import Testing

@testable import SecurityRules

/// Hostile rules and data end in a clear error and a denial, never a hang or a crash.
struct HostileInputTests {
    /// Runs `body` on a thread with a 512 KiB stack (the smallest common secondary-thread stack).
    func onSmallStack<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T? {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            box.value = body()
            done.signal()
        }
        thread.stackSize = 512 * 1024
        thread.start()
        done.wait()
        return box.value
    }

    @Test func worstCaseWithinLimitsFitsASmallStack() throws {
        let chain = (0..<150).map { _ in "1" }.joined(separator: " + ")
        var functions = "function f0(x) { return x + \(chain); }\n"
        for i in 1...19 { functions += "function f\(i)(x) { return f\(i - 1)(x) + 1 + 1 + 1 + 1 + 1 + 1; }\n" }
        let rs = try Ruleset(source: wrapped("f19(1) > 0", functions: functions), fileName: "deep")
        let failure = onSmallStack { rs.decide(getRequest("a/b"), access: NoDocumentAccess()).explanation.failure }
        #expect(failure??.contains("nested deeper than 160") == true)
        let nested = String(repeating: "(", count: 39) + "1" + String(repeating: ")", count: 39)
        #expect(onSmallStack { (try? RulesExpression(nested)) != nil } == true)
        let tooNested = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        #expect(onSmallStack { (try? RulesExpression(tooNested)) == nil } == true)
    }

    @Test func deeplyNestedMatchBlocksAreRefusedWithoutRecursion() {
        // 6,000 levels used to recurse parseMatch ↔ parseBlockBody until the stack overflowed.
        let text =
            "rules_version = '2';\nservice cloud.firestore {\n" + String(repeating: "match /a/{b} {\n", count: 6_000)
            + String(repeating: "}\n", count: 6_001)
        let errors = onSmallStack { () -> [String] in
            do throws(RulesCompileError) {
                _ = try Ruleset(source: text, fileName: "deep")
                return []
            } catch {
                return error.diagnostics.map { $0.message }
            }
        }
        #expect(errors?.count == 1)
        #expect(errors?.first?.contains("nested more than 64 deep") == true)
        // Within the parser's limit the checker's own limit (10) still applies.
        let twelve = "rules_version = '2';\nservice cloud.firestore {\n" + String(repeating: "match /a/{b} {\n", count: 12) + String(repeating: "}\n", count: 13)
        #expect(throws: RulesCompileError.self) { _ = try Ruleset(source: twelve, fileName: "twelve") }
    }

    @Test func deepEvaluationIsStoppedBeforeTheStackIs() throws {
        // Each function adds a left-deep chain of 150 additions with the next call at the bottom.
        let chain = (0..<149).map { _ in "1" }.joined(separator: " + ")
        var functions = "function f0(x) { return x; }\n"
        for i in 1...5 { functions += "function f\(i)(x) { return f\(i - 1)(x) + \(chain); }\n" }
        let rs = try Ruleset(source: wrapped("f5(1) > 0 || true", functions: functions), fileName: "deep")
        let d = rs.decide(getRequest("a/b"), access: NoDocumentAccess())
        #expect(!d.allowed)
        #expect(
            d.explanation.failure?.contains("nested deeper than 160") == true || d.explanation.failure?.contains("1000 expressions") == true
        )
    }

    @Test func hugeDocumentStringsWithRegexAreBounded() throws {
        let rs = try Ruleset(source: wrapped("resource.data.s.matches('(.*a)*b')"), fileName: "re", limits: RulesLimits(maxWork: 2_000_000))
        let big = String(repeating: "a", count: 1_000_000)
        let start = ContinuousClock.now
        let d = rs.decide(getRequest("a/b", resource: ["s": .string(big)]), access: NoDocumentAccess())
        #expect(!d.allowed)
        #expect(d.explanation.failure?.contains("work budget") == true)
        #expect(ContinuousClock.now - start < .seconds(10))
    }

    @Test func theDefaultWorkBudgetDeniesQuickly() throws {
        #expect(RulesLimits().maxWork <= 1_000_000)
        // 500 `.*` over 5,000 characters: ~2.5 billion Pike VM steps without a budget.
        let rs = try Ruleset(source: wrapped("resource.data.s.matches(resource.data.p)"), fileName: "re")
        let doc: FieldMap = ["s": .string(String(repeating: "b", count: 5_000)), "p": .string(String(repeating: ".*", count: 500))]
        let start = ContinuousClock.now
        let d = rs.decide(getRequest("a/b", resource: doc), access: NoDocumentAccess())
        #expect(!d.allowed)
        #expect(d.explanation.failure?.contains("work budget") == true)
        #expect(ContinuousClock.now - start < .seconds(2))
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

    @Test func doublingStringsAndReplacementsHitTheWorkBudget() throws {
        var functions = "function f20(x) { return x.size() > 0; }\n"
        for i in stride(from: 19, through: 0, by: -1) { functions += "function f\(i)(x) { return f\(i + 1)(x + x); }\n" }
        let rs = try Ruleset(source: wrapped("f0(resource.data.s)", functions: functions), fileName: "double")
        let d = rs.decide(getRequest("a/b", resource: ["s": .string(String(repeating: "x", count: 100_000))]), access: NoDocumentAccess())
        #expect(!d.allowed)
        #expect(d.explanation.failure?.contains("work budget") == true)
        let r = evaluate("s.replace('.', s).size() > 0", ["s": .string(String(repeating: "y", count: 20_000))])
        guard case .failure(let e) = r else {
            Issue.record("replace should exhaust the budget, got \(show(r))")
            return
        }
        #expect(e.kind == .fatal)
    }

    @Test func largeSetEqualityIsLinear() {
        let big = RulesValue.list((0..<100_000).map { .int(Int64($0)) })
        let start = ContinuousClock.now
        #expect(show(evaluate("a.toSet() == a.toSet()", ["a": big])) == "true")
        #expect(ContinuousClock.now - start < .seconds(10))
    }

    @Test func deeplyNestedDocumentValuesCompare() {
        var v = RulesValue.int(1)
        for _ in 0..<20 { v = .map(RulesMap(["k": v])) }
        #expect(show(evaluate("a == b && a.diff(b).affectedKeys().size() == 0", ["a": v, "b": v])) == "true")
    }
}

/// Every built-in with extreme arguments: any result or error is fine, a trap is not.
struct BuiltinFuzzTests {
    static let pool: [RulesValue] = [
        .null, .bool(true), .int(.min), .int(.max), .int(-1), .int(0), .int(1), .int(1_000_000_000_000),
        .float(.nan), .float(.infinity), .float(-.infinity), .float(-0.0), .float(1e308), .float(-2.5), .float(9.3e18),
        .string(""), .string("a"), .string("😀é"), .string("(a+)+"), .string("["), .bytes([]), .bytes([0xFF]),
        .list([]), .list([.int(1), .float(1.0), .string("x")]), .map(RulesMap([:])), .map(RulesMap(["a": .int(1)])),
        .set(RulesSet([.int(1)])), .path(RulesPath(["a", "{b}"])), .timestamp(Timestamp(seconds: Timestamp.maxSeconds, nanos: 999_999_999)),
        .timestamp(Timestamp(seconds: Timestamp.minSeconds, nanos: 0)),
        .duration(RulesDuration(normalizedSeconds: RulesDuration.maxSeconds, nanos: 999_999_999)),
        .duration(RulesDuration(normalizedSeconds: -RulesDuration.maxSeconds, nanos: -999_999_999)),
        .latlng(GeoPoint(latitude: 90, longitude: -180)),
        .mapDiff(RulesMapDiff(left: RulesMap(["a": .float(.nan)]), right: RulesMap(["a": .float(.nan)]))),
    ]

    @Test func builtinsNeverTrap() throws {
        let program = try RulesExpression("1")
        var calls = 0
        for entry in Library.entries {
            let receivers: [RulesValue?] = entry.receiver.map { r in Self.pool.filter { $0.kind == r } } ?? [nil]
            for receiver in receivers {
                for arity in entry.arity {
                    var argLists: [[RulesValue]] = [[]]
                    for _ in 0..<arity {
                        argLists = argLists.flatMap { prefix in Self.pool.map { prefix + [$0] } }
                        if argLists.count > 3000 { argLists = Array(argLists.enumerated().filter { $0.offset % 7 == 0 }.map(\.element)) }
                    }
                    for args in argLists {
                        _ = program.evaluateBuiltin(entry, receiver: receiver, args: args)
                        calls += 1
                    }
                }
            }
        }
        #expect(calls > 1000)
    }

    @Test func operatorsNeverTrap() throws {
        let ops: [RulesBinaryOperator] = [
            .multiply, .divide, .modulo, .add, .subtract, .less, .lessOrEqual, .greater, .greaterOrEqual, .in, .equal, .notEqual,
        ]
        let program = try RulesExpression("1")
        for op in ops {
            for a in Self.pool {
                for b in Self.pool { _ = program.evaluateOperator(op, a, b) }
                _ = try? Operators.unary(.negate, a, at: SourcePosition(line: 1, column: 1, offset: 0)).literalText
            }
        }
    }
}

extension RulesExpression {
    /// Runs one built-in directly against a fresh evaluation.
    func evaluateBuiltin(_ entry: Builtin, receiver: RulesValue?, args: [RulesValue]) -> Result<RulesValue, RulesEvalError> {
        let evaluation = Evaluation(
            program: program, database: testDatabase, limits: RulesLimits(maxWork: 100_000), globals: [:],
            ledger: AccessLedger(access: NoDocumentAccess(), limit: 10), recordCoverage: false)
        do {
            return .success(try Library.invoke(entry, receiver: receiver, args: args, evaluation: evaluation, at: root.position))
        } catch {
            return .failure(error)
        }
    }

    /// Runs one binary operator directly.
    func evaluateOperator(_ op: RulesBinaryOperator, _ a: RulesValue, _ b: RulesValue) -> Result<RulesValue, RulesEvalError> {
        let evaluation = Evaluation(
            program: program, database: testDatabase, limits: RulesLimits(), globals: [:],
            ledger: AccessLedger(access: NoDocumentAccess(), limit: 10), recordCoverage: false)
        do {
            return .success(try Operators.binary(op, a, b, at: root.position, evaluation: evaluation))
        } catch {
            return .failure(error)
        }
    }
}

/// A slot a helper thread fills before signalling; read only after the wait.
final class ResultBox<T>: @unchecked Sendable {
    // Safe: written once by the thread before `signal()`, read after `wait()`.
    var value: T?
}
