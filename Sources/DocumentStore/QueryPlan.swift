import FirestoreModel

/// How the SQLite store reads the candidates of one query: the stage between the query model
/// and the index scan (docs/STYLE.md principle 6). Prints itself for tests and diagnostics.
///
/// Candidates are streamed from `accesses` (their union), decoded one by one and checked
/// against the query's full semantics; the final answer is always
/// `StructuredQuery.evaluate(over:target:in:)` over the accepted candidates. When
/// `streamOrder` is not `.unordered`, the stream follows the query's normalised order on its
/// leading key, so reading can stop once `offset + limit` candidates are accepted and the
/// leading key changes.
struct QueryPlan: Sendable, Equatable, CustomStringConvertible {
    /// One source of candidates.
    enum Access: Sendable, Equatable {
        /// Documents of the target's collection (or collection group) in `__name__` order,
        /// within `range` of path keys.
        case documents(range: KeyRange, direction: Direction)
        /// Entries of `index` within each of `ranges` (sorted and disjoint in scan direction).
        case index(SingleFieldIndex, ranges: [KeyRange], direction: Direction)
        /// Entries of composite `index` (normalised) within each of `ranges` of whole entry
        /// keys (`CompositeIndex.entryKeys`; sorted and disjoint in scan direction).
        case composite(CompositeIndex, ranges: [KeyRange], direction: Direction)
    }

    /// What the stream is ordered by, as far as the query's normalised order is concerned.
    enum StreamOrder: Sendable, Equatable {
        /// No useful order: read every candidate.
        case unordered
        /// By the index value, which is the first normalised orderBy field.
        case indexValue
        /// By document name, which is the first normalised orderBy field still varying.
        case path
        /// By the composite entry key, which is the query's whole normalised order.
        case indexKey
        /// Within each range by the composite entry key (the ranges are one per combination
        /// of `in` / `array-contains-any` values, so the whole stream is not in order).
        case indexKeyWithinRanges
    }

    /// Sources of candidates; more than one only for OR filters (results are de-duplicated).
    var accesses: [Access]
    /// See `StreamOrder`.
    var streamOrder: StreamOrder

    /// Single-field indexes the plan reads.
    var indexes: [SingleFieldIndex] {
        accesses.compactMap { if case .index(let i, _, _) = $0 { return i } else { return nil } }
    }

    /// True when one document can come from more than one range or access.
    var mayRepeat: Bool {
        if accesses.count > 1 { return true }
        return accesses.contains { access in
            switch access {
            case .documents: return false
            case .index(let i, let ranges, _): return i.mode == .arrayContains && ranges.count > 1
            case .composite(let i, let ranges, _): return ranges.count > 1 && i.fields.contains { $0.kind == .arrayContains }
            }
        }
    }

    /// The indexes read, as production's plan summary names them (`(a ASC, __name__ ASC)`),
    /// in `scope` (`Collection` or `Collection group`), each once.
    func indexesUsed(scope: String) -> [IndexUsage] {
        var out: [IndexUsage] = []
        for access in accesses {
            let properties: String
            switch access {
            case .documents(_, let direction):
                properties = "(__name__ \(direction == .ascending ? "ASC" : "DESC"))"
            case .index(let index, _, let direction):
                let d = direction == .ascending ? "ASC" : "DESC"
                let kind = index.mode == .arrayContains ? "CONTAINS" : d
                properties = "(\(index.field.canonical) \(kind), __name__ \(index.mode == .arrayContains ? "ASC" : d))"
            case .composite(let index, _, _):
                properties = index.properties
            }
            let usage = IndexUsage(queryScope: scope, properties: properties)
            if !out.contains(usage) { out.append(usage) }
        }
        return out
    }

