import FirestoreModel

extension JSONValue {
    /// The deepest nesting of arrays and objects `parse` accepts by default.
    public static let defaultMaxDepth = 100

    /// Parses one JSON text (RFC 8259), keeping number text exact.
    ///
    /// Strict: no comments, no trailing commas, no leading `+` or zeros, no unescaped
    /// control characters, UTF-8 only (a leading BOM is skipped), surrogate escapes must pair.
    /// Recursion is bounded by `maxDepth`, so hostile nesting cannot exhaust the stack.
    /// - Parameters:
    ///   - bytes: the whole body; any UTF-8 JSON value may be at the top.
    ///   - maxDepth: maximum nesting of arrays/objects (the top-level container is depth 1).
    /// - Complexity: O(bytes.count).
    /// - Throws: `.invalidArgument` naming the byte offset and what was wrong.
    public static func parse(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth) throws(FirestoreError) -> JSONValue {
        var parser = JSONParser(bytes: bytes, maxDepth: maxDepth)
        return try parser.parseDocument()
    }

    /// Parses JSON text held in a `String`. See `parse(_:maxDepth:)`.
    /// - Throws: `.invalidArgument` for malformed JSON.
    public static func parse(_ text: String, maxDepth: Int = defaultMaxDepth) throws(FirestoreError) -> JSONValue {
        try parse(Array(text.utf8), maxDepth: maxDepth)
    }
}

/// A recursive-descent RFC 8259 reader over a byte buffer (no I/O, no Foundation).
///
/// `valueStarts`, when not nil, collects the byte offset of every value in pre-order
/// (`JSONValue.parseLocated`); the REST path leaves it nil and pays one nil check per value.
struct JSONParser {
    let bytes: [UInt8]
    let maxDepth: Int
    var index = 0
    var valueStarts: [Int]?

    init(bytes: [UInt8], maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    func fail(_ what: String) -> FirestoreError {
        .invalidArgument("Invalid JSON payload at byte \(index): \(what).")
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// JSON-text = ws value ws
    mutating func parseDocument() throws(FirestoreError) -> JSONValue {
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { index = 3 }
        skipWhitespace()
        let value = try parseValue(depth: 0)
        skipWhitespace()
        guard index == bytes.count else { throw fail("unexpected data after the JSON value") }
        return value
    }

    /// value = false / null / true / object / array / number / string
    mutating func parseValue(depth: Int) throws(FirestoreError) -> JSONValue {
        guard index < bytes.count else { throw fail("unexpected end of input") }
        valueStarts?.append(index)
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw fail("unexpected character '\(Unicode.Scalar(bytes[index]))'")
        }
    }

    mutating func literal(_ word: StaticString) throws(FirestoreError) {
        let n = word.utf8CodeUnitCount
        guard index + n <= bytes.count else { throw fail("invalid literal") }
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: n)
        for k in 0..<n where bytes[index + k] != expected[k] { throw fail("invalid literal") }
        index += n
    }

    /// object = begin-object [ member *( value-separator member ) ] end-object
    mutating func parseObject(depth: Int) throws(FirestoreError) -> JSONValue {
        guard depth <= maxDepth else { throw fail("nesting deeper than \(maxDepth) levels") }
        index += 1
        var members: [JSONValue.Member] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a member name") }
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("expected ':'") }
            index += 1
            skipWhitespace()
            let value = try parseValue(depth: depth)
            members.append(JSONValue.Member(key, value))
            skipWhitespace()
            guard index < bytes.count else { throw fail("unterminated object") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            } else {
                throw fail("expected ',' or '}'")
            }
        }
    }

    /// array = begin-array [ value *( value-separator value ) ] end-array
    mutating func parseArray(depth: Int) throws(FirestoreError) -> JSONValue {
        guard depth <= maxDepth else { throw fail("nesting deeper than \(maxDepth) levels") }
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            guard index < bytes.count else { throw fail("unterminated array") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            } else {
                throw fail("expected ',' or ']'")
            }
        }
    }

    /// number = [ minus ] int [ frac ] [ exp ]
    mutating func parseNumber() throws(FirestoreError) -> String {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw fail("invalid number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw fail("invalid number: digit expected after '.'") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw fail("invalid number: exponent digits expected") }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// string = quotation-mark *char quotation-mark
    mutating func parseString() throws(FirestoreError) -> String {
        index += 1
        var out: [UInt8] = []
        while true {
            guard index < bytes.count else { throw fail("unterminated string") }
            let c = bytes[index]
            if c == UInt8(ascii: "\"") {
                index += 1
                break
            }
            if c < 0x20 { throw fail("unescaped control character in string") }
            if c != UInt8(ascii: "\\") {
                out.append(c)
                index += 1
                continue
            }
            index += 1
            guard index < bytes.count else { throw fail("unterminated escape") }
            let e = bytes[index]
            index += 1
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if scalar >= 0xD800 && scalar < 0xDC00 {
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                    else { throw fail("unpaired surrogate escape") }
                    index += 2
                    let low = try hex4()
                    guard low >= 0xDC00 && low < 0xE000 else { throw fail("unpaired surrogate escape") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if scalar >= 0xDC00 && scalar < 0xE000 {
                    throw fail("unpaired surrogate escape")
                }
                guard let u = Unicode.Scalar(scalar) else { throw fail("invalid \\u escape") }
                UTF8.encode(u) { out.append($0) }
            default: throw fail("invalid escape '\\\(Unicode.Scalar(e))'")
            }
        }
        guard let s = String(validating: out, as: UTF8.self) else { throw fail("string is not valid UTF-8") }
        return s
    }

    mutating func hex4() throws(FirestoreError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw fail("truncated \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[index]
            let d: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw fail("invalid hex digit in \\u escape")
            }
            v = v << 4 | d
            index += 1
        }
        return v
    }

    func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }
}
