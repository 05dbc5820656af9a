/// JavaScript string semantics the TypeScript original relies on, so the Swift port accepts
/// and rejects exactly the same texts.
enum JSText {
    /// `String.prototype.trim()`: removes leading and trailing ECMAScript *WhiteSpace* (TAB,
    /// VT, FF, SP, NBSP, ZWNBSP U+FEFF, every `Zs`) and *LineTerminator* (LF, CR, U+2028,
    /// U+2029). Unlike Foundation's `.whitespacesAndNewlines`, U+FEFF is trimmed and U+0085
    /// (NEL) is kept. Source: ECMA-262 §22.1.3.32, §12.2, §12.3.
    static func trim(_ s: String) -> String {
        let scalars = s.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isWhiteSpaceOrLineTerminator($0) }) else { return "" }
        guard let last = scalars.lastIndex(where: { !isWhiteSpaceOrLineTerminator($0) }) else { return "" }
        return String(scalars[first...last])
    }

    /// ECMAScript *WhiteSpace* or *LineTerminator*.
    static func isWhiteSpaceOrLineTerminator(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F,
            0x3000, 0xFEFF:
            return true
        default:
            return false
        }
    }

    /// `String.prototype.length`: UTF-16 code units (an emoji outside the BMP counts 2).
    static func length(_ s: String) -> Int { s.utf16.count }
}
