/// The parsed form of an RE2 pattern (RE2 syntax subset used by rules: docs/reference/security-rules.md §4.3).
indirect enum RegexNode: Sendable {
    /// Matches the empty string.
    case empty
    /// One scalar from a set of ranges (a literal is a one-element set).
    case scalars(ScalarSet)
    /// Any scalar; `newline` says whether `\n` is included (`(?s)`).
    case any(newline: Bool)
    /// Sequence.
    case concat([RegexNode])
    /// Alternatives, first preferred.
    case alternate([RegexNode])
    /// `x{min,max}`; max nil = unbounded.
    case repetition(RegexNode, min: Int, max: Int?, greedy: Bool)
    /// A group; `index` is the capture number (nil for `(?:…)`).
    case group(RegexNode, index: Int?)
    /// Zero-width test.
    case assertion(RegexAssertion)
}

/// Zero-width assertions.
enum RegexAssertion: Sendable {
    /// `^ $` (multi-line or not), `\A \z`, `\b \B`.
    case lineStart, lineEnd, textStart, textEnd, wordBoundary, notWordBoundary
}

/// A set of Unicode scalars as sorted ranges, possibly negated.
struct ScalarSet: Sendable {
    /// Sorted, non-overlapping ranges.
    var ranges: [ClosedRange<UInt32>]
    /// True for a complemented set.
    var negated: Bool

    /// True when `c` is in the set (binary search).
    func contains(_ c: UInt32) -> Bool {
        var lo = 0
        var hi = ranges.count - 1
        var found = false
        while lo <= hi {
            let mid = (lo + hi) / 2
            if c < ranges[mid].lowerBound {
                hi = mid - 1
            } else if c > ranges[mid].upperBound {
                lo = mid + 1
            } else {
                found = true
                break
            }
        }
        return found != negated
    }

    /// Sorts and merges overlapping ranges.
    static func normalized(_ rs: [ClosedRange<UInt32>], negated: Bool) -> ScalarSet {
        let sorted = rs.sorted { $0.lowerBound < $1.lowerBound }
        var out: [ClosedRange<UInt32>] = []
        for r in sorted {
            if let last = out.last, r.lowerBound <= last.upperBound &+ 1 {
                out[out.count - 1] = last.lowerBound...max(last.upperBound, r.upperBound)
            } else {
                out.append(r)
            }
        }
        return ScalarSet(ranges: out, negated: negated)
    }
}

/// An invalid pattern; the message names the problem like RE2 does (`missing closing )`).
struct RegexSyntaxError: Error, Sendable {
    /// What is wrong.
    var message: String
}

/// Recursive-descent parser for RE2 syntax over Unicode scalars.
///
/// Supported: `| * + ? {n} {n,} {n,m}` (lazy with `?`), `( )`, `(?: )`, `(?P<n> )`, `(?<n> )`,
/// flags `(?imsU)` and `(?i: )`, `.`, `[…]` with ranges, negation, `[:alpha:]`-style classes and
/// `\d \w \s` (and negations), anchors `^ $ \A \z \b \B`, escapes `\n \t \r \f \v \a \x.. \x{..}`
/// and escaped punctuation. Repetition counts are capped at 1000 like RE2.
struct RegexParser {
    /// The `(?imsU)` flags in effect.
    struct Flags {
        /// `i`.
        var caseInsensitive = false
        /// `s`.
        var dotNewline = false
        /// `m`.
        var multiline = false
        /// `U`.
        var ungreedy = false
    }

    private let s: [UInt32]
    private var i = 0
    private var flags = Flags()
    private(set) var groupCount = 0
    private var depth = 0

    /// Prepares to parse `pattern`.
    init(_ pattern: String) { s = pattern.unicodeScalars.map(\.value) }

    private func peek(_ k: Int = 0) -> UInt32? { i + k < s.count ? s[i + k] : nil }

    /// regex := alternation EOF
    mutating func parse() throws(RegexSyntaxError) -> RegexNode {
        let n = try parseAlternation()
        if i < s.count { throw RegexSyntaxError(message: "unexpected ) at offset \(i)") }
        return n
    }

    /// alternation := concat { '|' concat }
    private mutating func parseAlternation() throws(RegexSyntaxError) -> RegexNode {
        depth += 1
        defer { depth -= 1 }
        if depth > 200 { throw RegexSyntaxError(message: "expression nests too deeply") }
        var alts = [try parseConcat()]
        while peek() == 0x7C {
            i += 1
            alts.append(try parseConcat())
        }
        return alts.count == 1 ? alts[0] : .alternate(alts)
    }

