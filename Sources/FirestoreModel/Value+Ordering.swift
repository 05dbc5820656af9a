/// Firestore's total order of values and its query equality.
///
/// Cross-type order: null < bool < number < timestamp < string < bytes < reference <
/// geo point < array < vector < map. Numbers: NaN first and equal to NaN, then ints and doubles by
/// exact numeric value (`1 == 1.0`, `-0.0 == 0.0`, `2^53 + 1 > 2^53.0`). Strings compare by
/// UTF-8 bytes. Source: docs/reference/firestore-wire.md §1.9; firebase-js-sdk `model/type_order.ts`, `values.ts`.
extension Value {
    /// Rank of the value's type in the cross-type order (null = 0 … geo point = 7, array = 8,
    /// vector = 9 — a map `{__type__: "__vector__", value: [...]}` — and map = 10).
    public var typeOrder: Int {
        switch self {
        case .null: return 0
        case .boolean: return 1
        case .integer, .double: return 2
        case .timestamp: return 3
        case .string: return 4
        case .bytes: return 5
        case .reference: return 6
        case .geoPoint: return 7
        case .array: return 8
        case .map: return vectorElements == nil ? 10 : 9
        }
    }

    /// The elements of a vector value — a map whose `__type__` is `"__vector__"` — taken from
    /// its `value` array (empty when absent); nil for every other value.
    /// Source: docs/reference/firestore-wire.md §1.7 (vector row), §1.9 item 10; firebase-js-sdk `model/map_type.ts`.
    public var vectorElements: [Value]? {
        guard case .map(let m) = self, case .string("__vector__")? = m["__type__"] else { return nil }
        if case .array(let a)? = m["value"] { return a }
        return []
    }

    /// Compares two values in Firestore's total order.
    /// - Complexity: O(size of the smaller value).
    public static func compare(_ lhs: Value, _ rhs: Value) -> Ordering {
        let lt = lhs.typeOrder
        let rt = rhs.typeOrder
        if lt != rt { return lt < rt ? .less : .greater }
        switch (lhs, rhs) {
        case (.null, .null): return .equal
        case (.boolean(let a), .boolean(let b)): return a == b ? .equal : (a ? .greater : .less)
        case (.integer(let a), .integer(let b)): return Ordering(a, b)
        case (.integer(let a), .double(let b)): return compareNumbers(int: a, double: b)
        case (.double(let a), .integer(let b)): return compareNumbers(int: b, double: a).reversed
        case (.double(let a), .double(let b)): return compareDoubles(a, b)
        case (.timestamp(let a), .timestamp(let b)): return a == b ? .equal : (a < b ? .less : .greater)
        case (.string(let a), .string(let b)): return compareUTF8(a, b)
        case (.bytes(let a), .bytes(let b)): return compareBytes(a, b)
        case (.reference(let a), .reference(let b)): return compareReferences(a, b)
        case (.geoPoint(let a), .geoPoint(let b)):
            let c = compareDoubles(a.latitude, b.latitude)
            return c != .equal ? c : compareDoubles(a.longitude, b.longitude)
        case (.array(let a), .array(let b)):
            for (x, y) in zip(a, b) {
                let c = compare(x, y)
                if c != .equal { return c }
            }
            return Ordering(a.count, b.count)
        case (.map, .map) where lt == 9:
            // Vectors: shorter first, then element by element.
            let a = lhs.vectorElements ?? []
            let b = rhs.vectorElements ?? []
            if a.count != b.count { return Ordering(a.count, b.count) }
            for (x, y) in zip(a, b) {
                let c = compare(x, y)
                if c != .equal { return c }
            }
            return .equal
        case (.map(let a), .map(let b)):
            let ak = a.keys.sorted(by: utf8Less)
            let bk = b.keys.sorted(by: utf8Less)
            for (x, y) in zip(ak, bk) {
                let kc = compareUTF8(x, y)
                if kc != .equal { return kc }
                if let xv = a[x], let yv = b[y] {
                    let vc = compare(xv, yv)
                    if vc != .equal { return vc }
                }
            }
            return Ordering(ak.count, bk.count)
        default: return .equal
        }
    }

    /// Firestore equality as used by `==`, `in`, `array-contains` and array transforms:
    /// `compare == .equal` (so `1 == 1.0` and `NaN == NaN`).
    public func firestoreEquals(_ other: Value) -> Bool { Value.compare(self, other) == .equal }
}

