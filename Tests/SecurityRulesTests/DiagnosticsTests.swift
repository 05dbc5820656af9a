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

    /// The diagnostics of a file that must not compile.
    func compileErrors(_ text: String) -> [RulesDiagnostic] {
        do throws(RulesCompileError) {
            _ = try Ruleset(source: text, fileName: "bad.rules")
            Issue.record("should not compile")
            return []
        } catch {
            return error.diagnostics
        }
    }

    // The service bodies below hold a function: an empty one is a diagnostic of its own.
    @Test func aRunOfOneBadCharacterIsOneDiagnostic() {
        // 4,000 control characters on one line used to give 4,000 diagnostics quoting the
        // whole line each (a 104 MB response).
        let ds = compileErrors("service cloud.firestore { function f() { return true; } " + String(repeating: "\u{1}", count: 4_000) + " }")
        #expect(ds.count == 1)
        #expect(ds.first?.message == "Unexpected character '\u{1}' (4000 times).")
        #expect(ds.map(\.rendered).joined().utf8.count < 1_000)
    }

    @Test func diagnosticsAreCappedWithASummary() {
        let ds = compileErrors("service cloud.firestore { function f() { return true; }\n" + String(repeating: "\u{1}\n", count: 1_000) + "}")
        #expect(ds.count == RulesDiagnostic.maxReported + 1)
        #expect(ds.last?.message == "… and 950 more diagnostics not shown.")
        #expect(RulesCompileError(diagnostics: ds).description.utf8.count < 20_000)
        // Alternating bad characters cannot be coalesced; still capped.
        let mixed = compileErrors("service cloud.firestore { function f() { return true; }" + String(repeating: "\u{1}\u{2}", count: 2_000) + "}")
        #expect(mixed.count == RulesDiagnostic.maxReported + 1)
        #expect(mixed.last?.message == "… and 3950 more diagnostics not shown.")
    }

    @Test func longLinesAreQuotedAroundTheColumn() {
        for pad in ["x", "é"] {
            let text = "service cloud.firestore { " + String(repeating: "/* \(String(repeating: pad, count: 500)) */ ", count: 4) + "# }"
            let ds = compileErrors(text)
            let d = ds.first
            #expect(d?.message == "Unexpected character '#'.")
            let line = Array(d?.sourceLine.unicodeScalars ?? "".unicodeScalars)
            #expect(line.count <= RulesSource.excerptWidth + 2)
            #expect(line.first == "…")
            #expect(d.map { line.indices.contains($0.caretColumn - 1) && line[$0.caretColumn - 1] == "#" } == true)
            #expect(d?.rendered.hasSuffix(String(repeating: " ", count: (d?.caretColumn ?? 1) - 1) + "^") == true)
        }
        // A short line is quoted whole.
        let short = compileErrors("service cloud.firestore { # }")
        #expect(short.first?.sourceLine == "service cloud.firestore { # }")
        #expect(short.first?.caretColumn == 27)
    }

    @Test func positionsOnLongNonASCIILinesAreCheap() {
        // Columns used to be counted from the start of the line for every token: O(n²) on
        // one long line holding any non-ASCII character.
        let line = String(repeating: "aé€𝄞", count: 25_000)
        let source = RulesSource(text: "x\n" + line + "\nz", fileName: "u")
        let start = ContinuousClock.now
        var column = 1
        var ok = true
        var offset = 2
        for scalar in line.unicodeScalars {
            let p = source.position(ofOffset: offset)
            ok = ok && p.line == 2 && p.column == column
            offset += String(scalar).utf8.count
            column += 1
        }
        #expect(ok)
        #expect(source.position(ofOffset: offset + 1) == SourcePosition(line: 3, column: 1, offset: offset + 1))
        #expect(source.position(ofOffset: offset + 2).column == 2)
        #expect(ContinuousClock.now - start < .seconds(3))
        let chain = Array(repeating: "false", count: 15_000).joined(separator: " || ")
        let t0 = ContinuousClock.now
        #expect(throws: Never.self) { _ = try Ruleset(source: wrapped(chain + " || 'é' == 'é'"), fileName: "one-line") }
        #expect(ContinuousClock.now - t0 < .seconds(5))
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
