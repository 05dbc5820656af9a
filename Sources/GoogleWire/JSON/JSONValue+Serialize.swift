extension JSONValue {
    /// The compact UTF-8 JSON text of this value (no insignificant whitespace).
    ///
    /// Members are written in their stored order, so output is deterministic when the
    /// builder is. Strings are escaped per RFC 8259 §7: `"` and `\` with a backslash,
    /// U+0008/0009/000A/000C/000D as `\b \t \n \f \r`, other controls below U+0020 as `\u00XX`,
    /// and U+2028/U+2029 as `\u2028`/`\u2029` (as the emulator does, for JavaScript safety);
    /// everything else is raw UTF-8. Number text is written as stored.
    /// - Complexity: O(size of the output).
    public func serialized() -> [UInt8] {
        var out: [UInt8] = []
        // A fragment knows its size; anything else starts at a page, past most answers' growth.
        if case .fragment(let text) = self { out.reserveCapacity(text.count) } else { out.reserveCapacity(4096) }
        write(into: &out)
        return out
    }

    /// `serialized()` as a `String`.
    public var serializedString: String { String(decoding: serialized(), as: UTF8.self) }

    /// Appends the compact JSON text of this value to `out`.
    public func write(into out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let text): out.append(contentsOf: text.utf8)
        case .string(let s): Self.writeString(s, into: &out)
        case .fragment(let text): out.append(contentsOf: text)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (i, e) in elements.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                e.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (i, m) in members.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                Self.writeString(m.key, into: &out)
                out.append(UInt8(ascii: ":"))
                m.value.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Appends `s` as a JSON string (quoted, escaped as `serialized()` documents).
    public static func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        writeStringContents(s, into: &out)
        out.append(UInt8(ascii: "\""))
    }

    /// Appends `s` escaped as `writeString` does, without the quotes: for a JSON string
    /// written in pieces (a resource name from its segments).
    public static func writeStringContents(_ s: String, into out: inout [UInt8]) {
        var s = s
        s.withUTF8 { writeEscaped($0, into: &out) }
    }

    /// Appends the well-formed UTF-8 `utf8` as a JSON string, quoted and escaped as
    /// `writeString` escapes a String: for text read straight from stored bytes.
    public static func writeString(utf8: UnsafeRawBufferPointer, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        writeEscaped(utf8.assumingMemoryBound(to: UInt8.self), into: &out)
        out.append(UInt8(ascii: "\""))
    }

    /// Writes `bytes` (UTF-8) as the inside of a JSON string: runs that need no escape are appended whole,
    /// which is nearly every byte of a Firestore answer.
    private static func writeEscaped(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        var run = 0
        var i = 0
        let n = bytes.count
        while i < n {
            let c = bytes[i]
            // Fast path: printable ASCII other than `"` and `\`, and UTF-8 bytes other than
            // the lead byte of U+2028/U+2029.
            if c >= 0x20 && c != UInt8(ascii: "\"") && c != UInt8(ascii: "\\") && c != 0xE2 {
                i += 1
                continue
            }
            if run < i { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<i])) }
            i += 1
            switch c {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), c])
            case 0x08: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0C: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x00..<0x20:
                out.append(contentsOf: "\\u00".utf8)
                out.append(hexDigits[Int(c >> 4)])
                out.append(hexDigits[Int(c & 0xF)])
            default:
                // 0xE2: U+2028 / U+2029 are E2 80 A8 / E2 80 A9 in UTF-8; other E2 sequences
                // (and a truncated one) are written as they are.
                if i + 1 < n, bytes[i] == 0x80, bytes[i + 1] == 0xA8 || bytes[i + 1] == 0xA9 {
                    out.append(contentsOf: (bytes[i + 1] == 0xA8 ? "\\u2028" : "\\u2029").utf8)
                    i += 2
                } else {
                    out.append(c)
                }
            }
            run = i
        }
        if run < n { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<n])) }
    }
}

extension Array where Element == UInt8 {
    /// Appends a literal's UTF-8 bytes with one copy (the JSON writers' punctuation and keys;
    /// `append(contentsOf: "…".utf8)` walks the string's view instead).
    @inlinable
    public mutating func append(literal: StaticString) {
        append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }
}
