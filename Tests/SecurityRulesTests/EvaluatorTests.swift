import FirestoreModel
import Testing

@testable import SecurityRules

/// The error semantics table of docs/reference/security-rules.md §3.5 and the value rules of §3.3, §3.6.
struct EvaluatorTests {
    /// ERR is a missing map key; X is an expression that would fail if evaluated.
    static let absorption: [(String, String)] = [
        ("false && {}.x", "false"),
        ("true && {}.x", "ERR(Property x is undefined on object.)"),
        ("{}.x && false", "false"),
        ("{}.x && true", "ERR(Property x is undefined on object.)"),
        ("{}.x && {}.y", "ERR(Property x is undefined on object.)"),
        ("true || {}.x", "true"),
        ("false || {}.x", "ERR(Property x is undefined on object.)"),
        ("{}.x || true", "true"),
        ("{}.x || false", "ERR(Property x is undefined on object.)"),
        ("{}.x || {}.y", "ERR(Property x is undefined on object.)"),
        ("!{}.x", "ERR(Property x is undefined on object.)"),
        ("{}.x == 1", "ERR(Property x is undefined on object.)"),
        ("{}.x != 1", "ERR(Property x is undefined on object.)"),
        ("{}.x is int", "ERR(Property x is undefined on object.)"),
        ("math.abs({}.x)", "ERR(Property x is undefined on object.)"),
        ("{}.x ? true : true", "ERR(Property x is undefined on object.)"),
        ("true ? 1 : {}.x", "1"),
        ("false ? {}.x : 2", "2"),
        ("1 && true", "ERR(Unsupported operation error. Received: int && bool. Expected: bool && bool.)"),
        ("1 && false", "false"),
        ("1 ? 2 : 3", "ERR(Conditional expression requires a bool condition.)"),
        ("!1", "ERR(Unsupported operation error. Received: !int. Expected: !bool.)"),
    ]

    @Test(arguments: absorption) func errorAbsorption(_ expression: String, _ expected: String) {
        #expect(show(evaluate(expression)) == expected, "\(expression)")
    }

    static let values: [(String, String)] = [
        ("10 / 4", "2"), ("-7 / 2", "-3"), ("-7 % 2", "-1"), ("10 / 4.0", "2.5"), ("7.5 % 2", "1.5"),
        ("1 / 0", "ERR(Divide by zero error.)"), ("9223372036854775807 + 1", "ERR(Integer overflow error.)"),
        ("-9223372036854775808 / -1", "ERR(Integer overflow error.)"), ("-9223372036854775808 % -1", "0"),
        ("1 == 1.0", "true"), ("[1] == [1.0]", "false"), ("{'a': [1]} == {'a': [1]}", "true"), ("[1, [2]] == [1, [2.0]]", "false"),
        ("9007199254740993 == 9007199254740992.0", "false"), ("9007199254740992 == 9007199254740992.0", "true"),
        ("'a' < 'b'", "true"), ("'\u{FF5E}' < '\u{1F600}'", "false"),
        (
            "[1, 2] + [3]",
            "ERR(Unsupported operation error. Received: list + list. Expected: int + int, float + float, int + float, float + int, string + string, timestamp + duration, duration + duration.)"
        ),
        ("null.x", "ERR(Null value error.)"), ("null.size()", "ERR(Null value error.)"),
        ("[1][1]", "ERR(Index out of bound error. Index: [1] , size: [1].)"),
        ("[1, 2, 3, 4][1:99]", "ERR(Index out of bound error. Index: [98] , size: [4].)"), ("'hé'[1]", "'é'"),
        ("{'a': 1}.hasAll(['a'])", "ERR(Function not found error: Name: [hasAll].)"),
        ("foo", "ERR(Variable not found error: Name: [foo].)"), ("nope(1)", "ERR(Function not found error: Name: [nope].)"),
        ("string(1.0) + string(0.5) + string(1000000000000000000000.0) + string(-0.0001)", "'1.00.51.0E21-1.0E-4'"),
        ("1 in [1.0, 2]", "false"), ("[1] in [[1.0]]", "false"), ("(0.0 / 0.0) in [0.0 / 0.0]", "false"), ("0.0 in [-0.0]", "true"),
        ("1 in [1.0].toSet()", "true"), ("[1] in [[1.0]].toSet()", "true"), ("(0.0 / 0.0) in [0.0 / 0.0].toSet()", "true"),
        ("'abc'[1:1]", "''"), ("'abc'[0:0]", "ERR(Index out of bound error. Index: [-1] , size: [3].)"),
        ("'abc'[3:3]", "ERR(Index out of bound error. Index: [3] , size: [3].)"), ("''[:]", "''"),
        ("[0, 1, 2][2:1]", "ERR(Illegal range error. From index: [2] , To index: [1].)"),
        ("'abc'[1:-9223372036854775808]", "ERR(Index out of bound error. Index: [9223372036854775807] , size: [3].)"),
        ("'a' in 1", "ERR(Function not found error: Name: [in].)"),
        ("1 in {'a': 1}", "ERR(Unsupported operation error. Received: map.in(int). Expected: map.in(string).)"),
        ("[1].toSet() is set", "false"), ("{'a': 1}.diff({}) is map_diff", "true"),
        ("[1, 2].size", "ERR(Property size is undefined on object.)"),
    ]

    @Test(arguments: values) func valueSemantics(_ expression: String, _ expected: String) {
        #expect(show(evaluate(expression)) == expected, "\(expression)")
    }

    @Test func errorsCarryThePositionOfTheFailingExpression() {
        guard case .failure(let e) = evaluate("true &&\n  {'a': 1}.b == 1") else {
            Issue.record("expected an error")
            return
        }
        #expect(e.position.line == 2 && e.position.column == 3)
        #expect(e.description == "Property b is undefined on object. @ L2:3")
    }

    @Test func operandsEvaluateLastFirst() throws {
        let rs = try Ruleset(source: wrapped("debug(1) + debug(2) == debug(3)"), fileName: "t")
        let d = rs.decide(getRequest("a/b"), access: NoDocumentAccess())
        #expect(d.allowed)
        #expect(d.explanation.debugLog == ["int_value: 3", "int_value: 2", "int_value: 1"])
    }

    @Test func expressionBudgetIsFatal() {
        let long = Array(repeating: "1 == 1", count: 600).joined(separator: " && ")
        let r = evaluate(long + " || true")
        guard case .failure(let e) = r else {
            Issue.record("expected the budget to fail: \(show(r))")
            return
        }
        #expect(e.kind == .fatal)
        #expect(e.message.contains("1000 expressions"))
    }

    @Test func callDepthIsLimited() throws {
        var functions = "function f0() { return true; }\n"
        for i in 1...25 { functions += "function f\(i)() { return f\(i - 1)(); }\n" }
        let rs = try Ruleset(source: wrapped("f25() || true", functions: functions), fileName: "t")
        let d = rs.decide(getRequest("a/b"), access: NoDocumentAccess())
        #expect(!d.allowed)
        #expect(d.explanation.emulatorMessage.contains("Function call depth exceeded the limit of 20"))
        let ok = try Ruleset(source: wrapped("f19()", functions: functions), fileName: "t")
        #expect(ok.decide(getRequest("a/b"), access: NoDocumentAccess()).allowed)
    }
}
