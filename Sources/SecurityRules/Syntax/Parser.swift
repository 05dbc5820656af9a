/// Recursive-descent parser for rules files: statements here, expressions in
/// `Parser+Expressions.swift`. Each function starts with its grammar production.
///
/// Errors never stop the parse: a statement that fails records one diagnostic, the parser
/// skips to the next `;`, `}` or statement keyword, and goes on, so one run reports every
/// broken statement. Source: docs/reference/security-rules.md §1 (file grammar), §2 (expressions).
struct Parser {
    /// Thrown inside a statement after its diagnostic has been recorded.
    struct Abort: Error {}

    /// Deepest nesting of parenthesised / prefixed sub-expressions accepted.
    static let maxNesting = 40
    /// Tallest expression tree accepted (bounds evaluator recursion).
    static let maxHeight = 160
    /// Deepest `match` nesting the parser descends into. Deeper blocks are skipped by brace
    /// counting (no recursion) after one diagnostic, so a hostile file cannot exhaust the
    /// stack; the checker's own limit (10, docs/reference/security-rules.md §8) reports the shallower violations.
    static let maxMatchNesting = 64

    /// The token source.
    var lexer: Lexer
    /// The lookahead token.
    var current: Token
    /// End offset of the last consumed token (node ends).
    var previousEnd = 0
    /// Errors found so far (bounded).
    var log = DiagnosticLog()
    /// The findings recorded so far.
    var diagnostics: [RulesDiagnostic] { log.entries }
    /// The id the next expression node gets.
    var nextID = 0
    /// Current expression nesting.
    var nesting = 0
    /// `match` blocks currently open.
    var matchNesting = 0
    /// `rules_version` seen so far.
    var version = 1
    /// Name errors the emulator reports only when the file parses (a package name used as a
    /// variable); `Ruleset` adds them when there is no syntax error.
    var semanticLog = DiagnosticLog()
    /// The findings of `semanticLog`.
    var semanticDiagnostics: [RulesDiagnostic] { semanticLog.entries }
    /// Brackets (`(` `[` `{`) open in the expression being parsed.
    var bracketDepth = 0
    /// Where the first path literal written inside the brackets of the current outermost
    /// operand starts, if one was (see `reportAtPathAnchor`).
    var pathAnchor: Int?
    /// The names of the `service` blocks seen so far.
    var serviceNames: Set<String> = []

    /// Starts parsing `source`.
    init(source: RulesSource) {
        var lexer = Lexer(source: source)
        current = lexer.next()
        self.lexer = lexer
    }

    /// The text being parsed.
    var source: RulesSource { lexer.source }

    // MARK: Token plumbing

    /// Consumes the lookahead token.
    mutating func advance() {
        previousEnd = current.end
        current = lexer.next()
    }

    /// Line and column of a byte offset.
    func position(_ offset: Int) -> SourcePosition { source.position(ofOffset: offset) }

    /// Records an error at a byte offset.
    mutating func error(_ message: String, at offset: Int) {
        let at = position(offset)
        let src = source
        log.append(.error) { RulesDiagnostic(.error, message, at: at, in: src) }
    }

    /// Records a warning at a byte offset.
    mutating func warning(_ message: String, at offset: Int) {
        let at = position(offset)
        let src = source
        log.append(.warning) { RulesDiagnostic(.warning, message, at: at, in: src) }
    }

    /// Records an error of the name checks, reported only when the file has no syntax error.
    mutating func semanticError(_ message: String, at offset: Int) {
        let at = position(offset)
        let src = source
        semanticLog.append(.error) { RulesDiagnostic(.error, message, at: at, in: src) }
    }

    /// Records `message` at the current token and aborts the statement.
    mutating func fail(_ message: String) throws(Abort) -> Never {
        if current.kind != .invalid { error(message, at: current.start) }
        reportAtPathAnchor()
        throw Abort()
    }

    /// Records the emulator's first error for a syntax error inside brackets that a path
    /// literal was written in before it, within one operand (`exists(/a/b c)`,
    /// `f(/a/b)[c d]`): `Missing 'match' keyword before path.` at that path's start
    /// (corpus compile.g88, g96, g97). The precise error is recorded beside it.
    mutating func reportAtPathAnchor() {
        if bracketDepth > 0, let at = pathAnchor { error(Parser.missingMatch, at: at) }
        pathAnchor = nil
    }

    /// Starts an expression statement: no bracket open, no path seen.
    mutating func beginExpressionStatement() {
        bracketDepth = 0
        pathAnchor = nil
    }

