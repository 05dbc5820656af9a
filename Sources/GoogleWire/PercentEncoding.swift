/// Percent-decoding of URL path segments as Google's HTTP endpoints read them (RFC 3986 §2.1).
///
/// `%XX` escapes (either hex case) become bytes, which must then form valid UTF-8; every
/// other character passes through unchanged (`+` stays `+`: path segments are not form data).
public enum PercentEncoding {
    /// Decodes `%XX` escapes (UTF-8): `"a%20b"` → `"a b"`, `"caf%C3%A9"` → `"café"`.
    /// - Returns: nil for a malformed escape (`%` not followed by two hex digits) or bytes
    ///   that are not valid UTF-8.
    public static func decode(_ s: String) -> String? {
        guard s.utf8.contains(UInt8(ascii: "%")) else { return s }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(s.utf8.count)
        var it = s.utf8.makeIterator()
        func hex(_ c: UInt8) -> UInt8? {
            switch c {
            case 48...57: return c - 48
            case 65...70: return c - 55
            case 97...102: return c - 87
            default: return nil
            }
        }
        while let c = it.next() {
            if c == 37 {
                guard let a = it.next().flatMap(hex), let b = it.next().flatMap(hex) else { return nil }
                bytes.append(a << 4 | b)
            } else {
                bytes.append(c)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
