/// Splits and decodes request-targets (RFC 9112 §3.2) and their query components
/// (RFC 3986 §3.4, with the `application/x-www-form-urlencoded` `+` convention).
enum RequestTarget {
    /// Splits a request-target into its path (still percent-encoded) and its raw query (without `?`).
    ///
    /// Handles origin-form (`/a?b`), absolute-form (`http://h:1/a?b` → path `/a`) and
    /// asterisk-form (`*`). A `#fragment`, which clients must not send, is dropped.
    static func split(_ target: String) -> (path: String, query: String?) {
        // Scanned as bytes (every delimiter is ASCII): this runs for every request.
        let utf8 = target.utf8
        let slash = UInt8(ascii: "/"), question = UInt8(ascii: "?")
        let end = utf8.firstIndex(of: UInt8(ascii: "#")) ?? utf8.endIndex
        var start = utf8.startIndex
        var prefix = ""
        if utf8.first != slash, let afterScheme = Self.indexAfterScheme(utf8, before: end) {
            start = utf8[afterScheme..<end].firstIndex { $0 == slash || $0 == question } ?? end
            if start == end || utf8[start] == question { prefix = "/" }
        }
        guard let mark = utf8[start..<end].firstIndex(of: question) else { return (prefix + target[start..<end], nil) }
        return (prefix + target[start..<mark], String(target[utf8.index(after: mark)..<end]))
    }

    /// The index just past the first `://` before `end`, if any.
    private static func indexAfterScheme(_ utf8: String.UTF8View, before end: String.Index) -> String.Index? {
        var i = utf8.startIndex
        while i < end {
            if utf8[i] == UInt8(ascii: ":") {
                let a = utf8.index(after: i)
                if a < end, utf8[a] == UInt8(ascii: "/") {
                    let b = utf8.index(after: a)
                    if b < end, utf8[b] == UInt8(ascii: "/") { return utf8.index(after: b) }
                }
            }
            i = utf8.index(after: i)
        }
        return nil
    }

    /// Decodes a raw query such as `a=1&b=x+y&a=%C3%A9&flag` into
    /// `[("a","1"), ("b","x y"), ("a","é"), ("flag","")]`; empty members are skipped.
    static func decodeQuery(_ query: String?) -> [(name: String, value: String)] {
        guard let query, !query.isEmpty else { return [] }
        return query.split(separator: "&", omittingEmptySubsequences: true).map { member in
            if let equals = member.firstIndex(of: "=") {
                return (
                    name: formDecode(member[..<equals]),
                    value: formDecode(member[member.index(after: equals)...])
                )
            }
            return (name: formDecode(member), value: "")
        }
    }

    /// Percent-decodes `text`, turning `+` into a space; a `%` not followed by two hex digits
    /// is kept literally. The decoded bytes are read as UTF-8 (invalid sequences become U+FFFD).
    static func formDecode(_ text: Substring) -> String {
        let bytes = Array(text.utf8)
        guard bytes.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else {
            return String(text)
        }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "+") {
                decoded.append(ASCII.space)
                index += 1
            } else if byte == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = ASCII.hexValue(bytes[index + 1]), let low = ASCII.hexValue(bytes[index + 2])
            {
                decoded.append(high << 4 | low)
                index += 3
            } else {
                decoded.append(byte)
                index += 1
            }
        }
        return ASCII.string(decoded)
    }
}
