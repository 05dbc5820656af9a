/// Turns rules source bytes into tokens on demand; does no I/O.
///
/// The parser pulls one token at a time with `next()`, and switches to the raw scanners
/// (`scanLiteralSegment`, `scanRawIdentifier`) where path syntax replaces expression syntax
/// (after `match`, and after a `/` in operand position). Errors are recorded in `diagnostics`
/// and lexing continues. Source: docs/reference/security-rules.md §2.1 (tokens), §1.1 and §2.3 (paths).
struct Lexer {
    /// The text being lexed.
    let source: RulesSource
    private let bytes: [UInt8]
    /// Current byte offset.
    var offset: Int = 0
    /// Errors found so far (bounded).
    var log = DiagnosticLog()
    /// The errors recorded so far.
    var diagnostics: [RulesDiagnostic] { log.entries }

    /// Starts at the beginning of `source`.
    init(source: RulesSource) {
        self.source = source
        self.bytes = source.bytes
    }

    private func peek(_ k: Int = 0) -> UInt8? {
        let i = offset + k
        return i < bytes.count ? bytes[i] : nil
    }

    /// Records an error at a byte offset.
    mutating func error(_ message: String, at offset: Int) {
        let src = source
        log.append(.error) { RulesDiagnostic(.error, message, at: src.position(ofOffset: offset), in: src) }
    }