    /// concat := { repeat }
    private mutating func parseConcat() throws(RegexSyntaxError) -> RegexNode {
        var items: [RegexNode] = []
        while let c = peek(), c != 0x7C, c != 0x29 {
            if let atom = try parseAtom() { items.append(try parseRepeats(atom)) }
        }
        return items.count == 1 ? items[0] : (items.isEmpty ? .empty : .concat(items))
    }

    /// repeat := atom { ( '*' | '+' | '?' | '{' n [ ',' [ m ] ] '}' ) [ '?' ] }
    private mutating func parseRepeats(_ atom: RegexNode) throws(RegexSyntaxError) -> RegexNode {
        var node = atom
        var repeated = false
        while let c = peek() {
            var lo = 0
            var hi: Int?
            switch c {
            case 0x2A:
                lo = 0
                hi = nil
                i += 1
            case 0x2B:
                lo = 1
                hi = nil
                i += 1
            case 0x3F:
                lo = 0
                hi = 1
                i += 1
            case 0x7B:
                guard let (a, b, len) = scanCount() else { return node }
                lo = a
                hi = b
                i += len
            default: return node
            }
            if repeated { throw RegexSyntaxError(message: "bad repetition operator") }
            if case .assertion = node { throw RegexSyntaxError(message: "missing argument to repetition operator") }
            if case .empty = node { throw RegexSyntaxError(message: "missing argument to repetition operator") }
            var greedy = true
            if peek() == 0x3F {
                greedy = false
                i += 1
            }
            if flags.ungreedy { greedy.toggle() }
            node = .repetition(node, min: lo, max: hi, greedy: greedy)
            repeated = true
        }
        return node
    }

    /// `{n}`, `{n,}`, `{n,m}` at the cursor: (min, max, length) or nil when it is a literal `{`.
    private func scanCount() -> (Int, Int?, Int)? {
        var j = i + 1
        func number() -> Int? {
            var v = 0
            var any = false
            while j < s.count, s[j] >= 0x30, s[j] <= 0x39 {
                v = min(v * 10 + Int(s[j] - 0x30), 100_000)
                j += 1
                any = true
            }
            return any ? v : nil
        }
        guard let a = number() else { return nil }
        var b: Int? = a
        if j < s.count, s[j] == 0x2C {
            j += 1
            b = number()
        }
        guard j < s.count, s[j] == 0x7D else { return nil }
        return (a, b, j - i + 1)
    }

    /// atom := '(' … ')' | '[' class ']' | '.' | '^' | '$' | '\' escape | literal
    private mutating func parseAtom() throws(RegexSyntaxError) -> RegexNode? {
        guard let c = peek() else { return nil }
        switch c {
        case 0x28: return try parseGroup()
        case 0x5B:
            i += 1
            return .scalars(try parseClass())
        case 0x2E:
            i += 1
            return .any(newline: flags.dotNewline)
        case 0x5E:
            i += 1
            return .assertion(flags.multiline ? .lineStart : .textStart)
        case 0x24:
            i += 1
            return .assertion(flags.multiline ? .lineEnd : .textEnd)
        case 0x5C:
            i += 1
            return try parseEscape(inClass: false)
        case 0x2A, 0x2B, 0x3F:
            throw RegexSyntaxError(message: "missing argument to repetition operator: \(String(UnicodeScalar(UInt8(c))))")
        default:
            i += 1
            return literal(c)
        }
    }

    private func literal(_ c: UInt32) -> RegexNode {
        .scalars(flags.caseInsensitive ? Self.folded([c...c], negated: false) : ScalarSet(ranges: [c...c], negated: false))
    }

    /// Adds the other-case counterparts of every scalar in small ranges.
    static func folded(_ rs: [ClosedRange<UInt32>], negated: Bool) -> ScalarSet {
        var out = rs
        for r in rs where r.count <= 2048 {
            for v in r {
                guard let u = Unicode.Scalar(v) else { continue }
                for m in [u.properties.lowercaseMapping, u.properties.uppercaseMapping] {
                    let scalars = Array(m.unicodeScalars)
                    if scalars.count == 1, scalars[0].value != v { out.append(scalars[0].value...scalars[0].value) }
                }
            }
        }
        return ScalarSet.normalized(out, negated: negated)
    }

