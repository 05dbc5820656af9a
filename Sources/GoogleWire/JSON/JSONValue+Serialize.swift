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
        out.reserveCapacity(64)
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

    private static func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var bytes = s.utf8.makeIterator()
        while let c = bytes.next() {
            switch c {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), c])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), c])
            case 0x08: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0C: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x00..<0x20:
                out.append(contentsOf: "\\u00".utf8)
                out.append(hexDigits[Int(c >> 4)])
                out.append(hexDigits[Int(c & 0xF)])
            case 0xE2:
                // U+2028 / U+2029 are E2 80 A8 / E2 80 A9 in UTF-8.
                guard let b1 = bytes.next() else {
                    out.append(c)
                    break
                }
                guard let b2 = bytes.next() else {
                    out.append(contentsOf: [c, b1])
                    break
                }
                if b1 == 0x80 && (b2 == 0xA8 || b2 == 0xA9) {
                    out.append(contentsOf: (b2 == 0xA8 ? "\\u2028" : "\\u2029").utf8)
                } else {
                    out.append(contentsOf: [c, b1, b2])
                }
            default: out.append(c)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
