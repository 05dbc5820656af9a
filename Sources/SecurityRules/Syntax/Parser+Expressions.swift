/// The expression grammar, highest precedence last (reference §2.2).
extension Parser {
    /// Words that cannot name a variable (reference §2.1).
    static let reservedWords: Set<String> = [
        "in", "is", "allow", "match", "if", "function", "return", "let", "service", "rules_version",
    ]

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

    /// expr := or [ '?' expr ':' expr ]
    mutating func parseExpression() throws(Abort) -> Expr {
        let start = current.start
        try enter(at: start)
        defer { nesting -= 1 }
        let cond = try parseOr()
        guard current.isSymbol("?") else { return cond }
        advance()
        let a = try parseExpression()
        try expectSymbol(":", "in the conditional expression")
        let b = try parseExpression()
        return try make(.ternary(cond, a, b), from: start)
    }

    /// or := and { '||' and }
    mutating func parseOr() throws(Abort) -> Expr {
        let start = current.start
        var terms = [try parseAnd()]
        while current.isSymbol("||") {
            advance()
            terms.append(try parseAnd())
        }
        return terms.count == 1 ? terms[0] : try make(.logical(.or, terms), from: start)
    }

    /// and := equality { '&&' equality }
    mutating func parseAnd() throws(Abort) -> Expr {
        let start = current.start
        var terms = [try parseEquality()]
        while current.isSymbol("&&") {
            advance()
            terms.append(try parseEquality())
        }
        return terms.count == 1 ? terms[0] : try make(.logical(.and, terms), from: start)
    }

    /// equality := is { ( '==' | '!=' ) is }
    mutating func parseEquality() throws(Abort) -> Expr {
        let start = current.start
        var lhs = try parseIs()
        while let op = binaryOperator(["==", "!="]) {
            advance()
            let rhs = try parseIs()
            lhs = try make(.binary(op, lhs, rhs), from: start)
        }
        return lhs
    }

    /// is := in { 'is' TYPE }
    mutating func parseIs() throws(Abort) -> Expr {
        let start = current.start
        var lhs = try parseIn()
        while current.isIdentifier("is") {
            advance()
            guard let name = current.identifier else { try fail("Expected a type name after 'is', found \(describe(current)).") }
            guard let type = RulesType(rawValue: name), type != .null else {
                try fail(
                    "Unknown type '\(name)' after 'is'; expected one of bool, int, float, number, string, bytes, list, map, set, map_diff, path, timestamp, duration, latlng, constraint."
                )
            }
            advance()
            lhs = try make(.isType(lhs, type), from: start)
        }
        return lhs
    }

    /// in := relation { 'in' relation }
    mutating func parseIn() throws(Abort) -> Expr {
        let start = current.start
        var lhs = try parseRelation()
        while current.isIdentifier("in") {
            advance()
            let rhs = try parseRelation()
            lhs = try make(.binary(.in, lhs, rhs), from: start)
        }
        return lhs
    }

    /// relation := additive { ( '<' | '<=' | '>' | '>=' ) additive }
    mutating func parseRelation() throws(Abort) -> Expr {
        let start = current.start
        var lhs = try parseAdditive()
        while let op = binaryOperator(["<", "<=", ">", ">="]) {
            advance()
            let rhs = try parseAdditive()
            lhs = try make(.binary(op, lhs, rhs), from: start)
        }
        return lhs
    }

    /// additive := multiplicative { ( '+' | '-' ) multiplicative }
    mutating func parseAdditive() throws(Abort) -> Expr {
        let start = current.start
        var lhs = try parseMultiplicative()
        while let op = binaryOperator(["+", "-"]) {
            advance()
            let rhs = try parseMultiplicative()
            lhs = try make(.binary(op, lhs, rhs), from: start)
        }
        return lhs
    }

    /// multiplicative := unary { ( '*' | '/' | '%' ) unary }
    mutating func parseMultiplicative() throws(Abort) -> Expr {
        let start = current.start
        var lhs = try parseUnary()
        while let op = binaryOperator(["*", "/", "%"]) {
            advance()
            let rhs = try parseUnary()
            lhs = try make(.binary(op, lhs, rhs), from: start)
        }
        return lhs
    }

    /// The current token as one of the `allowed` operators.
    func binaryOperator(_ allowed: Set<String>) -> RulesBinaryOperator? {
        guard case .symbol(let s) = current.kind, allowed.contains(s) else { return nil }
        return RulesBinaryOperator(rawValue: s)
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
    mutating func parsePostfix() throws(Abort) -> Expr {
        let start = current.start
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
                    let args = try parseArguments()
                    e = try make(.method(e, name, args), from: start)
                } else {
                    e = try make(.member(e, name), from: start)
                }
            } else if current.isSymbol("[") {
                advance()
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

    /// args := '(' [ expr { ',' expr } ] ')'
    mutating func parseArguments() throws(Abort) -> [Expr] {
        advance()
        var args: [Expr] = []
        if !current.isSymbol(")") {
            args.append(try parseExpression())
            while current.isSymbol(",") {
                advance()
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
                if Parser.reservedWords.contains(name) { try fail("Unexpected keyword '\(name)' in expression.") }
                advance()
                return try make(.identifier(name), from: start)
            }
        case .symbol("("):
            advance()
            let inner = try parseExpression()
            try expectSymbol(")", "to close the parenthesis")
            return inner
        case .symbol("["):
            advance()
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

    /// pathLiteral := ( '/' pathSegment )+ ;
    /// pathSegment := LITERAL | '(' LITERAL ')' | '{' IDENT '}' | '$(' expr ')'
    mutating func parsePathLiteral() throws(Abort) -> Expr {
        let start = current.start
        lexer.offset = current.start
        var parts: [PathPart] = []
        while lexer.rawByte() == 47 {
            lexer.advanceRaw(1)
            let segStart = lexer.offset
            if lexer.rawByte() == 36, lexer.rawByte(1) == 40 {
                lexer.advanceRaw(2)
                current = lexer.next()
                let inner = try parseExpression()
                guard current.isSymbol(")") else { try fail("Expected ')' to close '$(', found \(describe(current)).") }
                lexer.offset = current.end
                parts.append(.interpolation(inner))
            } else if lexer.rawByte() == 123 {
                lexer.advanceRaw(1)
                guard let name = lexer.scanRawIdentifier(), lexer.rawByte() == 125 else {
                    error("Expected '{name}' placeholder in path.", at: segStart)
                    throw Abort()
                }
                lexer.advanceRaw(1)
                parts.append(.literal("{\(name)}"))
            } else {
                let literal = lexer.scanLiteralSegment(inExpression: true)
                if literal.isEmpty {
                    error("Empty or invalid path segment.", at: segStart)
                    throw Abort()
                }
                parts.append(.literal(literal))
            }
        }
        previousEnd = lexer.offset
        current = lexer.next()
        return try make(.path(parts), from: start)
    }
}