    /// Consumes symbol `s`.
    /// - Throws: `Abort` (after recording an error) when the lookahead is something else.
    mutating func expectSymbol(_ s: String, _ context: String) throws(Abort) {
        guard current.isSymbol(s) else { try fail("Expected '\(s)' \(context), found \(describe(current)).") }
        advance()
    }

    /// Consumes an identifier.
    /// - Throws: `Abort` (after recording an error) when the lookahead is something else.
    mutating func expectIdentifier(_ context: String) throws(Abort) -> String {
        guard let name = current.identifier else { try fail("Expected an identifier \(context), found \(describe(current)).") }
        advance()
        return name
    }

    /// Consumes the name a declaration introduces: a function's, or a variable's (parameter,
    /// `let`). A keyword is `Unexpected 'if'.` there, as on the emulator; a package name
    /// (`math`, `timestamp`) may name a function but not a variable (`semanticError`, corpus
    /// compile.g92, g94, g101, g102).
    /// - Throws: `Abort` (after recording an error) when the lookahead is not a usable name.
    mutating func expectDeclaredName(_ context: String, variable: Bool) throws(Abort) -> String {
        if let word = current.identifier, Parser.keywords.contains(word) { try fail("Unexpected '\(word)'.") }
        let at = current.start
        let name = try expectIdentifier(context)
        if variable && Parser.packages.contains(name) { semanticError(Parser.packageMessage(name), at: at) }
        return name
    }

    /// Consumes a `;` if one is next (semicolons after statements are optional).
    mutating func skipOptionalSemicolon() { if current.isSymbol(";") { advance() } }

    /// A token as error messages name it.
    func describe(_ t: Token) -> String {
        switch t.kind {
        case .eof: return "end of file"
        case .identifier(let s): return "'\(s)'"
        case .symbol(let s): return "'\(s)'"
        case .int, .float: return "number '\(source.slice(t.start, t.end))'"
        case .string, .bytes: return "string literal"
        case .invalid: return "invalid token"
        }
    }

    /// A token's source text as the emulator's parser quotes it (`<EOF>` at the end), cut to 40 bytes.
    func tokenText(_ t: Token) -> String {
        if t.kind == .eof { return "<EOF>" }
        let text = source.slice(t.start, min(t.end, t.start + 40))
        return t.end - t.start > 40 ? text + "…" : text
    }

    /// Skips to the end of the broken statement: past a `;` at depth 0, or up to (not past) a
    /// `}` closing the enclosing block, or up to a statement keyword at depth 0.
    mutating func synchronize() {
        var depth = 0
        while true {
            switch current.kind {
            case .eof: return
            case .symbol("{"), .symbol("("), .symbol("["): depth += 1
            case .symbol(")"), .symbol("]"): depth = max(0, depth - 1)
            case .symbol("}"):
                if depth == 0 { return }
                depth -= 1
            case .symbol(";"):
                if depth == 0 {
                    advance()
                    return
                }
            case .identifier("allow"), .identifier("match"), .identifier("function"):
                if depth == 0 { return }
            default: break
            }
            advance()
        }
    }

    // MARK: File and blocks

    /// file := [ 'rules_version' '=' STRING ';' ] { function | service }
    ///
    /// Several `service` blocks may follow one another when their names differ, as the
    /// emulator accepts a `firebase.storage` block beside `cloud.firestore`; only
    /// `cloud.firestore` is kept, and a file without one compiles and allows nothing (corpus
    /// compile.g82–g84). A repeated name is `Duplicate service name declaration.` at the name.
    mutating func parseFile() -> RulesFileSyntax {
        var functions: [FunctionDecl] = []
        var service: ServiceDecl?
        if current.isIdentifier("rules_version") {
            do { try parseVersion() } catch { synchronize() }
        }
        while current.kind != .eof {
            if current.isIdentifier("function") {
                if let f = parseFunctionStatement() { functions.append(f) }
            } else if current.isIdentifier("service") {
                if let s = parseService(), s.name == "cloud.firestore", service == nil { service = s }
            } else if current.isIdentifier("rules_version") {
                error("rules_version must be the first statement of the file.", at: current.start)
                advance()
                synchronize()
            } else {
                if current.kind != .invalid {
                    error("Unexpected \(describe(current)); expected 'function' or 'service'.", at: current.start)
                }
                advance()
                synchronize()
            }
        }
        if serviceNames.isEmpty && !diagnostics.contains(where: { $0.severity == .error }) {
            error("Missing 'service' block.", at: current.start)
        }
        return RulesFileSyntax(version: version, functions: functions, service: service, exprCount: nextID)
    }