    /// group := '(' [ '?:' | '?P<' name '>' | '?<' name '>' | '?' flags [ ':' ] ] alternation ')'
    private mutating func parseGroup() throws(RegexSyntaxError) -> RegexNode? {
        i += 1
        var capture = true
        let saved = flags
        if peek() == 0x3F {
            i += 1
            if peek() == 0x50 && peek(1) == 0x3C || peek() == 0x3C && peek(1) != 0x3D && peek(1) != 0x21 {
                i += peek() == 0x50 ? 2 : 1
                while let c = peek(), c != 0x3E { i += 1 }
                guard peek() == 0x3E else { throw RegexSyntaxError(message: "invalid named capture") }
                i += 1
            } else {
                var on = true
                var sawColon = false
                loop: while let c = peek() {
                    i += 1
                    switch c {
                    case 0x69: flags.caseInsensitive = on
                    case 0x73: flags.dotNewline = on
                    case 0x6D: flags.multiline = on
                    case 0x55: flags.ungreedy = on
                    case 0x2D: on = false
                    case 0x3A:
                        sawColon = true
                        break loop
                    case 0x29:
                        // `(?flags)`: applies to the rest of the enclosing group.
                        return nil
                    default: throw RegexSyntaxError(message: "invalid or unsupported Perl syntax")
                    }
                }
                guard sawColon else { throw RegexSyntaxError(message: "missing closing )") }
                capture = false
            }
        }
        var index: Int?
        if capture {
            groupCount += 1
            index = groupCount
        }
        let inner = try parseAlternation()
        guard peek() == 0x29 else { throw RegexSyntaxError(message: "missing closing )") }
        i += 1
        flags = saved
        return .group(inner, index: index)
    }

    /// `\d`.
    static let digit: [ClosedRange<UInt32>] = [0x30...0x39]
    /// `\w`.
    static let word: [ClosedRange<UInt32>] = [0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A]
    /// `\s`.
    static let space: [ClosedRange<UInt32>] = [0x09...0x0A, 0x0C...0x0D, 0x20...0x20]

