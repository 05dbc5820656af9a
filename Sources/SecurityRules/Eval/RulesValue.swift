import FirestoreModel
import Synchronization

/// A value of the rules language: the 15 kinds of docs/reference/security-rules.md §3.1.
///
/// Errors are not a case here: they travel as `RulesEvalError` (thrown, carrying a source
/// position) so `&&`, `||` and `?:` can absorb them exactly as docs/reference/security-rules.md §3.5 says.
public enum RulesValue: Sendable {
    /// `null`.
    case null
    /// `true` / `false`.
    case bool(Bool)
    /// 64-bit signed integer.
    case int(Int64)
    /// IEEE double.
    case float(Double)
    /// Text; sizes and order in UTF-16 code units.
    case string(String)
    /// Raw bytes.
    case bytes([UInt8])
    /// Ordered list.
    case list([RulesValue])
    /// String-keyed map.
    case map(RulesMap)
    /// Unordered unique elements.
    case set(RulesSet)
    /// The result of `map.diff(map)`.
    case mapDiff(RulesMapDiff)
    /// A path such as `/databases/(default)/documents/a/b`.
    case path(RulesPath)
    /// A UTC instant, nanosecond precision.
    case timestamp(Timestamp)
    /// A signed span of time.
    case duration(RulesDuration)
    /// A geographic point.
    case latlng(GeoPoint)
    /// Only during `list` evaluation: what a query's filters say about a field (docs/reference/security-rules.md §7).
    case constraint(RulesConstraint)

    /// The type name used by `is`, error messages and explanations.
    public var typeName: String { kind.rawValue }

    /// The value's type.
    public var kind: RulesType {
        switch self {
        case .null: return .null
        case .bool: return .bool
        case .int: return .int
        case .float: return .float
        case .string: return .string
        case .bytes: return .bytes
        case .list: return .list
        case .map: return .map
        case .set: return .set
        case .mapDiff: return .mapDiff
        case .path: return .path
        case .timestamp: return .timestamp
        case .duration: return .duration
        case .latlng: return .latlng
        case .constraint: return .constraint
        }
    }
}

/// The types of the rules language, named as `is` spells them (docs/reference/security-rules.md §2.2).
public enum RulesType: String, Sendable, Hashable, CaseIterable {
    /// The concrete kinds.
    case null, bool, int, float, string, bytes, list, map, set, path, timestamp, duration, latlng, constraint
    /// `map_diff`.
    case mapDiff = "map_diff"
    /// `number`: int or float (only on the right of `is`).
    case number
    /// `vector`: a Firestore vector value, stored as the map `{__type__: '__vector__', value: [...]}`
    /// (docs/reference/firestore-wire.md §1.7); only on the right of `is`, where it holds for such
    /// a map and `is map` does not (the emulator's answers).
    case vector

    /// True when a value of kind `k` passes `is self`.
    ///
    /// `is set` is false for every value, sets included: the emulator answers so (corpus
    /// res.r23, res.r31; `[1].toSet() is list` and `is map` are false too), and matching it
    /// means a rule relying on `is set` denies here as it does there.
    func admits(_ k: RulesType) -> Bool {
        switch self {
        case .number: return k == .int || k == .float
        case .set: return false
        default: return k == self
        }
    }
}

/// A map value: string keys, plus a flag for the synthetic `resource.data` of a `list`
/// evaluation, which holds only the fields the query filters on (docs/reference/security-rules.md §7 item 3).
public struct RulesMap: Sendable {
    /// The entries (for a stored document's data: converted on first use, then kept).
    public var entries: ExactNameDictionary<RulesValue> {
        get {
            if let document { return document.entries }
            return eagerEntries
        }
        set {
            document = nil
            eagerEntries = newValue
        }
        _modify {
            if let d = document {
                eagerEntries = d.entries
                document = nil
            }
            yield &eagerEntries
        }
    }
    private var eagerEntries: ExactNameDictionary<RulesValue>
    /// A stored document's fields, read one member at a time until something needs them all
    /// (`resource.data.owner` converts one value; `keys()` or `==` convert the map).
    private var document: StoredData?
    /// True for a synthetic, partial map: reading an absent key, `size()`, `values()`, `in`
    /// of an absent key … errors, because the query does not pin those fields (stricter than
    /// the emulator, which treats the map as holding exactly the filtered fields). `keys()`
    /// is a constraint that holds the filtered fields and may hold more (`Library.partialKeys`).
    public var isPartial: Bool

    /// Creates a map.
    public init(_ entries: ExactNameDictionary<RulesValue>, isPartial: Bool = false) {
        self.eagerEntries = entries
        self.document = nil
        self.isPartial = isPartial
    }

    /// The map of a stored document's fields, converted lazily.
    public init(storedFields: EncodedFields) {
        self.eagerEntries = [:]
        self.document = StoredData(storedFields)
        self.isPartial = false
    }

    /// The value of `key` (what `m.key` and `m[key]` read); a stored document's map reads
    /// and converts just that field.
    public func member(_ key: String) -> RulesValue? {
        guard let document else { return eagerEntries[key] }
        return document.member(key)
    }

    /// True for a stored document's data: it holds no partial map at any depth (every value
    /// is converted from a stored one), which is known without converting it.
    var isConvertedDocument: Bool { document != nil }

    /// Keys in UTF-8 order (the order `keys()` reports; docs/reference/security-rules.md §4.6 leaves it open).
    public var sortedKeys: [String] { entries.sortedKeys() }
}