    /// version := 'rules_version' '=' STRING ';'
    ///
    /// An unsupported version is reported at `rules_version`, where the emulator puts it
    /// (corpus compile.g105).
    mutating func parseVersion() throws(Abort) {
        let start = current.start
        advance()
        try expectSymbol("=", "after rules_version")
        guard case .string(let v) = current.kind else { try fail("Expected a quoted version such as '2'.") }
        switch v {
        case "1": version = 1
        case "2": version = 2
        default: error("Unsupported rules_version '\(v)'; expected '1' or '2'.", at: start)
        }
        advance()
        skipOptionalSemicolon()
    }

    /// service := 'service' NAME { '.' NAME } '{' { function | match } '}'
    ///
    /// A service other than `cloud.firestore` is parsed, warned about and left out of the
    /// program: its rules never apply to Firestore requests, as on the emulator.
    mutating func parseService() -> ServiceDecl? {
        let start = current.start
        advance()
        var name = ""
        var functions: [FunctionDecl] = []
        var matches: [MatchDecl] = []
        do {
            let nameStart = current.start
            name = try expectIdentifier("after 'service'")
            while current.isSymbol(".") {
                advance()
                name += "." + (try expectIdentifier("in the service name"))
            }
            if !serviceNames.insert(name).inserted {
                error("Duplicate service name declaration.", at: nameStart)
            } else if name != "cloud.firestore" {
                warning("Service '\(name)' is not Firestore's: its rules are ignored here.", at: nameStart)
            }
            try expectSymbol("{", "to open the service block")
        } catch {
            synchronize()
            if current.isSymbol("{") { advance() } else { return nil }
        }
        (functions, matches, _) = parseBlockBody(inMatch: false)
        return ServiceDecl(name: name, functions: functions, matches: matches, position: position(start))
    }

    /// body := ( function | match | allow ) { function | match | allow } '}'   (allow only inside a match)
    ///
    /// A body without any declaration is an error at its `}`, in the emulator's words
    /// (`The 'match' body must contain at least one declaration.`, corpus compile.g60–g65).
    /// Something else before a match body's first declaration makes the emulator report the
    /// match's path (`Missing 'match' keyword before path.` at `pathStart`, corpus
    /// compile.g89, g90), then the token.
    mutating func parseBlockBody(inMatch: Bool, pathStart: Int? = nil) -> ([FunctionDecl], [MatchDecl], [AllowDecl]) {
        var functions: [FunctionDecl] = []
        var matches: [MatchDecl] = []
        var allowList: [AllowDecl] = []
        var declarations = 0
        var reportedPath = false
        while true {
            switch current.kind {
            case .eof:
                error("Missing '}' at end of file.", at: current.start)
                return (functions, matches, allowList)
            case .symbol("}"):
                if declarations == 0 {
                    error("The '\(inMatch ? "match" : "service")' body must contain at least one declaration.", at: current.start)
                }
                advance()
                return (functions, matches, allowList)
            case .identifier("function"):
                declarations += 1
                if let f = parseFunctionStatement() { functions.append(f) }
            case .identifier("match"):
                declarations += 1
                if let m = parseMatch() { matches.append(m) }
            case .identifier("allow"):
                declarations += 1
                if !inMatch {
                    error("'allow' must be inside a 'match' block.", at: current.start)
                }
                if let a = parseAllow() { allowList.append(a) }
            default:
                if declarations == 0, !reportedPath, let pathStart {
                    error(Parser.missingMatch, at: pathStart)
                    reportedPath = true
                }
                if current.kind != .invalid {
                    error("Unexpected \(describe(current)); expected 'match', 'allow', 'function' or '}'.", at: current.start)
                }
                advance()
                synchronize()
            }
        }
    }

    /// match := 'match' matchPath '{' { function | match | allow } '}'
    ///
    /// Anything but `{` after the path is reported at the path's start first, as the emulator
    /// does (`match /a/{c}d {`, corpus compile.g77). A match opened `maxMatchNesting` levels
    /// deep is not parsed: one error, then its body is skipped up to the closing brace without
    /// descending.
    mutating func parseMatch() -> MatchDecl? {
        let start = current.start
        advance()
        let pathStart = current.start
        var path: (segments: [MatchSegment], slashes: [SourcePosition])?
        do {
            path = try parseMatchPath()
            if !current.isSymbol("{") { error(Parser.missingMatch, at: pathStart) }
            try expectSymbol("{", "to open the match block")
        } catch {
            synchronize()
            if current.isSymbol("{") { advance() } else { return nil }
            path = nil
        }
        guard matchNesting < Parser.maxMatchNesting else {
            error(
                "Match statements are nested more than \(Parser.maxMatchNesting) deep; the rest of this block is skipped.",
                at: start)
            skipPastClosingBrace()
            return nil
        }
        matchNesting += 1
        defer { matchNesting -= 1 }
        let (functions, children, allows) = parseBlockBody(inMatch: true, pathStart: pathStart)
        guard let path else { return nil }
        return MatchDecl(
            pattern: path.segments, segmentPositions: path.slashes, functions: functions, allows: allows, children: children,
            position: position(start))
    }

