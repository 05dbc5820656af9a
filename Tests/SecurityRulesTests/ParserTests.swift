import Testing

@testable import SecurityRules

struct ParserTests {
    /// The emulator's binding order, tightest to loosest: `* / %`, `+ -`, relational, `== !=`,
    /// `is`, `in`, `&&`, `||`, `?:` (corpus ops.p07–p09, p26–p32).
    @Test func precedenceFollowsTheEmulator() {
        #expect(dump("1 + 2 * 3 == 7") == "(== (+ 1 (* 2 3)) 7)")
        #expect(dump("a || b && c") == "(|| a (&& b c))")
        #expect(dump("a && b && c || d") == "(|| (&& a b c) d)")
        #expect(dump("a || b && c || d") == "(|| a (&& b c) d)")
        #expect(dump("(a && b) && c") == "(&& (&& a b) c)")
        // `in` binds looser than `==`, `is` and the relations, tighter than `&&`.
        #expect(dump("x in l == true") == "(in x (== l true))")
        #expect(dump("['a'] == ['a'] in [true]") == "(in (== (list 'a') (list 'a')) (list true))")
        #expect(dump("1 < 2 in [true]") == "(in (< 1 2) (list true))")
        #expect(dump("1 + 1 in [2]") == "(in (+ 1 1) (list 2))")
        #expect(dump("!true in [false]") == "(in (! true) (list false))")
        #expect(dump("true && 'a' in ['a']") == "(&& true (in 'a' (list 'a')))")
        #expect(dump("a in b in c") == "(in (in a b) c)")
        // `is TYPE` binds looser than `==` yet a tighter operator may follow it.
        #expect(dump("x is string == true") == "(== (is x string) true)")
        #expect(dump("1 == 1 is bool") == "(is (== 1 1) bool)")
        #expect(dump("'a' in m is bool") == "(in 'a' (is m bool))")
        #expect(dump("x is int in [true]") == "(in (is x int) (list true))")
        #expect(dump("x is int && y is string") == "(&& (is x int) (is y string))")
        #expect(dump("a < b == c < d") == "(== (< a b) (< c d))")
        #expect(dump("a < b + 1") == "(< a (+ b 1))")
        #expect(dump("!a.b == -c") == "(== (! a.b) (- c))")
        #expect(dump("10 - 4 - 3") == "(- (- 10 4) 3)")
        #expect(dump("c ? x : d ? y : z") == "(?: c x (?: d y z))")
        #expect(dump("-9223372036854775808") == "-9223372036854775808")
    }

    /// The emulator reads a `/` glued to what follows as the start of a path, so division
    /// needs a space after the slash (corpus compile.c03).
    @Test func divisionNeedsASpaceAfterTheSlash() {
        #expect(dump("4 / 2") == "(/ 4 2)")
        #expect(dump("4/ 2") == "(/ 4 2)")
        #expect(dump("a /\n2") == "(/ a 2)")
        for glued in ["1/0", "4 /2", "a/b", "x/(2)", "1.0/0.0"] {
            do {
                _ = try RulesExpression(glued)
                Issue.record("\(glued) should not compile")
            } catch {
                #expect(error.diagnostics.first?.message.hasPrefix("Missing 'match' keyword before path.") == true, "\(glued)")
            }
        }
    }

    @Test func postfixForms() {
        #expect(dump("request.auth.token.get('admin', false)") == "(.get request.auth.token 'admin' false)")
        #expect(dump("f(1)[0].x") == "(. ([] (f 1) 0) x)")
        #expect(dump("s[1:3]") == "([:] s 1 3)")
        #expect(dump("s[:3]") == "([:] s _ 3)")
        #expect(dump("math.abs(-1)") == "(.abs math (- 1))")
        #expect(dump("{'a': [1, 2.5], 'b': null}") == "(map ('a' (list 1 2.5)) ('b' null))")
        #expect(dump("m['my-field']") == "([] m 'my-field')")
    }

