/// Match paths and path literals, read from the raw bytes through the lexer's cursor
/// (docs/reference/security-rules.md §1.1, §2.3), and where the emulator places their errors.
///
/// The emulator's parser reports a path it cannot take at the path's first `/`, as `Missing
/// 'match' keyword before path.`, whatever went wrong inside it; a `/` that no segment
/// follows is `Forward slash '/' found where identifier or binding expected.` at that `/`,
/// and the path simply ends there (corpus compile.g74–g81, g85–g88, g96–g98). Hearth
/// records the emulator's error and its own precise one beside it.
extension Parser {
    /// The emulator's error for a path it cannot parse, at the path's start.
    static let missingMatch = "Missing 'match' keyword before path."
    /// The emulator's error for a `/` that no segment follows, at that `/`.
    static let danglingSlash = "Forward slash '/' found where identifier or binding expected."
    /// Keywords the emulator reports at the `/` before a wildcard they name; the others it
    /// reports at the start of the path.
    static let slashKeywords: Set<String> = ["allow", "function", "match"]

    /// A wildcard between braces: `{name}`, `{name=*}` (one segment) or `{name=**}`.
    struct WildcardSyntax {
        /// The name.
        var name: String
        /// Byte offset of the name.
        var nameOffset: Int
        /// `=**`: zero or more segments.
        var recursive: Bool
        /// `=*`, which the emulator takes as a plain `{name}`.
        var single: Bool

        /// The wildcard as a path literal keeps it: `{name}`, `{name=*}`, `{name=**}`.
        var text: String { "{\(name)\(recursive ? "=**" : single ? "=*" : "")}" }
    }

    /// wildcard := '{' IDENT [ '=' ( '*' | '**' ) ] '}'   (spaces allowed between the parts)
    ///
    /// Reads a wildcard with the cursor on its `{`; nil, cursor anywhere inside, when it is
    /// malformed (`{1}`, `{x=}`, `{x y}`).
    mutating func scanWildcard() -> WildcardSyntax? {
        lexer.advanceRaw(1)
        lexer.skipRawSpaces()
        let nameOffset = lexer.offset
        guard let name = lexer.scanRawIdentifier() else { return nil }
        lexer.skipRawSpaces()
        var recursive = false
        var single = false
        if lexer.rawByte() == 61 {
            lexer.advanceRaw(1)
            lexer.skipRawSpaces()
            guard lexer.rawByte() == 42 else { return nil }
            if lexer.rawByte(1) == 42 {
                recursive = true
                lexer.advanceRaw(2)
            } else {
                single = true
                lexer.advanceRaw(1)
            }
            lexer.skipRawSpaces()
        }
        guard lexer.rawByte() == 125 else { return nil }
        lexer.advanceRaw(1)
        return WildcardSyntax(name: name, nameOffset: nameOffset, recursive: recursive, single: single)
    }

    /// True when byte `c` can start a segment after a `/`: a path character, `(`, `{`, or in a
    /// path literal `$`. (`/` itself starts a `//` comment, which the path cannot hold.)
    static func startsSegment(_ c: UInt8?, inExpression: Bool) -> Bool {
        guard let c else { return false }
        return Lexer.isPathChar(c) || c == 40 || c == 123 || c == 47 || (inExpression && c == 36)
    }

    /// Records the emulator's error at the path's start (and at the anchor of the enclosing
    /// brackets, when that is another path), then `message` at `offset`, and aborts.
    /// - Throws: `Abort`, always.
    mutating func malformedPath(from start: Int, _ message: String?, at offset: Int) throws(Abort) -> Never {
        error(Parser.missingMatch, at: start)
        if bracketDepth > 0, let anchor = pathAnchor, anchor != start { error(Parser.missingMatch, at: anchor) }
        pathAnchor = nil
        if let message { error(message, at: offset) }
        throw Abort()
    }

    /// Rejects a keyword naming a wildcard; flags a package name for the name checks.
    /// - Throws: `Abort` (after recording the emulator's error) for a keyword.
    mutating func checkWildcardName(_ w: WildcardSyntax, slash: Int, pathStart: Int, inExpression: Bool) throws(Abort) {
        if Parser.keywords.contains(w.name) {
            let precise = "'\(w.name)' is a keyword and cannot name a wildcard."
            if inExpression { try malformedPath(from: pathStart, precise, at: w.nameOffset) }
            if Parser.slashKeywords.contains(w.name) || slash == pathStart {
                error(Parser.danglingSlash, at: Parser.slashKeywords.contains(w.name) ? slash : pathStart)
            } else {
                error(Parser.missingMatch, at: pathStart)
            }
            error(precise, at: w.nameOffset)
            throw Abort()
        }
        if Parser.packages.contains(w.name) { semanticError(Parser.packageMessage(w.name), at: w.nameOffset) }
    }

