import Foundation
import Testing

@testable import SecurityRules

struct DiagnosticsTests {
    @Test func renderedWithSourceLineAndCaret() {
        let text =
            "rules_version = '2';\nservice cloud.firestore {\n  match /databases/{database}/documents {\n    match /a/{b} { allow read: true; }\n  }\n}\n"
        do {
            _ = try Ruleset(source: text, fileName: "firestore.rules")
            Issue.record("should not compile")
        } catch {
            #expect(
                error.description == """
                    firestore.rules:4:32: Missing 'if' before conditional expression.
                        match /a/{b} { allow read: true; }
                                                   ^
                    """)
            #expect(error.diagnostics.count == 1)
            #expect(error.diagnostics[0].severity == .error)
        }
    }

    @Test func columnsCountCharactersNotBytes() {
        let text =
            "rules_version = '2';\nservice cloud.firestore { match /databases/{database}/documents { match /a/{b} { allow read: if 'é' == 'é' &&; } } }"
        do {
            _ = try Ruleset(source: text, fileName: "u.rules")
            Issue.record("should not compile")
        } catch {
            let d = error.diagnostics[0]
            #expect(d.position.line == 2)
            let prefix = "service cloud.firestore { match /databases/{database}/documents { match /a/{b} { allow read: if 'é' == 'é' &&"
            #expect(d.position.column == prefix.count + 1)
            #expect(d.rendered.hasSuffix(String(repeating: " ", count: prefix.count) + "^"))
        }
    }

    @Test func diagnosticsAreSortedAndAllReported() {
        let text = """
            rules_version = '2';
            service cloud.firestore {
              match /databases/{database}/documents {
                function f( { return 1; }
                match /x/{y} { allow get: if 'a\\q'; }
                match /z {  allow list: if 1 is integer; }
              }
            }
            """
        do {
            _ = try Ruleset(source: text, fileName: "m.rules")
            Issue.record("should not compile")
        } catch {
            let lines = error.diagnostics.map(\.position.line)
            #expect(lines == lines.sorted())
            #expect(Set(lines) == [4, 5, 6], "\(error)")
        }
    }

    @Test func checkerLimits() {
        var nested = "rules_version = '2';\nservice cloud.firestore { match /databases/{database}/documents { "
        for i in 0..<11 { nested += "match /c\(i)/{d\(i)} { " }
        nested += String(repeating: "} ", count: 11) + "} }"
        #expect(throws: RulesCompileError.self) { _ = try Ruleset(source: nested, fileName: "n") }
        let big = wrapped("true") + "\n//" + String(repeating: "x", count: 300_000)
        do {
            _ = try Ruleset(source: big, fileName: "big")
            Issue.record("should be too large")
        } catch {
            #expect(error.description.contains("262144 bytes"))
        }
    }

    @Test func warningsFreeFileCompiles() throws {
        let r = try Ruleset(source: wrapped("true"), fileName: "ok")
        #expect(r.warnings.isEmpty)
        let url = RulesSuiteTests.repositoryRoot.appendingPathComponent("firebase/firestore.rules")
        let app = try Ruleset(source: try String(contentsOf: url, encoding: .utf8), fileName: "firestore.rules")
        #expect(app.warnings.isEmpty, "\(app.warnings)")
    }

    @Test func undeclaredNamesAreWarnings() throws {
        let r = try Ruleset(
            source: wrapped(
                "isUsr(uid) && math.absolute(1) == 1 && /a/$(placeholder) == /a/b && document != null && f(1)",
                functions: "function f(x) { let y = x; return y == x && z; }"),
            fileName: "w.rules")
        let messages = r.warnings.map(\.message)
        #expect(messages.contains("Unknown function 'isUsr'."))
        #expect(messages.contains("Unknown variable 'uid'."))
        #expect(messages.contains("Unknown function 'math.absolute'."))
        #expect(messages.contains("Unknown variable 'z'."))
        #expect(messages.count == 4, "\(messages)")
        #expect(r.warnings.allSatisfy { $0.severity == .warning && $0.rendered.contains(": warning: ") })
    }
}
