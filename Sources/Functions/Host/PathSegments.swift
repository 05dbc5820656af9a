import GoogleWire

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
    static func decode(_ s: Substring) -> String? { PercentEncoding.decode(String(s)) }
}
