/// Splits and decodes request-targets (RFC 9112 §3.2) and their query components
/// (RFC 3986 §3.4, with the `application/x-www-form-urlencoded` `+` convention).
enum RequestTarget {
    /// Splits a request-target into its path (still percent-encoded) and its raw query (without `?`).
    ///
    /// Handles origin-form (`/a?b`), absolute-form (`http://h:1/a?b` → path `/a`) and
    /// asterisk-form (`*`). A `#fragment`, which clients must not send, is dropped.
    static func split(_ target: String) -> (path: String, query: String?) {
        var rest = Substring(target)
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        if let schemeEnd = rest.firstRange(of: "://"), !rest.hasPrefix("/") {
            let afterScheme = rest[schemeEnd.upperBound...]
            let pathStart = afterScheme.firstIndex { $0 == "/" || $0 == "?" } ?? afterScheme.endIndex
            rest = afterScheme[pathStart...]
            if rest.isEmpty || rest.hasPrefix("?") { rest = "/" + rest }
        }
        guard let question = rest.firstIndex(of: "?") else { return (String(rest), nil) }
        return (String(rest[..<question]), String(rest[rest.index(after: question)...]))
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