    /// escape := 'd' | 'D' | 'w' | 'W' | 's' | 'S' | 'b' | 'B' | 'A' | 'z' | 'n' | 't' | … | 'x' hex | punct
    private mutating func parseEscape(inClass: Bool) throws(RegexSyntaxError) -> RegexNode {
        guard let c = peek() else { throw RegexSyntaxError(message: "trailing backslash at end of expression") }
        i += 1
        switch c {
        case 0x64: return .scalars(ScalarSet(ranges: Self.digit, negated: false))
        case 0x44: return .scalars(ScalarSet(ranges: Self.digit, negated: true))
        case 0x77: return .scalars(ScalarSet(ranges: Self.word, negated: false))
        case 0x57: return .scalars(ScalarSet(ranges: Self.word, negated: true))
        case 0x73: return .scalars(ScalarSet(ranges: Self.space, negated: false))
        case 0x53: return .scalars(ScalarSet(ranges: Self.space, negated: true))
        case 0x62 where !inClass: return .assertion(.wordBoundary)
        case 0x42 where !inClass: return .assertion(.notWordBoundary)
        case 0x41 where !inClass: return .assertion(.textStart)
        case 0x7A where !inClass: return .assertion(.textEnd)
        case 0x6E: return literal(0x0A)
        case 0x74: return literal(0x09)
        case 0x72: return literal(0x0D)
        case 0x66: return literal(0x0C)
        case 0x76: return literal(0x0B)
        case 0x61: return literal(0x07)
        case 0x30: return literal(0)
        case 0x78:
            var v: UInt32 = 0
            if peek() == 0x7B {
                i += 1
                var n = 0
                while let d = peek(), let h = Self.hex(d) {
                    v = v &* 16 &+ h
                    i += 1
                    n += 1
                }
                guard peek() == 0x7D, n > 0, n <= 8, v <= 0x10FFFF else { throw RegexSyntaxError(message: "invalid escape sequence \\x") }
                i += 1
            } else {
                guard let a = peek().flatMap(Self.hex), let b = peek(1).flatMap(Self.hex) else {
                    throw RegexSyntaxError(message: "invalid escape sequence \\x")
                }
                v = a * 16 + b
                i += 2
            }
            return literal(v)
        case 0x70, 0x50:
            throw RegexSyntaxError(message: "Unicode classes \\p are not supported")
        default:
            let isWordChar = (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x5F
            if isWordChar || c > 0x7F {
                throw RegexSyntaxError(message: "invalid escape sequence: \\\(String(Unicode.Scalar(c).map(Character.init) ?? "?"))")
            }
            return literal(c)
        }
    }

    private static func hex(_ c: UInt32) -> UInt32? {
        switch c {
        case 0x30...0x39: return c - 0x30
        case 0x61...0x66: return c - 0x57
        case 0x41...0x46: return c - 0x37
        default: return nil
        }
    }

    /// `[[:name:]]` classes (ASCII).
    static let posixClasses: [String: [ClosedRange<UInt32>]] = [
        "alpha": [0x41...0x5A, 0x61...0x7A], "digit": digit, "alnum": [0x30...0x39, 0x41...0x5A, 0x61...0x7A],
        "upper": [0x41...0x5A], "lower": [0x61...0x7A], "space": [0x09...0x0D, 0x20...0x20], "word": word,
        "xdigit": [0x30...0x39, 0x41...0x46, 0x61...0x66], "punct": [0x21...0x2F, 0x3A...0x40, 0x5B...0x60, 0x7B...0x7E],
        "blank": [0x09...0x09, 0x20...0x20], "cntrl": [0x00...0x1F, 0x7F...0x7F], "print": [0x20...0x7E],
        "graph": [0x21...0x7E], "ascii": [0x00...0x7F],
    ]

    /// class := [ '^' ] item { item } ']' ;  item := '[:' name ':]' | '\' escape | c [ '-' c ]
    private mutating func parseClass() throws(RegexSyntaxError) -> ScalarSet {
        var negated = false
        if peek() == 0x5E {
            negated = true
            i += 1
        }
        var ranges: [ClosedRange<UInt32>] = []
        var first = true
        while true {
            guard let c = peek() else { throw RegexSyntaxError(message: "missing closing ]") }
            if c == 0x5D && !first {
                i += 1
                break
            }
            first = false
            if c == 0x5B, peek(1) == 0x3A {
                var j = i + 2
                var name = ""
                while j < s.count, s[j] != 0x3A {
                    name.unicodeScalars.append(Unicode.Scalar(s[j]) ?? " ")
                    j += 1
                }
                var neg = false
                if name.hasPrefix("^") {
                    neg = true
                    name.removeFirst()
                }
                guard j + 1 < s.count, s[j + 1] == 0x5D, let cls = Self.posixClasses[name] else {
                    throw RegexSyntaxError(message: "invalid character class range")
                }
                i = j + 2
                ranges += neg ? Self.complement(cls) : cls
                continue
            }
            var lo: UInt32
            if c == 0x5C {
                i += 1
                let e = try parseEscape(inClass: true)
                guard case .scalars(let set) = e else { throw RegexSyntaxError(message: "invalid escape in class") }
                if set.negated || set.ranges.count != 1 || set.ranges[0].count != 1 {
                    ranges += set.negated ? Self.complement(set.ranges) : set.ranges
                    continue
                }
                lo = set.ranges[0].lowerBound
            } else {
                lo = c
                i += 1
            }
            var hi = lo
            if peek() == 0x2D, let n = peek(1), n != 0x5D {
                i += 1
                if n == 0x5C {
                    i += 1
                    let e = try parseEscape(inClass: true)
                    guard case .scalars(let set) = e, !set.negated, set.ranges.count == 1, set.ranges[0].count == 1 else {
                        throw RegexSyntaxError(message: "invalid character class range")
                    }
                    hi = set.ranges[0].lowerBound
                } else {
                    hi = n
                    i += 1
                }
                guard hi >= lo else { throw RegexSyntaxError(message: "invalid character class range") }
            }
            ranges.append(lo...hi)
        }
        return flags.caseInsensitive ? Self.folded(ranges, negated: negated) : ScalarSet.normalized(ranges, negated: negated)
    }

    /// The complement of ranges within U+0000…U+10FFFF.
    static func complement(_ rs: [ClosedRange<UInt32>]) -> [ClosedRange<UInt32>] {
        let n = ScalarSet.normalized(rs, negated: false).ranges
        var out: [ClosedRange<UInt32>] = []
        var next: UInt32 = 0
        for r in n {
            if r.lowerBound > next { out.append(next...(r.lowerBound - 1)) }
            next = r.upperBound &+ 1
        }
        if next <= 0x10FFFF && next != 0 || n.isEmpty { out.append(next...0x10FFFF) }
        return out
    }
}