/// A stored document's fields behind a `RulesMap`: single members converted on demand, the
/// whole map converted once when asked.
final class StoredData: Sendable {
    let fields: EncodedFields
    private let converted = Mutex<ExactNameDictionary<RulesValue>?>(nil)

    init(_ fields: EncodedFields) { self.fields = fields }

    var entries: ExactNameDictionary<RulesValue> {
        if let done = converted.withLock({ $0 }) { return done }
        let all = fields.fields.mapValues(RulesValue.init)
        converted.withLock { $0 = all }
        return all
    }

    func member(_ key: String) -> RulesValue? {
        if let done = converted.withLock({ $0 }) { return done[key] }
        return fields.value(at: FieldPath([key])).map(RulesValue.init)
    }
}

/// A set value: unique elements (numbers compared by value at any depth, NaN equal to NaN),
/// insertion order kept.
public struct RulesSet: Sendable {
    /// The elements, duplicates removed.
    public private(set) var elements: [RulesValue]

    /// Builds a set from `values`, keeping the first of equal elements (docs/reference/security-rules.md §4.5 `toSet`).
    public init(_ values: [RulesValue]) {
        var seen = Set<RulesValueKey>()
        var out: [RulesValue] = []
        for v in values {
            guard let k = RulesValueKey(v, .setMember) else {
                out.append(v)  // a map diff or constraint: no key, never deduplicated
                continue
            }
            if seen.insert(k).inserted { out.append(v) }
        }
        elements = out
    }
}

/// The result of `a.diff(b)`: the two maps, compared shallowly (docs/reference/security-rules.md §4.7).
public struct RulesMapDiff: Sendable {
    /// The receiver (`request.resource.data` usually).
    public var left: RulesMap
    /// The argument (`resource.data` usually).
    public var right: RulesMap
}

/// A path value: segments, and the bindings made by `bind()` (docs/reference/security-rules.md §2.3, §4.9).
///
/// A segment written `{name}` is a placeholder that `bind` fills.
public struct RulesPath: Sendable, Hashable, CustomStringConvertible {
    /// Decoded segments, without slashes.
    public var segments: [String]
    /// Values bound by `bind(map)`, readable as `p.name`.
    public var bindings: [String: String]

    /// Creates a path.
    public init(_ segments: [String], bindings: [String: String] = [:]) {
        self.segments = segments
        self.bindings = bindings
    }

    /// Parses `a/b/c` or `/a/b/c` (empty segments dropped).
    public init(parsing text: String) {
        self.init(text.split(separator: "/", omittingEmptySubsequences: true).map(String.init))
    }

    /// `/a/b/c`.
    public var description: String { "/" + segments.joined(separator: "/") }

    /// True when a `{name}` placeholder is left.
    var hasPlaceholder: Bool { segments.contains { $0.hasPrefix("{") && $0.hasSuffix("}") } }

    public static func == (lhs: RulesPath, rhs: RulesPath) -> Bool { bytesEqual(lhs.segments, rhs.segments) }
    public func hash(into hasher: inout Hasher) { for s in segments { hasher.combine(ExactName(s)) } }
}

/// A signed span of time with nanosecond precision (docs/reference/security-rules.md §4.11).
///
/// `seconds` and `nanos` have the same sign; |nanos| < 1e9.
public struct RulesDuration: Sendable, Hashable, Comparable {
    /// Whole seconds.
    public var seconds: Int64
    /// Nanoseconds, same sign as `seconds`.
    public var nanos: Int32

    /// Largest magnitude in seconds: ±315,576,000,000 (10,000 years).
    public static let maxSeconds: Int64 = 315_576_000_000

    /// Creates a duration from seconds and nanos, normalising signs and carrying.
    /// Returns nil when the result is outside ±`maxSeconds`.
    public init?(seconds: Int64, nanos: Int64) {
        var s = seconds
        var n = nanos
        let (q, overflow) = s.addingReportingOverflow(n / 1_000_000_000)
        if overflow { return nil }
        s = q
        n %= 1_000_000_000
        if s > 0 && n < 0 {
            s -= 1
            n += 1_000_000_000
        } else if s < 0 && n > 0 {
            s += 1
            n -= 1_000_000_000
        }
        guard s.magnitude <= UInt64(Self.maxSeconds) else { return nil }
        self.seconds = s
        self.nanos = Int32(n)
    }

    /// Creates a duration from parts already normalised (same sign, |nanos| < 1e9).
    init(normalizedSeconds: Int64, nanos: Int32) {
        self.seconds = normalizedSeconds
        self.nanos = nanos
    }

    public static func < (lhs: RulesDuration, rhs: RulesDuration) -> Bool {
        lhs.seconds != rhs.seconds ? lhs.seconds < rhs.seconds : lhs.nanos < rhs.nanos
    }
}

/// A query constraint on one field during `list` evaluation (docs/reference/security-rules.md §7 item 5).
public struct RulesConstraint: Sendable {
    /// A comparator of a filter.
    public enum Comparator: String, Sendable {
        /// Equality, inequality and ordering filters.
        case eq = "EQ"
        case neq = "NEQ"
        case gt = "GT"
        case gte = "GTE"
        case lt = "LT"
        case lte = "LTE"
        /// `array-contains`.
        case listContains = "LIST_CONTAINS"
    }

    /// One filter on the field.
    public struct Pair: Sendable {
        /// The comparator.
        public var comparator: Comparator
        /// The filter's operand.
        public var value: RulesValue
    }

    /// The field's filters in this way of the query.
    public var pairs: [Pair]
}
