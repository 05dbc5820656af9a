/// A path to a field inside a document: map keys from the top level down.
///
/// Canonical string form joins segments with `.`; a segment that is not *simple*
/// (`[A-Za-z_][A-Za-z_0-9]*`) is back-quoted with `` \` `` and `\\` escapes.
/// `__name__` is the document key pseudo-field. Source: docs/reference/firestore-wire.md §1.10.
public struct FieldPath: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Raw (unquoted) segments.
    public var segments: [String]

    /// Creates a path from raw segments.
    public init(_ segments: [String]) { self.segments = segments }

    /// The document key pseudo-field `__name__`.
    public static let documentKey = FieldPath(["__name__"])

    /// True for `__name__`.
    public var isDocumentKey: Bool { segments == ["__name__"] }

    /// Parses the canonical string form (`a.b`, `` a.`x.y` ``, `` `a\`b` ``).
    /// - Throws: `.invalidArgument` for empty paths or segments, unterminated quotes,
    ///   bad escapes, non-simple unquoted segments, or paths over 1,500 bytes.
    public init(parsing text: String) throws(FirestoreError) {
        guard !text.isEmpty else { throw .invalidArgument("Field path must not be empty.") }
        guard text.utf8.count <= 1500 else { throw .invalidArgument("Field path is longer than 1500 bytes.") }
        var segments: [String] = []
        var current = ""
        var quoted = false
        var wasQuoted = false
        var it = text.makeIterator()
        func finish() throws(FirestoreError) {
            if current.isEmpty && !wasQuoted { throw .invalidArgument("Invalid field path: \(text)") }
            if !wasQuoted && !FieldPath.isSimple(current) { throw .invalidArgument("Invalid field path: \(text)") }
            if wasQuoted && current.isEmpty { throw .invalidArgument("Invalid field path: \(text)") }
            segments.append(current)
            current = ""
            wasQuoted = false
        }
        while let c = it.next() {
            if quoted {
                if c == "\\" {
                    guard let e = it.next(), e == "`" || e == "\\" else {
                        throw .invalidArgument("Invalid escape in field path: \(text)")
                    }
                    current.append(e)
                } else if c == "`" {
                    quoted = false
                } else {
                    current.append(c)
                }
            } else if c == "`" {
                guard current.isEmpty && !wasQuoted else { throw .invalidArgument("Invalid field path: \(text)") }
                quoted = true
                wasQuoted = true
            } else if c == "." {
                try finish()
            } else {
                guard !wasQuoted else { throw .invalidArgument("Invalid field path: \(text)") }
                current.append(c)
            }
        }
        if quoted { throw .invalidArgument("Unterminated ` in field path: \(text)") }
        try finish()
        self.segments = segments
    }

    /// True when `s` needs no back-quotes: `[A-Za-z_][A-Za-z_0-9]*`.
    public static func isSimple(_ s: String) -> Bool {
        guard let first = s.utf8.first else { return false }
        func alpha(_ c: UInt8) -> Bool { (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c == 95 }
        return alpha(first) && s.utf8.allSatisfy { alpha($0) || ($0 >= 48 && $0 <= 57) }
    }

    /// The canonical string form.
    public var canonical: String {
        segments.map { s in
            if FieldPath.isSimple(s) { return s }
            var q = "`"
            for c in s {
                if c == "`" || c == "\\" { q.append("\\") }
                q.append(c)
            }
            return q + "`"
        }.joined(separator: ".")
    }

    public var description: String { canonical }

    /// True when `self` is a prefix of `other` (or equal to it).
    public func isPrefix(of other: FieldPath) -> Bool {
        segments.count <= other.segments.count && zip(segments, other.segments).allSatisfy { bytesEqual($0, $1) }
    }

    /// Equal when every segment has the same UTF-8 bytes (field names are never Unicode-normalized).
    public static func == (lhs: FieldPath, rhs: FieldPath) -> Bool { bytesEqual(lhs.segments, rhs.segments) }

    /// Hashes the segments' bytes, consistent with `==`.
    public func hash(into hasher: inout Hasher) {
        for s in segments { hasher.combine(ExactName(s)) }
    }

    /// Segment-wise UTF-8 order, shorter first (the order used when appending implicit orderBys).
    public static func < (lhs: FieldPath, rhs: FieldPath) -> Bool {
        for (a, b) in zip(lhs.segments, rhs.segments) {
            let c = compareUTF8(a, b)
            if c != .equal { return c == .less }
        }
        return lhs.segments.count < rhs.segments.count
    }

    /// Rejects paths that writes may not target: reserved `__…__` segments and empty names.
    /// - Throws: `.invalidArgument`.
    public func validateForWrite() throws(FirestoreError) {
        for s in segments {
            if s.isEmpty { throw .invalidArgument("Field path \(canonical) has an empty segment.") }
            if s.hasPrefix("__") && s.hasSuffix("__") && s.utf8.count >= 4 {
                throw .invalidArgument("Cannot write to reserved field name \"\(s)\" in \(canonical).")
            }
        }
    }
}

extension ExactNameDictionary where V == FirestoreModel.Value {
    /// The value at `path`, descending through maps; nil when any step is missing or not a map.
    public func value(at path: FieldPath) -> FirestoreModel.Value? {
        guard let first = path.segments.first, var v = self[first] else { return nil }
        for s in path.segments.dropFirst() {
            guard case .map(let m) = v, let next = m[s] else { return nil }
            v = next
        }
        return v
    }

    /// Sets `value` at `path`, creating or replacing intermediate maps.
    public mutating func setValue(_ value: FirestoreModel.Value, at path: FieldPath) {
        guard let first = path.segments.first else { return }
        if path.segments.count == 1 {
            self[first] = value
            return
        }
        var child: FieldMap = [:]
        if case .map(let m)? = self[first] { child = m }
        child.setValue(value, at: FieldPath(Array(path.segments.dropFirst())))
        self[first] = .map(child)
    }

    /// Removes the value at `path`; missing steps are ignored.
    public mutating func removeValue(at path: FieldPath) {
        guard let first = path.segments.first else { return }
        if path.segments.count == 1 {
            self[first] = nil
            return
        }
        guard case .map(var child)? = self[first] else { return }
        child.removeValue(at: FieldPath(Array(path.segments.dropFirst())))
        self[first] = .map(child)
    }

    /// Keeps only the fields under one of `paths` (a projection / field mask).
    public func projected(to paths: [FieldPath]) -> FieldMap {
        var out: FieldMap = [:]
        for p in paths where !p.isDocumentKey {
            if let v = value(at: p) { out.setValue(v, at: p) }
        }
        return out
    }
}
