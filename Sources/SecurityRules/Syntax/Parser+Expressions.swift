/// The expression grammar: conditional, binary operators by precedence climbing, unary,
/// postfix, primary (docs/reference/security-rules.md §2.2, with the emulator's binding order; see `binaryLevel`).
extension Parser {
    /// The words the emulator's grammar reserves: none names a variable, a function, a
    /// parameter or a wildcard (probed one by one on the emulator; docs/reference/security-rules.md §2.1,
    /// corpus compile.g76, g99–g104). `true`, `false` and `null` are literals where an expression is expected.
    static let keywords: Set<String> = [
        "allow", "break", "case", "continue", "default", "do", "each", "else", "extends", "false", "for", "function", "goto",
        "if", "import", "in", "is", "let", "match", "not", "null", "package", "return", "rules_version", "service", "switch",
        "then", "true", "var", "while",
    ]

    /// The library's packages (`math.abs`, `timestamp.date`, `hashing.sha256`): a package
    /// name is followed by `.`, or by `(` when a function has its name, or it is the compile
    /// error `packageMessage` (docs/reference/security-rules.md §2.1, corpus compile.g91–g95).
    static let packages: Set<String> = ["duration", "hashing", "latlng", "math", "timestamp"]

    /// The emulator's error for a package name used as a variable, parameter or wildcard.
    static func packageMessage(_ name: String) -> String { "\(name) is a package and cannot be used as variable name." }

    /// Builds a node whose text runs from `start` to the end of the last consumed token.
    mutating func make(_ kind: ExprKind, from start: Int) throws(Abort) -> Expr {
        let e = Expr(id: nextID, position: position(start), end: max(previousEnd, start), kind: kind)
        nextID += 1
        if e.height > Parser.maxHeight {
            error("Expression is too large: more than \(Parser.maxHeight) nested operations.", at: start)
            throw Abort()
        }
        return e
    }

    /// Counts one more level of nesting.
    /// - Throws: `Abort` past `maxNesting`.
    mutating func enter(at offset: Int) throws(Abort) {
        nesting += 1
        if nesting > Parser.maxNesting {
            error("Expression nesting exceeds \(Parser.maxNesting) levels.", at: offset)
            throw Abort()
        }
    }

    /// expr := binary(1) [ '?' expr ':' expr ]
    mutating func parseExpression() throws(Abort) -> Expr {
        let start = current.start
        try enter(at: start)
        defer { nesting -= 1 }
        let cond = try parseBinary(atLeast: 1)
        guard current.isSymbol("?") else { return cond }
        advance()
        let a = try parseExpression()
        try expectSymbol(":", "in the conditional expression")
        let b = try parseExpression()
        return try make(.ternary(cond, a, b), from: start)
    }

    /// The binding strength of the operator at the lookahead, tightest highest, or nil when the
    /// lookahead is not a binary operator (or `is`).
    ///
    /// Tightest to loosest: `* / %`, `+ -`, `< <= > >=`, `== !=`, `is`, `in`, `&&`, `||`, as the
    /// emulator binds them (corpus ops.p07–p09, p26–p32; docs/reference/security-rules.md §2.2's table puts `in` and
    /// `is` above `==`, which the emulator contradicts).
    var binaryLevel: Int? {
        switch current.kind {
        case .symbol("||"): return 1
        case .symbol("&&"): return 2
        case .identifier("in"): return 3
        case .identifier("is"): return 4
        case .symbol("=="), .symbol("!="): return 5
        case .symbol("<"), .symbol("<="), .symbol(">"), .symbol(">="): return 6
        case .symbol("+"), .symbol("-"): return 7
        case .symbol("*"), .symbol("/"), .symbol("%"): return 8
        default: return nil
        }
    }