    /// `[A-Za-z_]`.
    static func isIdentStart(_ c: UInt8) -> Bool { (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c == 95 }
    /// `[0-9]`.
    static func isDigit(_ c: UInt8) -> Bool { c >= 48 && c <= 57 }
    /// `[A-Za-z0-9_]`.
    static func isIdentPart(_ c: UInt8) -> Bool { isIdentStart(c) || isDigit(c) }
    /// True for a byte the emulator's lexer skips with `token recognition error at: …`
    /// rather than making a token of it: `# ~ \ ^` and backtick, control characters and any
    /// byte of a non-ASCII character (`$`, `@`, `&` and `|` are tokens there; probed on the
    /// emulator, corpus compile.g107).
    static func emulatorDrops(_ c: UInt8) -> Bool {
        c >= 0x80 || c < 0x20 || c == 35 || c == 126 || c == 92 || c == 94 || c == 96
    }

    /// Space, tab, newline, carriage return, form feed.
    static func isSpace(_ c: UInt8) -> Bool { c == 32 || c == 9 || c == 10 || c == 13 || c == 12 }

    /// Skips whitespace, `// …` and `/* … */` comments.
    mutating func skipTrivia() {
        while let c = peek() {
            if Self.isSpace(c) {
                offset += 1
            } else if c == 47, peek(1) == 47 {
                while let d = peek(), d != 10 { offset += 1 }
            } else if c == 47, peek(1) == 42 {
                let start = offset
                offset += 2
                var closed = false
                while let d = peek() {
                    if d == 42, peek(1) == 47 {
                        offset += 2
                        closed = true
                        break
                    }
                    offset += 1
                }
                if !closed { error("Unterminated block comment.", at: start) }
            } else {
                return
            }
        }
    }

    /// True when the next non-trivia byte is `c` (nothing consumed).
    mutating func nextByteIs(_ c: UInt8) -> Bool {
        skipTrivia()
        return peek() == c
    }

    private static let twoCharSymbols: Set<String> = ["==", "!=", "<=", ">=", "&&", "||"]
    private static let oneCharSymbols: Set<UInt8> = Set("{}()[],;:.?!=<>+-*/%".utf8)

    /// token := IDENT | INT | FLOAT | STRING | BYTES | SYMBOL
    ///
    /// A character the emulator's lexer skips (`emulatorDrops`) is reported and skipped
    /// here too, so the parser goes on as the emulator's does (corpus compile.g107).
    mutating func next() -> Token {
        while true {
            if let token = scanToken() { return token }
        }
    }

    /// The next token, or nil after reporting and skipping a run of characters the emulator drops.
    private mutating func scanToken() -> Token? {
        skipTrivia()
        let start = offset
        guard let c = peek() else { return Token(kind: .eof, start: start, end: start) }
        if Self.isIdentStart(c) {
            // String prefixes: r, b, rb, br (any case) directly before a quote.
            var j = 0
            var raw = false
            var isBytes = false
            while j < 2, let p = peek(j), p == 114 || p == 82 || p == 98 || p == 66 {
                if p == 114 || p == 82 { if raw { break } else { raw = true } } else { if isBytes { break } else { isBytes = true } }
                j += 1
            }
            if j > 0, let q = peek(j), q == 39 || q == 34 {
                offset += j
                return scanString(start: start, raw: raw, isBytes: isBytes)
            }
            while let d = peek(), Self.isIdentPart(d) { offset += 1 }
            return Token(kind: .identifier(source.slice(start, offset)), start: start, end: offset)
        }
        if Self.isDigit(c) || (c == 46 && peek(1).map(Self.isDigit) == true) { return scanNumber(start: start) }
        if c == 39 || c == 34 { return scanString(start: start, raw: false, isBytes: false) }
        if let d = peek(1) {
            let two = String(decoding: [c, d], as: UTF8.self)
            if Self.twoCharSymbols.contains(two) {
                offset += 2
                return Token(kind: .symbol(two), start: start, end: offset)
            }
        }
        if Self.oneCharSymbols.contains(c) {
            offset += 1
            return Token(kind: .symbol(String(UnicodeScalar(c))), start: start, end: offset)
        }
        if c == 38 || c == 124 {
            offset += 1
            error(
                "Unexpected '\(String(UnicodeScalar(c)))'; did you mean '\(String(UnicodeScalar(c)))\(String(UnicodeScalar(c)))'?",
                at: start)
            return Token(kind: .invalid, start: start, end: offset)
        }
        // Skip one whole UTF-8 scalar, and any run of the same scalar after it: one
        // diagnostic per run, not per byte.
        offset += 1
        while let d = peek(), d & 0xC0 == 0x80 { offset += 1 }
        let width = offset - start
        var repeats = 1
        while offset + width <= bytes.count, bytes[offset..<offset + width].elementsEqual(bytes[start..<start + width]) {
            offset += width
            repeats += 1
        }
        let times = repeats > 1 ? " (\(repeats) times)" : ""
        error("Unexpected character '\(source.slice(start, start + width))'\(times).", at: start)
        return Self.emulatorDrops(c) ? nil : Token(kind: .invalid, start: start, end: offset)
    }

    /// number := INT [ '.' { DIGIT } ] | '.' DIGIT { DIGIT } ;  INT := '0' | NONZERO { DIGIT }
    ///
    /// The emulator's number tokens: no exponent, no hex, no leading zeros, `1.` and `.5` are
    /// floats. A number directly followed by a letter or another number is a syntax error
    /// naming what follows, as the emulator words it: `1e3` → `Unexpected 'e3'.`, `0x10` →
    /// `Unexpected 'x10'.`, `007` → `Unexpected '0'.` (corpus compile.c22, c23).
    private mutating func scanNumber(start: Int) -> Token {
        offset = numberEnd(from: start)
        let text = source.slice(start, offset)
        if let d = peek(), Self.isIdentStart(d) || startsNumber(at: offset) {
            let junkStart = offset
            if Self.isIdentStart(d) {
                while let d = peek(), Self.isIdentPart(d) { offset += 1 }
            } else {
                offset = numberEnd(from: offset)
            }
            error("Unexpected '\(source.slice(junkStart, offset))'.", at: junkStart)
            return Token(kind: .invalid, start: start, end: offset)
        }
        if text.contains(".") {
            let digits = (text.hasPrefix(".") ? "0" : "") + text + (text.hasSuffix(".") ? "0" : "")
            return Token(kind: .float(Double(digits) ?? .nan), start: start, end: offset)
        }
        guard let v = UInt64(text) else {
            error("Integer literal out of range.", at: start)
            return Token(kind: .invalid, start: start, end: offset)
        }
        return Token(kind: .int(v), start: start, end: offset)
    }

    /// True when a number token starts at byte `i`: a digit, or `.` and a digit.
    private func startsNumber(at i: Int) -> Bool {
        guard i < bytes.count else { return false }
        if Self.isDigit(bytes[i]) { return true }
        return bytes[i] == 46 && i + 1 < bytes.count && Self.isDigit(bytes[i + 1])
    }

    /// The end of the number token starting at byte `i` (`startsNumber(at: i)` holds).
    private func numberEnd(from i: Int) -> Int {
        var j = i
        func digits() { while j < bytes.count, Self.isDigit(bytes[j]) { j += 1 } }
        if bytes[j] == 48 {
            j += 1
        } else if bytes[j] != 46 {
            digits()
        }
        if j < bytes.count, bytes[j] == 46 {
            j += 1
            digits()
        }
        return j
    }

    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case 48...57: return c - 48
        case 97...102: return c - 87
        case 65...70: return c - 55
        default: return nil
        }
    }

    /// string := QUOTE { CHAR | ESCAPE } QUOTE, QUOTE one of ' " ''' """ ; raw strings keep `\`.
    /// ESCAPE := \\ \' \" \` \? \a \b \f \n \r \t \v \xHH \uHHHH \UHHHHHHHH \ooo.
    /// Any other escape (`\.`, `\d`) is an error, as in production (docs/reference/security-rules.md §2.1).
    private mutating func scanString(start: Int, raw: Bool, isBytes: Bool) -> Token {
        guard let q = peek() else { return Token(kind: .invalid, start: start, end: offset) }
        let triple = peek(1) == q && peek(2) == q
        offset += triple ? 3 : 1
        var out: [UInt8] = []
        var ok = true
        while true {
            guard let c = peek() else {
                error("Unterminated string literal.", at: start)
                return Token(kind: .invalid, start: start, end: offset)
            }
            if c == q {
                if !triple {
                    offset += 1
                    break
                }
                if peek(1) == q && peek(2) == q {
                    offset += 3
                    break
                }
            }
            if c == 10 && !triple {
                error("Unterminated string literal (newline in string).", at: start)
                return Token(kind: .invalid, start: start, end: offset)
            }
            if c == 92 && !raw {
                let escStart = offset
                offset += 1
                guard let e = peek() else { continue }
                offset += 1
                switch e {
                case 92: out.append(92)
                case 39: out.append(39)
                case 34: out.append(34)
                case 96: out.append(96)
                case 63: out.append(63)
                case 97: out.append(7)
                case 98: out.append(8)
                case 102: out.append(12)
                case 110: out.append(10)
                case 114: out.append(13)
                case 116: out.append(9)
                case 118: out.append(11)
                case 120, 88:
                    guard let v = readHex(2) else {
                        error("Invalid \\x escape: two hex digits expected.", at: escStart)
                        ok = false
                        continue
                    }
                    if isBytes { out.append(UInt8(v)) } else { appendScalar(v, to: &out, at: escStart, ok: &ok) }
                case 117, 85:
                    let n = e == 117 ? 4 : 8
                    guard let v = readHex(n) else {
                        error("Invalid \\\(String(UnicodeScalar(e))) escape: \(n) hex digits expected.", at: escStart)
                        ok = false
                        continue
                    }
                    appendScalar(v, to: &out, at: escStart, ok: &ok)
                case 48...55:
                    var v = UInt32(e - 48)
                    var digits = 1
                    while digits < 3, let d = peek(), d >= 48 && d <= 55 {
                        v = v * 8 + UInt32(d - 48)
                        offset += 1
                        digits += 1
                    }
                    if digits != 3 || v > 255 {
                        error("Invalid octal escape: three octal digits (\\000-\\377) expected.", at: escStart)
                        ok = false
                    } else if isBytes {
                        out.append(UInt8(v))
                    } else {
                        appendScalar(v, to: &out, at: escStart, ok: &ok)
                    }
                default:
                    error(
                        "Invalid escape sequence '\\\(String(UnicodeScalar(e)))' in string literal; write '\\\\\(String(UnicodeScalar(e)))' for a literal backslash.",
                        at: escStart)
                    ok = false
                }
                continue
            }
            out.append(c)
            offset += 1
        }
        guard ok else { return Token(kind: .invalid, start: start, end: offset) }
        if isBytes { return Token(kind: .bytes(out), start: start, end: offset) }
        return Token(kind: .string(String(decoding: out, as: UTF8.self)), start: start, end: offset)
    }

    private mutating func readHex(_ n: Int) -> UInt32? {
        var v: UInt32 = 0
        for k in 0..<n {
            guard let d = peek(k), let h = Self.hexValue(d) else { return nil }
            v = v * 16 + UInt32(h)
        }
        offset += n
        return v
    }

    private mutating func appendScalar(_ v: UInt32, to out: inout [UInt8], at: Int, ok: inout Bool) {
        guard let s = Unicode.Scalar(v) else {
            error("Escape produces an invalid code point.", at: at)
            ok = false
            return
        }
        out.append(contentsOf: Array(String(Character(s)).utf8))
    }

    // MARK: Raw path scanning

    /// True for bytes allowed in a literal path segment, in match paths and in path literals
    /// alike: letters, digits, `_` and `' : * @ + & ~ . -`. The emulator's lexer ends a segment
    /// at any other byte (`$`, `%`, `(`, `#`, `é`, …), so `/a/b%2` divides and
    /// `match /a/b%c` does not compile (probed on the emulator; corpus compile.g81, g85).
    static func isPathChar(_ c: UInt8) -> Bool {
        if isIdentPart(c) { return true }
        switch c {
        case 39, 58, 42, 64, 43, 38, 126, 46, 45: return true
        default: return false
        }
    }

    /// pathLiteralSegment := PATHCHAR { PATHCHAR } | '(' PATHCHAR { PATHCHAR } ')'
    ///
    /// Reads a literal segment at the cursor (possibly empty, when none starts there); the
    /// parenthesised form is `(default)`.
    mutating func scanLiteralSegment() -> String {
        let start = offset
        if peek() == 40 {
            var j = 1
            while let d = peek(j), Self.isPathChar(d) { j += 1 }
            if peek(j) == 41 {
                offset += j + 1
                return source.slice(start, offset)
            }
            return ""
        }
        while let d = peek(), Self.isPathChar(d) { offset += 1 }
        return source.slice(start, offset)
    }

    /// Advances the cursor past spaces, tabs and line breaks (not comments).
    mutating func skipRawSpaces() {
        while let d = peek(), Self.isSpace(d) { offset += 1 }
    }

    /// Peeks the raw byte at the cursor (no trivia skipped).
    func rawByte(_ k: Int = 0) -> UInt8? { peek(k) }

    /// The byte at absolute offset `i`, or nil past the end.
    func rawByte(at i: Int) -> UInt8? { i >= 0 && i < bytes.count ? bytes[i] : nil }

    /// Advances the cursor by `n` raw bytes.
    mutating func advanceRaw(_ n: Int) { offset = min(bytes.count, offset + n) }

    /// Reads an identifier at the cursor, if one starts there.
    mutating func scanRawIdentifier() -> String? {
        guard let c = peek(), Self.isIdentStart(c) else { return nil }
        let start = offset
        while let d = peek(), Self.isIdentPart(d) { offset += 1 }
        return source.slice(start, offset)
    }
}
