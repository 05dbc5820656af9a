/// Matches request paths against flattened match patterns (docs/reference/security-rules.md §1.1, §7 item 1).
///
/// A request path is a list of tokens: known segments, the unknown document id of a `list`
/// request, and — for collection-group queries — an unknown run of segments. A pattern
/// matches only if it matches *every* path the unknown tokens could stand for: literals and
/// `{x}` never match the unknown run; a recursive wildcard may swallow it whole. Captures
/// that cover an unknown token are unbound.
enum PathMatcher {
    /// One element of a request path.
    enum Token: Hashable {
        /// A known segment.
        case segment(String)
        /// The document id of a `list` request.
        case unknownID
        /// Zero or more unknown segments (collection-group parent paths).
        case unknownRun
    }

    /// The captures when `pattern` matches `tokens`, nil otherwise.
    static func match(_ pattern: [MatchSegment], _ tokens: [Token], version: Int) -> [String: Binding]? {
        var captures: [String: Binding] = [:]
        var failed = Set<Int>()
        return step(pattern[...], tokens[...], version: version, &captures, &failed) ? captures : nil
    }

    /// Matches the rest of the pattern against the rest of the tokens. Whether a (pattern,
    /// token) position can succeed does not depend on captures, so failures are memoised and
    /// the search stays polynomial even with many recursive wildcards.
    private static func step(
        _ p: ArraySlice<MatchSegment>, _ t: ArraySlice<Token>, version: Int, _ captures: inout [String: Binding],
        _ failed: inout Set<Int>
    ) -> Bool {
        let key = p.startIndex &* 100_003 &+ t.startIndex
        if failed.contains(key) { return false }
        let ok = attempt(p, t, version: version, &captures, &failed)
        if !ok { failed.insert(key) }
        return ok
    }

    private static func attempt(
        _ p: ArraySlice<MatchSegment>, _ t: ArraySlice<Token>, version: Int, _ captures: inout [String: Binding],
        _ failed: inout Set<Int>
    ) -> Bool {
        guard let first = p.first else { return t.isEmpty }
        switch first {
        case .literal(let s):
            guard case .segment(let x)? = t.first, x == s else { return false }
            return step(p.dropFirst(), t.dropFirst(), version: version, &captures, &failed)
        case .wildcard(let name):
            guard let tok = t.first else { return false }
            switch tok {
            case .segment(let x): captures[name] = .value(.string(x))
            case .unknownID: captures[name] = .unbound
            case .unknownRun: return false
            }
            if step(p.dropFirst(), t.dropFirst(), version: version, &captures, &failed) { return true }
            captures[name] = nil
            return false
        case .recursive(let name):
            let minimum = version >= 2 ? 0 : 1
            guard t.count >= minimum else { return false }
            for k in stride(from: t.count, through: minimum, by: -1) {
                let taken = t.prefix(k)
                // An unknown run must be taken whole or not at all; a cut inside it is impossible
                // because the run is one token.
                if version < 2 && taken.contains(.unknownRun) { continue }
                var segments: [String] = []
                var known = true
                for tok in taken {
                    if case .segment(let s) = tok { segments.append(s) } else { known = false }
                }
                captures[name] = known ? .value(.path(RulesPath(segments))) : .unbound
                if step(p.dropFirst(), t.dropFirst(k), version: version, &captures, &failed) { return true }
                captures[name] = nil
            }
            return false
        }
    }
}
