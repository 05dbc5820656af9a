/// Byte-level helpers for the HTTP/1.1 grammar (RFC 9110 §5.6, RFC 9112 §2).
///
/// Everything here works on raw octets; nothing allocates except `string(_:)`.
enum ASCII {
    /// Carriage return, `\r`.
    static let cr: UInt8 = 0x0D
    /// Line feed, `\n`.
    static let lf: UInt8 = 0x0A
    /// `SP`.
    static let space: UInt8 = 0x20
    /// `HTAB`.
    static let tab: UInt8 = 0x09
    /// `:` between field name and value.
    static let colon: UInt8 = 0x3A
    /// `;` before chunk extensions.
    static let semicolon: UInt8 = 0x3B

    /// `tchar` from RFC 9110 §5.6.2: the characters allowed in a token (method, header name).
    static func isTokenChar(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "A")...UInt8(ascii: "Z"):
            return true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// `field-vchar` / `obs-text` / whitespace allowed inside a field value (RFC 9110 §5.5).
    static func isFieldValueChar(_ byte: UInt8) -> Bool {
        byte == tab || (byte >= 0x20 && byte != 0x7F)
    }

    /// Visible ASCII as allowed in a request-target (RFC 9112 §3.2); no whitespace or controls.
    static func isTargetChar(_ byte: UInt8) -> Bool {
        // Visible ASCII only: the request-target is ASCII (RFC 3986 §2; RFC 9112 §3.2), so raw
        // non-ASCII bytes are refused rather than decoded lossily into one aliased path.
        byte > 0x20 && byte < 0x7F
    }

    /// The value of one hexadecimal digit, or `nil` when `byte` is not `HEXDIG`.
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// Lowercases one ASCII letter; other bytes pass through.
    static func lower(_ byte: UInt8) -> UInt8 {
        (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) ? byte | 0x20 : byte
    }

    /// Case-insensitive ASCII comparison of two strings (header names, tokens).
    static func equalsIgnoringCase(_ lhs: String, _ rhs: String) -> Bool {
        let a = lhs.utf8
        let b = rhs.utf8
        guard a.count == b.count else { return false }
        return zip(a, b).allSatisfy { lower($0) == lower($1) }
    }

    /// Decodes bytes as UTF-8, replacing invalid sequences with U+FFFD.
    static func string<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        String(decoding: bytes, as: UTF8.self)
    }

    /// Strips leading and trailing optional whitespace (`OWS`, RFC 9110 §5.6.3) from a byte slice.
    static func trimmingOWS(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var slice = bytes
        while let first = slice.first, first == space || first == tab { slice.removeFirst() }
        while let last = slice.last, last == space || last == tab { slice.removeLast() }
        return slice
    }

    /// Splits a comma-separated list field value into trimmed, lowercased, non-empty members
    /// (RFC 9110 §5.6.1), e.g. `"Keep-Alive, Upgrade"` → `["keep-alive", "upgrade"]`.
    static func lowercasedListMembers(_ value: String) -> [String] {
        value.split(separator: ",").compactMap { member in
            let trimmed = member.trimmingCharacters(in: " \t")
            return trimmed.isEmpty ? nil : trimmed.lowercased()
        }
    }
}

extension Substring {
    /// Trims the given ASCII characters from both ends; a Foundation-free `trimmingCharacters`.
    func trimmingCharacters(in set: String) -> String {
        var slice = self[...]
        while let first = slice.first, set.contains(first) { slice.removeFirst() }
        while let last = slice.last, set.contains(last) { slice.removeLast() }
        return String(slice)
    }
}
