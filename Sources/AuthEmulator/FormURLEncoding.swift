/// `application/x-www-form-urlencoded` decoding (WHATWG URL §5.1): `&`-separated `name=value`
/// pairs, `+` is a space, `%XX` escapes are UTF-8 bytes (invalid escapes stay literal). Used for
/// securetoken bodies, signInWithIdp's `postBody` and `requestUri` queries.
/// Source: docs/reference/firestore-wire.md §4.1, §4.2.
public enum FormURLEncoding {
    /// The pairs of `text` in order; a pair without `=` has an empty value; empty pairs are skipped.
    public static func decode(_ text: String) -> [(name: String, value: String)] {
        var out: [(name: String, value: String)] = []
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            if let eq = pair.firstIndex(of: "=") {
                out.append((unescape(pair[..<eq]), unescape(pair[pair.index(after: eq)...])))
            } else {
                out.append((unescape(pair[...]), ""))
            }
        }
        return out
    }

    /// Decodes `+` and `%XX` in one component.
    public static func unescape(_ s: Substring) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(s.utf8.count)
        var it = Array(s.utf8)[...]
        while let c = it.popFirst() {
            if c == UInt8(ascii: "+") {
                bytes.append(0x20)
            } else if c == UInt8(ascii: "%"), it.count >= 2, let h = hex(it[it.startIndex]),
                let l = hex(it[it.startIndex + 1])
            {
                bytes.append(h << 4 | l)
                it = it.dropFirst(2)
            } else {
                bytes.append(c)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
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
