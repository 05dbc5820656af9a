/// A small JSON reader for rules test suites that keeps what Foundation loses: whether a
/// number was written as an integer (`1`) or a float (`1.0`), and the order of object keys.
/// Source: RFC 8259.
indirect enum TestJSON: Sendable, Equatable {
    /// `null`.
    case null
    /// `true` / `false`.
    case bool(Bool)
    /// A number written without fraction or exponent.
    case int(Int64)
    /// Any other number.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([TestJSON])
    /// An object, members in source order.
    case object([(String, TestJSON)])

    static func == (a: TestJSON, b: TestJSON) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.int(let x), .int(let y)): return x == y
        case (.double(let x), .double(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.object(let x), .object(let y)): return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// The member `key` of an object.
    subscript(_ key: String) -> TestJSON? {
        if case .object(let members) = self { return members.first { $0.0 == key }?.1 }
        return nil
    }

    /// The string, if this is one.
    var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The elements, if this is an array.
    var array: [TestJSON]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// The members, if this is an object.
    var members: [(String, TestJSON)]? {
        if case .object(let m) = self { return m }
        return nil
    }

    /// The number as an Int64 when it is integral.
    var int: Int64? {
        switch self {
        case .int(let i): return i
        case .double(let d) where d == d.rounded() && abs(d) < 9e18: return Int64(d)
        default: return nil
        }
    }

    /// The number as a Double.
    var number: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }

    /// A JSON syntax error with its byte offset.
    struct ParseError: Error, CustomStringConvertible {
        /// What is wrong.
        var message: String
        /// Byte offset of the problem.
        var offset: Int
        /// `JSON error at byte N: message`.
        var description: String { "JSON error at byte \(offset): \(message)" }
    }

    /// Parses a whole document.
    /// - Throws: `ParseError`.
    static func parse(_ text: String) throws(ParseError) -> TestJSON {
        var r = Reader(bytes: Array(text.utf8))
        let v = try r.value(depth: 0)
        r.skipSpace()
        if r.i != r.bytes.count { throw ParseError(message: "trailing characters", offset: r.i) }
        return v
    }

    private struct Reader {
        let bytes: [UInt8]
        var i = 0

        mutating func skipSpace() {
            while i < bytes.count, [32, 9, 10, 13].contains(bytes[i]) { i += 1 }
        }

        func fail(_ m: String) -> ParseError { ParseError(message: m, offset: i) }

        mutating func literal(_ word: String, _ v: TestJSON) throws(ParseError) -> TestJSON {
            let w = Array(word.utf8)
            guard i + w.count <= bytes.count, Array(bytes[i..<i + w.count]) == w else { throw fail("expected \(word)") }
            i += w.count
            return v
        }

        mutating func value(depth: Int) throws(ParseError) -> TestJSON {
            guard depth < 200 else { throw fail("nesting too deep") }
            skipSpace()
            guard i < bytes.count else { throw fail("unexpected end") }
            switch bytes[i] {
            case 110: return try literal("null", .null)
            case 116: return try literal("true", .bool(true))
            case 102: return try literal("false", .bool(false))
            case 34: return .string(try string())
            case 91:
                i += 1
                var items: [TestJSON] = []
                skipSpace()
                if i < bytes.count, bytes[i] == 93 {
                    i += 1
                    return .array(items)
                }
                while true {
                    items.append(try value(depth: depth + 1))
                    skipSpace()
                    guard i < bytes.count else { throw fail("unterminated array") }
                    if bytes[i] == 44 {
                        i += 1
                        continue
                    }
                    if bytes[i] == 93 {
                        i += 1
                        return .array(items)
                    }
                    throw fail("expected , or ]")
                }
            case 123:
                i += 1
                var members: [(String, TestJSON)] = []
                skipSpace()
                if i < bytes.count, bytes[i] == 125 {
                    i += 1
                    return .object(members)
                }
                while true {
                    skipSpace()
                    guard i < bytes.count, bytes[i] == 34 else { throw fail("expected a key") }
                    let k = try string()
                    skipSpace()
                    guard i < bytes.count, bytes[i] == 58 else { throw fail("expected :") }
                    i += 1
                    members.append((k, try value(depth: depth + 1)))
                    skipSpace()
                    guard i < bytes.count else { throw fail("unterminated object") }
                    if bytes[i] == 44 {
                        i += 1
                        continue
                    }
                    if bytes[i] == 125 {
                        i += 1
                        return .object(members)
                    }
                    throw fail("expected , or }")
                }
            default: return try number()
            }
        }

        mutating func number() throws(ParseError) -> TestJSON {
            let start = i
            var isFloat = false
            if i < bytes.count, bytes[i] == 45 { i += 1 }
            while i < bytes.count {
                let c = bytes[i]
                if c >= 48 && c <= 57 {
                    i += 1
                } else if c == 46 || c == 101 || c == 69 || c == 43 || (c == 45 && i > start) {
                    isFloat = true
                    i += 1
                } else {
                    break
                }
            }
            let text = String(decoding: bytes[start..<i], as: UTF8.self)
            if !isFloat, let v = Int64(text) { return .int(v) }
            guard let d = Double(text) else { throw ParseError(message: "invalid number \(text)", offset: start) }
            return .double(d)
        }

        mutating func string() throws(ParseError) -> String {
            i += 1
            var out: [UInt8] = []
            while true {
                guard i < bytes.count else { throw fail("unterminated string") }
                let c = bytes[i]
                i += 1
                if c == 34 { break }
                if c != 92 {
                    out.append(c)
                    continue
                }
                guard i < bytes.count else { throw fail("bad escape") }
                let e = bytes[i]
                i += 1
                switch e {
                case 34: out.append(34)
                case 92: out.append(92)
                case 47: out.append(47)
                case 98: out.append(8)
                case 102: out.append(12)
                case 110: out.append(10)
                case 114: out.append(13)
                case 116: out.append(9)
                case 117:
                    var v = try hex4()
                    if v >= 0xD800 && v < 0xDC00, i + 1 < bytes.count, bytes[i] == 92, bytes[i + 1] == 117 {
                        i += 2
                        let lo = try hex4()
                        v = 0x10000 + ((v - 0xD800) << 10) + (lo - 0xDC00)
                    }
                    let scalar = Unicode.Scalar(v) ?? "\u{FFFD}"
                    out.append(contentsOf: Array(String(Character(scalar)).utf8))
                default: throw fail("bad escape")
                }
            }
            return String(decoding: out, as: UTF8.self)
        }

        mutating func hex4() throws(ParseError) -> UInt32 {
            guard i + 4 <= bytes.count else { throw fail("bad \\u escape") }
            var v: UInt32 = 0
            for _ in 0..<4 {
                let c = bytes[i]
                i += 1
                switch c {
                case 48...57: v = v * 16 + UInt32(c - 48)
                case 97...102: v = v * 16 + UInt32(c - 87)
                case 65...70: v = v * 16 + UInt32(c - 55)
                default: throw fail("bad \\u escape")
                }
            }
            return v
        }
    }
}