/// The result of a three-way comparison.
public enum Ordering: Sendable, Equatable {
    case less, equal, greater

    /// Compares two `Comparable` values.
    public init<T: Comparable>(_ a: T, _ b: T) { self = a < b ? .less : (a == b ? .equal : .greater) }

    /// The opposite ordering (`less` ↔ `greater`).
    public var reversed: Ordering {
        switch self {
        case .less: return .greater
        case .equal: return .equal
        case .greater: return .less
        }
    }
}

/// Doubles in Firestore order: NaN lowest and equal to itself, -0.0 == 0.0.
func compareDoubles(_ a: Double, _ b: Double) -> Ordering {
    if a.isNaN { return b.isNaN ? .equal : .less }
    if b.isNaN { return .greater }
    return a < b ? .less : (a > b ? .greater : .equal)
}

/// Exact comparison of an int64 with a double (no rounding of the int).
func compareNumbers(int a: Int64, double b: Double) -> Ordering {
    if b.isNaN { return .greater }
    if b >= 9_223_372_036_854_775_808.0 { return .less }  // 2^63 and above, +inf
    if b < -9_223_372_036_854_775_808.0 { return .greater }  // below -2^63, -inf
    // Int64(_:) truncates toward zero and is exact here (-2^63 ≤ b < 2^63). Not
    // `rounded(.towardZero)`: that calls libm's trunc, which nothing links without Foundation.
    let bi = Int64(b)
    if a != bi { return a < bi ? .less : .greater }
    // Exact: if |b| ≥ 2^52, b is integral and Double(bi) == b; otherwise |bi| < 2^52 converts exactly.
    let frac = b - Double(bi)
    return frac > 0 ? .less : (frac < 0 ? .greater : .equal)
}

/// Strings by their UTF-8 bytes (not UTF-16 units, not Unicode collation).
public func compareUTF8(_ a: String, _ b: String) -> Ordering {
    // Native strings are contiguous UTF-8: compare the buffers (field names, map keys and
    // string values are compared on every sort and filter).
    if let ordering = a.utf8.withContiguousStorageIfAvailable({ x in
        b.utf8.withContiguousStorageIfAvailable { y -> Ordering in
            let n = min(x.count, y.count)
            var i = 0
            while i < n {
                if x[i] != y[i] { return x[i] < y[i] ? .less : .greater }
                i += 1
            }
            return x.count == y.count ? .equal : (x.count < y.count ? .less : .greater)
        }
    }), let ordering {
        return ordering
    }
    var ai = a.utf8.makeIterator()
    var bi = b.utf8.makeIterator()
    while true {
        switch (ai.next(), bi.next()) {
        case (nil, nil): return .equal
        case (nil, _): return .less
        case (_, nil): return .greater
        case (let x?, let y?): if x != y { return x < y ? .less : .greater }
        }
    }
}

/// `a < b` by UTF-8 bytes; use for sorting keys and names.
public func utf8Less(_ a: String, _ b: String) -> Bool { compareUTF8(a, b) == .less }

func compareBytes(_ a: [UInt8], _ b: [UInt8]) -> Ordering {
    for (x, y) in zip(a, b) where x != y { return x < y ? .less : .greater }
    return Ordering(a.count, b.count)
}

/// References segment by segment, then fewer segments first.
func compareReferences(_ a: String, _ b: String) -> Ordering {
    let sa = a.split(separator: "/", omittingEmptySubsequences: false)
    let sb = b.split(separator: "/", omittingEmptySubsequences: false)
    for (x, y) in zip(sa, sb) {
        let c = compareSegments(String(x), String(y))
        if c != .equal { return c }
    }
    return Ordering(sa.count, sb.count)
}

/// One path segment: numeric Datastore ids `__id<digits>__` first (numerically), then strings by UTF-8.
public func compareSegments(_ a: String, _ b: String) -> Ordering {
    switch (numericID(a), numericID(b)) {
    case (let x?, let y?): return Ordering(x, y)
    case (.some, nil): return .less
    case (nil, .some): return .greater
    case (nil, nil): return compareUTF8(a, b)
    }
}

func numericID(_ s: String) -> Int64? {
    guard s.hasPrefix("__id"), s.hasSuffix("__"), s.utf8.count > 6 else { return nil }
    return Int64(s.dropFirst(4).dropLast(2))
}
