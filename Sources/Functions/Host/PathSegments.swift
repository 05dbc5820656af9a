/// Splits a request path into percent-decoded segments (`"/p/us-central1/fn"` →
/// `["p", "us-central1", "fn"]`). A malformed escape or invalid UTF-8 makes the whole path
/// unroutable (nil), which handlers answer with 404.
enum PathSegments {
    /// The decoded segments of `path` (no leading or trailing empty segment), or nil.
    static func split(_ path: String) -> [String]? {
        var parts = path.split(separator: "/", omittingEmptySubsequences: false)
        if parts.first == "" { parts.removeFirst() }
        if parts.last == "" && parts.count > 1 { parts.removeLast() }
        var out: [String] = []
        for p in parts {
            guard let s = decode(Substring(p)) else { return nil }
            out.append(s)
        }
        return out
    }

    /// Percent-decodes one segment as UTF-8; nil for a bad escape or invalid UTF-8.
    static func decode(_ s: Substring) -> String? {
        guard s.contains("%") else { return String(s) }
        var bytes: [UInt8] = []
        var it = Array(s.utf8)[...]
        while let b = it.popFirst() {
            if b == UInt8(ascii: "%") {
                guard let h = it.popFirst(), let l = it.popFirst(), let hv = hex(h), let lv = hex(l) else { return nil }
                bytes.append(hv << 4 | lv)
            } else {
                bytes.append(b)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hex(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