    /// matchPath := ( '/' segment )+ ;  segment := LITERAL | '(' LITERAL ')' | wildcard
    ///
    /// Returns the segments and the position of the `/` before each (where the checker
    /// reports a misplaced `{name=**}`). `{name=*}` is `{name}`.
    /// - Throws: `Abort` (after recording the errors) for a segment that cannot be read.
    mutating func parseMatchPath() throws(Abort) -> (segments: [MatchSegment], slashes: [SourcePosition]) {
        guard current.isSymbol("/") else { try fail("A match path must start with '/', found \(describe(current)).") }
        let start = current.start
        lexer.offset = start
        var segments: [MatchSegment] = []
        var slashes: [SourcePosition] = []
        while lexer.rawByte() == 47 {
            let slash = lexer.offset
            lexer.advanceRaw(1)
            guard Parser.startsSegment(lexer.rawByte(), inExpression: false) else {
                error(Parser.danglingSlash, at: slash)
                break
            }
            if lexer.rawByte() == 123 {
                guard let w = scanWildcard() else {
                    try malformedPath(from: start, "Expected a wildcard such as '{name}' or '{name=**}'.", at: slash + 1)
                }
                try checkWildcardName(w, slash: slash, pathStart: start, inExpression: false)
                segments.append(w.recursive ? .recursive(w.name) : .wildcard(w.name))
            } else {
                let literal = lexer.scanLiteralSegment()
                if literal.isEmpty { try malformedPath(from: start, "Empty path segment in match path.", at: slash + 1) }
                segments.append(.literal(literal))
            }
            slashes.append(position(slash))
        }
        previousEnd = lexer.offset
        current = lexer.next()
        return (segments, slashes)
    }

    /// pathLiteral := ( '/' pathSegment )+ ;
    /// pathSegment := LITERAL | '(' LITERAL ')' | wildcard | '$' '(' expr ')'
    ///
    /// A wildcard stays in the path as written (`{name}`, a `bind()` placeholder). Inside
    /// brackets the path becomes the anchor `reportAtPathAnchor` reports later errors at.
    /// - Throws: `Abort` (after recording the errors) for a segment that cannot be read.
    mutating func parsePathLiteral() throws(Abort) -> Expr {
        let start = current.start
        if bracketDepth > 0 && pathAnchor == nil { pathAnchor = start }
        lexer.offset = current.start
        var parts: [PathPart] = []
        while lexer.rawByte() == 47 {
            let slash = lexer.offset
            lexer.advanceRaw(1)
            guard Parser.startsSegment(lexer.rawByte(), inExpression: true) else {
                error(Parser.danglingSlash, at: slash)
                break
            }
            switch lexer.rawByte() {
            case 36:
                var j = 1
                while let d = lexer.rawByte(j), Lexer.isSpace(d) { j += 1 }
                guard lexer.rawByte(j) == 40 else { try malformedPath(from: start, "Expected '(' after '$'.", at: slash + 1) }
                lexer.advanceRaw(j + 1)
                current = lexer.next()
                let inner: Expr
                do {
                    inner = try parseExpression()
                } catch {
                    try malformedPath(from: start, nil, at: start)
                }
                guard current.isSymbol(")") else {
                    try malformedPath(from: start, "Expected ')' to close '$(', found \(describe(current)).", at: current.start)
                }
                lexer.offset = current.end
                parts.append(.interpolation(inner))
            case 123:
                guard let w = scanWildcard() else {
                    try malformedPath(from: start, "Expected '{name}' placeholder in path.", at: slash + 1)
                }
                try checkWildcardName(w, slash: slash, pathStart: start, inExpression: true)
                parts.append(.literal(w.text))
            default:
                let literal = lexer.scanLiteralSegment()
                if literal.isEmpty { try malformedPath(from: start, "Empty or invalid path segment.", at: slash + 1) }
                parts.append(.literal(literal))
            }
        }
        previousEnd = lexer.offset
        current = lexer.next()
        return try make(.path(parts), from: start)
    }
}