    /// binary(n) := unary { OP(level >= n) binary(level + 1) | 'is'(level >= n) TYPE }
    ///
    /// Precedence climbing in the shape of the emulator's ANTLR left-recursive rule: every
    /// operator is left-associative, and `is TYPE` is a postfix that a tighter operator may
    /// follow, so `1 is int == true` reads `((1 is int) == true)` and `'a' in l is bool` reads
    /// `('a' in (l is bool))`. Runs of `&&` (or of `||`) become one n-ary node so long chains
    /// stay shallow.
    mutating func parseBinary(atLeast minimum: Int) throws(Abort) -> Expr {
        let start = current.start
        var lhs = try parseUnary()
        // An `&&` / `||` run being collected; it becomes `lhs` once another operator or the end comes.
        var run: (op: RulesLogicalOperator, terms: [Expr])?
        while let level = binaryLevel, level >= minimum {
            let logical: RulesLogicalOperator? = current.isSymbol("&&") ? .and : current.isSymbol("||") ? .or : nil
            if let r = run, r.op != logical {
                lhs = try make(.logical(r.op, r.terms), from: start)
                run = nil
            }
            if let op = logical {
                advance()
                let rhs = try parseBinary(atLeast: level + 1)
                if run == nil { run = (op, [lhs]) }
                run?.terms.append(rhs)
                continue
            }
            if current.isIdentifier("is") {
                advance()
                let type = try parseTypeName()
                lhs = try make(.isType(lhs, type), from: start)
                continue
            }
            if current.isSymbol("/"), let next = lexer.rawByte(at: current.end), !Lexer.isSpace(next) {
                // The emulator lexes `/` glued to what follows as a path, so `1/0` and `a /b`
                // do not compile there; division needs whitespace after the `/` (corpus compile.c03).
                try fail(
                    "Missing 'match' keyword before path. (A '/' directly followed by text starts a path; put a space after '/' to divide.)"
                )
            }
            let op: RulesBinaryOperator
            if current.isIdentifier("in") {
                op = .in
            } else if case .symbol(let s) = current.kind, let o = RulesBinaryOperator(rawValue: s) {
                op = o
            } else {
                try fail("Expected an operator, found \(describe(current)).")
            }
            advance()
            let rhs = try parseBinary(atLeast: level + 1)
            lhs = try make(.binary(op, lhs, rhs), from: start)
        }
        if let r = run { lhs = try make(.logical(r.op, r.terms), from: start) }
        return lhs
    }

    /// The type names `is` accepts, in the order the emulator's message lists them (corpus compile.c25, g30–g48).
    static let isTypeNames = "bool,bytes,constraint,duration,float,int,latlng,list,vector,set,number,map,string,timestamp,path,map_diff"

    /// typeName := IDENT naming a rules type other than null (after `is`): one of `isTypeNames`.
    /// - Throws: `Abort` (after recording an error) for anything else. As on the emulator, a
    ///   token that is not a name (`null`, `true`, `'int'`) is `mismatched input … expecting
    ///   IDENTIFIER` at that token; an unknown name (`integer`) is `An unsupported type
    ///   identifier was used with the 'is' operator. …` at the token after it.
    mutating func parseTypeName() throws(Abort) -> RulesType {
        guard let name = current.identifier, !["null", "true", "false"].contains(name) else {
            try fail("mismatched input '\(tokenText(current))' expecting IDENTIFIER")
        }
        advance()
        guard let type = RulesType(rawValue: name), type != .null else {
            try fail(
                "An unsupported type identifier was used with the 'is' operator. Received \(name). Expected one of \(Parser.isTypeNames)"
            )
        }
        return type
    }

    /// unary := ( '!' | '-' ) unary | postfix
    mutating func parseUnary() throws(Abort) -> Expr {
        let start = current.start
        guard current.isSymbol("!") || current.isSymbol("-") else { return try parsePostfix() }
        try enter(at: start)
        defer { nesting -= 1 }
        let op: RulesUnaryOperator = current.isSymbol("!") ? .not : .negate
        advance()
        // -9223372036854775808 is the one literal whose magnitude does not fit an Int64.
        if op == .negate, case .int(let v) = current.kind, v == UInt64(Int64.max) + 1 {
            advance()
            return try parsePostfix(startingWith: try make(.literal(.int(.min)), from: start), start: start)
        }
        let operand = try parseUnary()
        return try make(.unary(op, operand), from: start)
    }

    /// postfix := primary { '.' IDENT [ '(' args ')' ] | '[' expr [ ':' expr ] ']' | '(' args ')' }
    ///
    /// An operand outside every bracket starts a new chain for `reportAtPathAnchor`.
    mutating func parsePostfix() throws(Abort) -> Expr {
        let start = current.start
        if bracketDepth == 0 { pathAnchor = nil }
        return try parsePostfix(startingWith: try parsePrimary(), start: start)
    }