    @Test func pathLiterals() {
        #expect(
            dump("/databases/$(database)/documents/users/$(request.auth.uid)")
                == "(path /databases/$(database)/documents/users/$(request.auth.uid))")
        #expect(dump("/databases/(default)/documents/a") == "(path /databases/(default)/documents/a)")
        #expect(dump("exists(/a/$(b)/c) && x") == "(&& (exists (path /a/$(b)/c)) x)")
        #expect(dump("/users/{uid}") == "(path /users/{uid})")
        #expect(dump("get(/a/b).data.c") == "(. (. (get (path /a/b)) data) c)")
    }

    @Test func fileDump() throws {
        let text = """
            rules_version = '2';
            function g() { return true; }
            service cloud.firestore {
              match /databases/{database}/documents {
                function isUser(u) { let x = u; return request.auth.uid == x; }
                match /p/{uid}/{rest=**} {
                  allow get, list: if isUser(uid);
                  allow delete;
                }
              }
            }
            """
        let r = try Ruleset(source: text, fileName: "t.rules")
        #expect(
            r.syntax.description == """
                rules_version 2
                function g()
                  return true
                service cloud.firestore
                  match /databases/{database}/documents
                    function isUser(u)
                      let x = u
                      return (== request.auth.uid x)
                    match /p/{uid}/{rest=**}
                      allow get,list: if (isUser uid)
                      allow delete

                """)
    }

    @Test func semicolonsAreOptionalBeforeClosingBrace() throws {
        _ = try Ruleset(source: wrapped("true").replacingOccurrences("if true;", "if true"), fileName: "t")
    }

    /// The emulator's grammar (corpus compile.g01–g73): optional `;` after allow, trailing
    /// commas in arguments, `is vector`; a `let` needs its `;`, a body needs a declaration.
    @Test func grammarFollowsTheEmulator() throws {
        let head = "rules_version = '2';\nservice cloud.firestore {\n  match /databases/{database}/documents {\n"
        func errors(_ body: String) -> [String] {
            do throws(RulesCompileError) {
                _ = try Ruleset(source: head + body + "  }\n}\n", fileName: "g")
                return []
            } catch {
                return error.diagnostics.filter { $0.severity == .error }.map { "\($0.position.line):\($0.position.column) \($0.message)" }
            }
        }
        #expect(errors("    match /a/{b} { allow read: if true allow write: if f(1, 2,\n) is vector }\n    function f(a, b) { return a; }\n") == [])
        #expect(errors("    function f() { let x = 1 return x == 1; }\n    match /a/{b} { allow read: if f(); }\n")
            == ["4:30 missing ';' at 'return'"])
        #expect(errors("    match /a/{b} {\n    }\n") == ["5:5 The 'match' body must contain at least one declaration."])
        #expect(errors("    match /a/{b} { allow read,; }\n") == ["4:30 Unexpected ','."])
        #expect(errors("    match /a/{b} { allow read: if 1 is integer; }\n").first?.hasPrefix(
            "4:47 An unsupported type identifier was used with the 'is' operator. Received integer.") == true)
    }

    @Test func everyBrokenStatementIsReported() {
        let text = """
            rules_version = '2';
            service cloud.firestore {
              match /databases/{database}/documents {
                match /a/{b} { allow read: true; }
                match /c/{d} { allow write: if 1 +; }
                match /e/{f} { allow get: if (1; allow list: if true; }
                function bad( { return 1; }
              }
            }
            """
        do {
            _ = try Ruleset(source: text, fileName: "multi.rules")
            Issue.record("should not compile")
        } catch {
            let lines = error.diagnostics.map { "\($0.position.line):\($0.position.column) \($0.message)" }
            #expect(lines.count >= 4, "\(lines)")
            #expect(lines.contains("4:32 Missing 'if' before conditional expression."))
            #expect(lines.contains("5:39 Expected an expression, found ';'."))
            #expect(lines.contains { $0.hasPrefix("6:") })
            #expect(lines.contains { $0.hasPrefix("7:") })
        }
    }

    @Test func deepNestingIsACleanError() {
        let deep = String(repeating: "(", count: 5000) + "1" + String(repeating: ")", count: 5000)
        #expect(throws: RulesCompileError.self) { _ = try RulesExpression(deep) }
        do { _ = try RulesExpression(deep) } catch {
            #expect(error.diagnostics.first?.message.contains("nesting exceeds") == true)
        }
        let negations = String(repeating: "!", count: 100_000) + "true"
        #expect(throws: RulesCompileError.self) { _ = try RulesExpression(negations) }
    }

    @Test func hugeFlatExpressionsAreBounded() {
        let sum = (0..<20_000).map(String.init).joined(separator: " + ")
        do {
            _ = try RulesExpression(sum)
            Issue.record("should be too large")
        } catch {
            #expect(error.diagnostics.first?.message.contains("too large") == true)
        }
        // Long && chains are flattened, so they stay shallow and parse.
        let chain = Array(repeating: "true", count: 5000).joined(separator: " && ")
        #expect((try? RulesExpression(chain)) != nil)
    }
}
