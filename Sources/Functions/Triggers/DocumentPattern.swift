import FirestoreModel

/// A Firestore trigger's document path: literal segments and `{wildcard}` segments, e.g.
/// `users/{uid}/feed/{messageId}`.
///
/// A pattern matches a document path with the same number of segments whose literal segments
/// are equal; each wildcard captures the segment in its place. Source: firebase-functions
/// `onDocumentCreated(document, …)` path syntax.
public struct DocumentPattern: Sendable, Hashable, CustomStringConvertible {
    /// One segment of the pattern.
    public enum Segment: Sendable, Hashable {
        case literal(String)
        case wildcard(String)
    }

    /// The segments, from the top-level collection down.
    public let segments: [Segment]

    /// Parses `a/{b}/c/{d}`.
    /// - Throws: `.invalidArgument` for an empty pattern or segment, an odd number of segments
    ///   (not a document), a malformed or repeated wildcard name.
    public init(_ text: String) throws(FirestoreError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard !text.isEmpty, parts.count % 2 == 0 else {
            throw .invalidArgument("Trigger path \"\(text)\" must name documents (an even number of segments).")
        }
        var names = Set<String>()
        var segments: [Segment] = []
        for p in parts {
            if p.isEmpty { throw .invalidArgument("Trigger path \"\(text)\" has an empty segment.") }
            if p.hasPrefix("{") || p.hasSuffix("}") {
                let name = String(p.dropFirst().dropLast())
                guard p.hasPrefix("{"), p.hasSuffix("}"), !name.isEmpty, !name.contains("{"), !name.contains("}"),
                    names.insert(name).inserted
                else { throw .invalidArgument("Trigger path \"\(text)\" has a malformed wildcard \"\(p)\".") }
                segments.append(.wildcard(name))
            } else {
                segments.append(.literal(p))
            }
        }
        self.segments = segments
    }

    /// The wildcard captures when `path` matches, else nil.
    public func match(_ path: ResourcePath) -> [String: String]? {
        guard path.segments.count == segments.count else { return nil }
        var params: [String: String] = [:]
        for (s, actual) in zip(segments, path.segments) {
            switch s {
            case .literal(let l): if l != actual { return nil }
            case .wildcard(let name): params[name] = actual
            }
        }
        return params
    }

    /// The pattern text, wildcards in braces.
    public var description: String {
        segments.map { s -> String in
            switch s {
            case .literal(let l): return l
            case .wildcard(let w): return "{\(w)}"
            }
        }.joined(separator: "/")
    }
}