    /// Applies postfix forms to an already parsed primary.
    mutating func parsePostfix(startingWith first: Expr, start: Int) throws(Abort) -> Expr {
        var e = first
        while true {
            if current.isSymbol(".") {
                advance()
                guard let name = current.identifier else {
                    try fail("Expected a field or method name after '.', found \(describe(current)).")
                }
                advance()
                if current.isSymbol("(") {
                    // A reserved word names a field (`data.default`) but never a method (corpus compile.g106).
                    if Parser.keywords.contains(name) { try fail("Unexpected '('.") }
                    let args = try parseArguments()
                    e = try make(.method(e, name, args), from: start)
                } else {
                    e = try make(.member(e, name), from: start)
                }
            } else if current.isSymbol("[") {
                advance()
                bracketDepth += 1
                defer { bracketDepth -= 1 }
                var lower: Expr?
                if !current.isSymbol(":") { lower = try parseExpression() }
                if current.isSymbol(":") {
                    advance()
                    var upper: Expr?
                    if !current.isSymbol("]") { upper = try parseExpression() }
                    try expectSymbol("]", "to close the slice")
                    e = try make(.slice(e, lower, upper), from: start)
                } else {
                    try expectSymbol("]", "to close the index")
                    guard let index = lower else { try fail("Expected an index expression.") }
                    e = try make(.index(e, index), from: start)
                }
            } else if current.isSymbol("(") {
                guard case .identifier(let name) = e.kind else { try fail("Only named functions can be called.") }
                let args = try parseArguments()
                e = try make(.call(name, args), from: start)
            } else {
                return e
            }
        }
    }

    /// args := '(' [ expr { ',' expr } [ ',' ] ] ')'
    ///
    /// One trailing comma after the last argument is accepted, as the emulator accepts it in
    /// function and method calls (`f(a, b,\n)`, corpus compile.g12, g13); a lone or doubled
    /// comma is not (g15, g16).
    mutating func parseArguments() throws(Abort) -> [Expr] {
        advance()
        bracketDepth += 1
        defer { bracketDepth -= 1 }
        var args: [Expr] = []
        if !current.isSymbol(")") {
            args.append(try parseExpression())
            while current.isSymbol(",") {
                advance()
                if current.isSymbol(")") { break }
                args.append(try parseExpression())
            }
        }
        try expectSymbol(")", "to close the argument list")
        return args
    }

    /// primary := literal | IDENT | '(' expr ')' | '[' [ expr { ',' expr } [','] ] ']'
    ///          | '{' [ expr ':' expr { ',' expr ':' expr } [','] ] '}' | pathLiteral
    mutating func parsePrimary() throws(Abort) -> Expr {
        let start = current.start
        switch current.kind {
        case .int(let v):
            guard v <= UInt64(Int64.max) else { try fail("Integer literal out of range.") }
            advance()
            return try make(.literal(.int(Int64(v))), from: start)
        case .float(let d):
            advance()
            return try make(.literal(.float(d)), from: start)
        case .string(let s):
            advance()
            return try make(.literal(.string(s)), from: start)
        case .bytes(let b):
            advance()
            return try make(.literal(.bytes(b)), from: start)
        case .identifier(let name):
            switch name {
            case "true", "false":
                advance()
                return try make(.literal(.bool(name == "true")), from: start)
            case "null":
                advance()
                return try make(.literal(.null), from: start)
            default:
                if Parser.keywords.contains(name) { try fail("Unexpected keyword '\(name)' in expression.") }
                advance()
                if Parser.packages.contains(name) && !current.isSymbol(".") && !current.isSymbol("(") {
                    semanticError(Parser.packageMessage(name), at: start)
                }
                return try make(.identifier(name), from: start)
            }
        case .symbol("("):
            advance()
            bracketDepth += 1
            defer { bracketDepth -= 1 }
            let inner = try parseExpression()
            try expectSymbol(")", "to close the parenthesis")
            return inner
        case .symbol("["):
            advance()
            bracketDepth += 1
            defer { bracketDepth -= 1 }
            var items: [Expr] = []
            while !current.isSymbol("]") {
                items.append(try parseExpression())
                guard current.isSymbol(",") else { break }
                advance()
            }
            try expectSymbol("]", "to close the list")
            return try make(.list(items), from: start)
        case .symbol("{"):
            advance()
            bracketDepth += 1
            defer { bracketDepth -= 1 }
            var entries: [MapEntry] = []
            while !current.isSymbol("}") {
                let k = try parseExpression()
                try expectSymbol(":", "after a map key")
                let v = try parseExpression()
                entries.append(MapEntry(key: k, value: v))
                guard current.isSymbol(",") else { break }
                advance()
            }
            try expectSymbol("}", "to close the map")
            return try make(.map(entries), from: start)
        case .symbol("/"):
            return try parsePathLiteral()
        default:
            try fail("Expected an expression, found \(describe(current)).")
        }
    }
}