    /// allow := 'allow' method { ',' method } [ ':' 'if' expr ] [ ';' ]
    ///
    /// The `;` is optional: the next statement or the `}` may follow directly, even on the
    /// same line, as the emulator accepts (corpus compile.g01–g05).
    /// A method name the language does not know (`allow fetch`) is a warning and grants
    /// nothing, as on the emulator (`Invalid method name: fetch.`, corpus compile.c04, c21):
    /// rejecting the file would keep the previous rules in force.
    mutating func parseAllow() -> AllowDecl? {
        let start = current.start
        advance()
        do {
            var methods: [AllowMethod] = []
            var first = true
            repeat {
                if !first {
                    let comma = current.start
                    advance()
                    if current.identifier == nil {
                        // A trailing comma in the method list: the emulator names the comma.
                        error("Unexpected ','.", at: comma)
                        throw Abort()
                    }
                }
                first = false
                guard let name = current.identifier else {
                    try fail("Expected a method (read, write, get, list, create, update, delete), found \(describe(current)).")
                }
                if let m = AllowMethod(rawValue: name) {
                    methods.append(m)
                } else {
                    warning("Invalid method name: \(name).", at: current.start)
                }
                advance()
            } while current.isSymbol(",")
            var condition: Expr?
            if current.isSymbol(":") {
                advance()
                guard current.isIdentifier("if") else { try fail("Missing 'if' before conditional expression.") }
                advance()
                beginExpressionStatement()
                condition = try parseExpression()
            }
            skipOptionalSemicolon()
            return AllowDecl(methods: methods, condition: condition, position: position(start))
        } catch {
            synchronize()
            return nil
        }
    }

    /// function := 'function' IDENT '(' [ IDENT { ',' IDENT } ] ')' '{' { let } 'return' expr [';'] '}'
    /// let := 'let' IDENT '=' expr ';'
    ///
    /// Unlike the `return` statement's, a `let` binding's `;` is required (`missing ';' at
    /// 'return'`, corpus compile.g08); a parameter list takes no trailing comma (compile.g14);
    /// a body without `return` is `Missing 'function' body` when it is empty (compile.g11).
    mutating func parseFunctionStatement() -> FunctionDecl? {
        let start = current.start
        advance()
        var inBody = false
        do {
            let name = try expectDeclaredName("after 'function'", variable: false)
            try expectSymbol("(", "after the function name")
            var params: [String] = []
            if !current.isSymbol(")") {
                params.append(try expectDeclaredName("as a parameter", variable: true))
                while current.isSymbol(",") {
                    advance()
                    params.append(try expectDeclaredName("as a parameter", variable: true))
                }
            }
            try expectSymbol(")", "after the parameters")
            try expectSymbol("{", "to open the function body")
            inBody = true
            var bindings: [LetBinding] = []
            while current.isIdentifier("let") {
                if version < 2 { error("'let' bindings need rules_version = '2'.", at: current.start) }
                advance()
                beginExpressionStatement()
                if let word = current.identifier, Parser.keywords.contains(word) {
                    try fail("mismatched input '\(word)' expecting IDENTIFIER")
                }
                let n = try expectDeclaredName("after 'let'", variable: true)
                try expectSymbol("=", "after the let name")
                bindings.append(LetBinding(name: n, value: try parseExpression()))
                if current.isSymbol(";") {
                    advance()
                } else {
                    // Reported as the emulator's parser does; parsing goes on as if it were there.
                    error("missing ';' at '\(tokenText(current))'", at: current.start)
                }
            }
            guard current.isIdentifier("return") else {
                if bindings.isEmpty && current.isSymbol("}") { try fail("Missing 'function' body") }
                try fail("Expected 'return' in the body of function '\(name)', found \(describe(current)).")
            }
            advance()
            beginExpressionStatement()
            let body = try parseExpression()
            skipOptionalSemicolon()
            try expectSymbol("}", "to close the function body")
            return FunctionDecl(name: name, parameters: params, bindings: bindings, body: body, position: position(start))
        } catch {
            if inBody { skipPastClosingBrace() } else { synchronize() }
            return nil
        }
    }

    /// Consumes tokens up to and including the `}` that closes the current block.
    mutating func skipPastClosingBrace() {
        var depth = 0
        while current.kind != .eof {
            if current.isSymbol("{") { depth += 1 }
            if current.isSymbol("}") {
                if depth == 0 {
                    advance()
                    return
                }
                depth -= 1
            }
            advance()
        }
    }
}