    /// `index messages.t (ordered, collection) [≥k1, <k2) asc; ordered by index value`.
    var description: String {
        let parts = accesses.map { access -> String in
            switch access {
            case .documents(let range, let direction):
                return "documents \(range) \(direction == .ascending ? "asc" : "desc")"
            case .index(let index, let ranges, let direction):
                let r = ranges.map(\.description).joined(separator: " ")
                return "index \(index) \(ranges.isEmpty ? "(empty)" : r) \(direction == .ascending ? "asc" : "desc")"
            case .composite(let index, let ranges, let direction):
                let r = ranges.map(\.description).joined(separator: " ")
                return "composite \(index) \(ranges.isEmpty ? "(empty)" : r) \(direction == .ascending ? "asc" : "desc")"
            }
        }
        let order: String
        switch streamOrder {
        case .unordered: order = "unordered"
        case .indexValue: order = "ordered by index value"
        case .path: order = "ordered by name"
        case .indexKey: order = "ordered by index key"
        case .indexKeyWithinRanges: order = "ordered by index key within each range"
        }
        return (parts.isEmpty ? "nothing" : parts.joined(separator: " ∪ ")) + "; " + order
    }
}

/// A range of BLOB keys, each end optional (open) and inclusive or exclusive.
struct KeyRange: Sendable, Equatable, CustomStringConvertible {
    /// One end of a range.
    struct Bound: Sendable, Equatable {
        /// The `OrderedKey` bytes of the bound.
        var key: [UInt8]
        /// True when `key` itself is inside the range.
        var inclusive: Bool
    }

    /// The low end; nil = unbounded.
    var lower: Bound?
    /// The high end; nil = unbounded.
    var upper: Bound?

    /// Every key.
    static let all = KeyRange(lower: nil, upper: nil)

    /// No key at all.
    static let empty = KeyRange(lower: Bound(key: [], inclusive: false), upper: Bound(key: [], inclusive: false))

    /// Exactly `key`.
    static func point(_ key: [UInt8]) -> KeyRange {
        KeyRange(lower: Bound(key: key, inclusive: true), upper: Bound(key: key, inclusive: true))
    }

    /// True when `lower == upper`, both inclusive.
    var isPoint: Bool {
        guard let lower, let upper else { return false }
        return lower.inclusive && upper.inclusive && lower.key == upper.key
    }

    /// True when no key can be inside.
    var isEmpty: Bool {
        guard let lower, let upper else { return false }
        if bytesLess(upper.key, lower.key) { return true }
        return lower.key == upper.key && !(lower.inclusive && upper.inclusive)
    }

    /// The keys in both ranges, or nil when none.
    func intersection(_ other: KeyRange) -> KeyRange? {
        let r = KeyRange(lower: Self.tighter(lower, other.lower, lowerEnd: true), upper: Self.tighter(upper, other.upper, lowerEnd: false))
        return r.isEmpty ? nil : r
    }

    private static func tighter(_ a: Bound?, _ b: Bound?, lowerEnd: Bool) -> Bound? {
        guard let a else { return b }
        guard let b else { return a }
        if a.key == b.key { return Bound(key: a.key, inclusive: a.inclusive && b.inclusive) }
        return bytesLess(a.key, b.key) == lowerEnd ? b : a
    }

    /// `[10 20, 30)` with keys in hex; `(-∞` / `+∞)` for open ends.
    var description: String {
        // Every query's statistics carry its plan text: two digits per byte, one string.
        func hex(_ k: [UInt8]) -> String {
            let digits = Array("0123456789abcdef".utf8)
            var out: [UInt8] = []
            out.reserveCapacity(k.count * 2)
            for byte in k {
                out.append(digits[Int(byte >> 4)])
                out.append(digits[Int(byte & 0xF)])
            }
            return String(decoding: out, as: UTF8.self)
        }
        let lo = lower.map { ($0.inclusive ? "[" : "(") + hex($0.key) } ?? "(-∞"
        let hi = upper.map { hex($0.key) + ($0.inclusive ? "]" : ")") } ?? "+∞)"
        return lo + ", " + hi
    }
}

