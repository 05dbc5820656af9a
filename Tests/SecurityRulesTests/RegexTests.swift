import Testing

@testable import SecurityRules

/// The Pike VM against RE2 semantics: whole-string matches, leftmost-first submatches,
/// classes and flags, and linear time on backtracking bait.
struct RegexTests {
    func full(_ re: String, _ s: String) -> Bool? {
        var budget = 10_000_000
        return try? RulesRegex.fullMatch(re, s, budget: &budget)
    }

    static let fullMatches: [(String, String, Bool)] = [
        ("abc", "abc", true), ("abc", "abcd", false), ("a.c", "a\nc", false), ("(?s)a.c", "a\nc", true),
        ("a*", "", true), ("a+", "", false), ("(ab)+", "ababab", true), ("(ab)+", "ababa", false),
        ("a{2,3}", "aa", true), ("a{2,3}", "aaaa", false), ("a{2}", "aa", true), ("a{,2}", "a{,2}", true),
        ("[a-c]+", "abcabc", true), ("[^a-c]+", "xyz", true), ("[^a-c]+", "xaz", false), ("[[:digit:]]+", "0123", true),
        ("\\d+\\.\\d*", "3.14", true), ("\\w+@\\w+\\.com", "bob@acme.com", true), ("\\s*x\\s*", " \t x ", true),
        ("(?i)hello", "HeLLo", true), ("(?i:h)ello", "Hello", true), ("(?i:h)ello", "HELLO", false),
        ("a|b|c", "b", true), ("(a|ab)(c|bcd)", "abcd", true), ("^abc$", "abc", true), ("\\bfoo\\b", "foo", true),
        ("é+", "ééé", true), ("[é-ë]", "ê", true), ("\\x41\\x{42}", "AB", true), ("a??b", "ab", true),
    ]

    @Test(arguments: fullMatches) func wholeStringMatch(_ re: String, _ s: String, _ expected: Bool) {
        #expect(full(re, s) == expected, "\(re) vs \(s)")
    }

    @Test func invalidPatternsAreErrors() {
        for bad in ["(", "a)", "[a-", "a**", "*a", "\\p{Greek}", "\\q", "a{1001}", "[z-a]"] {
            #expect(throws: RegexSyntaxError.self, "\(bad)") { _ = try RegexProgram(bad) }
        }
    }

    @Test func leftmostFirstSubmatches() throws {
        var budget = 1_000_000
        #expect(try RulesRegex.replaceAll("a|ab", "abab", "X", budget: &budget) == "XbXb")
        #expect(try RulesRegex.replaceAll("(a+?)", "aaa", "[$1]", budget: &budget) == "[a][a][a]")
        #expect(try RulesRegex.replaceAll("x*", "abc", "-", budget: &budget) == "-a-b-c-")
        #expect(try RulesRegex.replaceAll("(\\w+)@(\\w+)", "me@host", "$2 at $1 \\$", budget: &budget) == "host at me $")
        #expect(try RulesRegex.split(",", "a,b,,c,,", budget: &budget) == ["a", "b", "", "c"])
        #expect(try RulesRegex.split("", "abc", budget: &budget) == ["a", "b", "c"])
        #expect(try RulesRegex.split(",", "", budget: &budget) == [""])
    }

    @Test func backtrackingBaitRunsInLinearTime() throws {
        let text = String(repeating: "a", count: 20_000) + "!"
        let start = ContinuousClock.now
        #expect(full("(a+)+$", text) == false)
        #expect(full("(a|aa)*b", text) == false)
        #expect(full("(a*)*a*a*a*a*b", String(repeating: "a", count: 5_000)) == false)
        #expect(ContinuousClock.now - start < .seconds(5))
    }

    @Test func stepBudgetStopsRunawayWork() {
        var budget = 1000
        #expect(throws: RulesRegex.Failure.self) {
            _ = try RulesRegex.fullMatch("(a|b)*c", String(repeating: "ab", count: 10_000), budget: &budget)
        }
    }

    @Test func matchesInRulesIsBoundedByTheWorkBudget() {
        let r = evaluate("'\(String(repeating: "a", count: 30_000))'.matches('(a*)*b')", limits: RulesLimits(maxWork: 100_000))
        guard case .failure(let e) = r else {
            Issue.record("expected the work budget to stop it, got \(show(r))")
            return
        }
        #expect(e.kind == .fatal)
    }
}
