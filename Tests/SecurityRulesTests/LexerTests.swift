import Testing

@testable import SecurityRules

struct LexerTests {
    func kinds(_ text: String) -> [Token.Kind] {
        var lexer = Lexer(source: RulesSource(text: text, fileName: "t"))
        var out: [Token.Kind] = []
        while true {
            let t = lexer.next()
            if t.kind == .eof { return out }
            out.append(t.kind)
        }
    }

    func diagnostics(_ text: String) -> [String] {
        var lexer = Lexer(source: RulesSource(text: text, fileName: "t"))
        while lexer.next().kind != .eof {}
        return lexer.diagnostics.map(\.message)
    }

    @Test func operatorsAndIdentifiers() {
        #expect(
            kinds("a.b(c) && !d || e <= 1 != 2") == [
                .identifier("a"), .symbol("."), .identifier("b"), .symbol("("), .identifier("c"), .symbol(")"), .symbol("&&"),
                .symbol("!"), .identifier("d"), .symbol("||"), .identifier("e"), .symbol("<="), .int(1), .symbol("!="), .int(2),
            ])
    }

    @Test func numbers() {
        #expect(kinds("0 42 1.5 .5 1. 0.25") == [.int(0), .int(42), .float(1.5), .float(0.5), .float(1), .float(0.25)])
        // The emulator's tokens: no exponent, no hex, no leading zeros (corpus compile.c22, c23).
        #expect(diagnostics("1e3") == ["Unexpected 'e3'."])
        #expect(diagnostics("2.5e-2") == ["Unexpected 'e'."])
        #expect(diagnostics("0x1F") == ["Unexpected 'x1F'."])
        #expect(diagnostics("007") == ["Unexpected '0'."])
        #expect(diagnostics("00.5") == ["Unexpected '0.5'."])
        #expect(diagnostics("1.size") == ["Unexpected 'size'."])
        #expect(kinds("1.0.size") == [.float(1), .symbol("."), .identifier("size")])
        #expect(kinds("9223372036854775808") == [.int(9_223_372_036_854_775_808)])
        #expect(diagnostics("99999999999999999999") == ["Integer literal out of range."])
        #expect(diagnostics("12abc").count == 1)
    }

    @Test func stringsAndEscapes() {
        #expect(
            kinds(#"'a\'b' "c\"d" '\n\t\\' '\x41\u00e9\101'"#) == [.string("a'b"), .string("c\"d"), .string("\n\t\\"), .string("Aé" + "A")])
        #expect(kinds(#"r'a\d' R"\."  '''x'y''' """p"q""""#) == [.string(#"a\d"#), .string(#"\."#), .string("x'y"), .string("p\"q")])
        #expect(kinds(#"b'\x2A' b'\052' b'*'"#) == [.bytes([42]), .bytes([42]), .bytes([42])])
    }

    @Test func unknownEscapesAreErrors() {
        #expect(diagnostics(#"'a\.b'"#).first?.contains("Invalid escape sequence '\\.'") == true)
        #expect(diagnostics(#"'\d'"#).count == 1)
        #expect(diagnostics("'unterminated").first == "Unterminated string literal.")
        #expect(diagnostics("'line\nbreak'").first?.contains("newline") == true)
    }

    @Test func commentsAreTrivia() {
        #expect(kinds("a // comment\n/* block\n comment */ b") == [.identifier("a"), .identifier("b")])
        #expect(diagnostics("/* never closed") == ["Unterminated block comment."])
    }

    @Test func strayCharactersAreReportedAndSkipped() {
        #expect(diagnostics("a & b").first?.contains("did you mean '&&'") == true)
        #expect(diagnostics("a # b").first == "Unexpected character '#'.")
        #expect(kinds("a # b").filter { $0 != .invalid } == [.identifier("a"), .identifier("b")])
    }
}
