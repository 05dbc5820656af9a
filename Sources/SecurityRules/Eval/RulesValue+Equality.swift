import FirestoreModel

/// Equality and hashing of rules values (docs/reference/security-rules.md §3.3).
///
/// Top-level `==` compares int and float by value (`1 == 1.0`); inside lists and maps they are
/// different (`[1] != [1.0]`). Sets and map diffs compare numbers by value at every depth.
/// NaN equals nothing, except inside sets (see `RulesValueKey.NumberComparison`). Strings compare by code units, never by Unicode canonical equivalence.
extension RulesValue {
    /// `==` as the language defines it; values of different types are simply unequal.
    /// Constraints are handled by the evaluator before this is called.
    public static func rulesEqual(_ a: RulesValue, _ b: RulesValue) -> Bool {
        equal(a, b, numbersByValue: true, deep: false)
    }

    /// Equality for map diffs: numbers by value at every depth and NaN equal to NaN, so an
    /// untouched NaN field is not reported as changed.
    static func diffEqual(_ a: RulesValue, _ b: RulesValue) -> Bool {
        equal(a, b, numbersByValue: true, deep: true, nanEqual: true)
    }

    /// Structural equality: `numbersByValue` at this level, `deep` for nested levels, `nanEqual` for diffs.
    static func equal(_ a: RulesValue, _ b: RulesValue, numbersByValue: Bool, deep: Bool, nanEqual: Bool = false) -> Bool {
        let nested = deep
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.int(let x), .int(let y)): return x == y
        case (.float(let x), .float(let y)): return x == y || (nanEqual && x.isNaN && y.isNaN)
        case (.int(let x), .float(let y)): return numbersByValue && exactlyEqual(x, y)
        case (.float(let x), .int(let y)): return numbersByValue && exactlyEqual(y, x)
        case (.string(let x), .string(let y)): return bytesEqual(x, y)
        case (.bytes(let x), .bytes(let y)): return x == y
        case (.list(let x), .list(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { equal($0, $1, numbersByValue: nested, deep: deep, nanEqual: nanEqual) }
        case (.map(let x), .map(let y)):
            guard x.entries.count == y.entries.count else { return false }
            for (k, v) in x.entries {
                guard let w = y.entries[k], equal(v, w, numbersByValue: nested, deep: deep, nanEqual: nanEqual) else { return false }
            }
            return true
        case (.set(let x), .set(let y)):
            guard x.elements.count == y.elements.count else { return false }
            // Hashed, so comparing large sets stays linear; NaN elements equal each other.
            var keys = Set<RulesValueKey>()
            for e in x.elements {
                guard let k = RulesValueKey(e, .setMember) else { return false }
                keys.insert(k)
            }
            for e in y.elements {
                guard let k = RulesValueKey(e, .setMember), keys.contains(k) else { return false }
            }
            return true
        case (.path(let x), .path(let y)): return bytesEqual(x.segments, y.segments)
        case (.timestamp(let x), .timestamp(let y)): return x == y
        case (.duration(let x), .duration(let y)): return x == y
        case (.latlng(let x), .latlng(let y)): return x.latitude == y.latitude && x.longitude == y.longitude
        case (.mapDiff(let x), .mapDiff(let y)):
            return equal(.map(x.left), .map(y.left), numbersByValue: true, deep: true)
                && equal(.map(x.right), .map(y.right), numbersByValue: true, deep: true)
        default: return false
        }
    }

    /// True when the int and the double denote the same number exactly.
    static func exactlyEqual(_ i: Int64, _ d: Double) -> Bool {
        guard d.isFinite, d == d.rounded(.towardZero), d >= -9_223_372_036_854_775_808.0, d < 9_223_372_036_854_775_808.0 else {
            return false
        }
        return Int64(d) == i
    }
}

/// A hashable stand-in for a value, so membership tests (`in`, `hasAll`, sets) run in
/// O(n + m) rather than O(n·m). Two values get equal keys exactly when the chosen
/// `NumberComparison` says they are equal.
struct RulesValueKey: Hashable {
    /// How numbers compare inside a key.
    enum NumberComparison {
        /// List membership (`in`, `hasAll`/`hasAny`/`hasOnly`, `removeAll`): an int never equals
        /// a float at any depth (`1 in [1.0]` is false), `-0.0` equals `0.0`, and a value holding
        /// NaN has no key, so it matches nothing (corpus num.n09, n33–n35, n37, n40).
        case strict
        /// Sets: numbers by value at every depth (`1 in [1.0].toSet()`), and NaN equals NaN
        /// (corpus num.n36, n39, map.m24; the emulator hashes set elements).
        case setMember
    }

    /// The value with numbers normalised per the chosen comparison.
    indirect enum Node: Hashable {
        /// `null`.
        case null
        /// A bool.
        case bool(Bool)
        /// An int, or an integral float compared by value.
        case int(Int64)
        /// A float's bit pattern (`-0.0` folded into `0.0`, every NaN into one pattern).
        case float(UInt64)
        /// UTF-8 bytes of a string (no canonical equivalence).
        case string([UInt8])
        /// Bytes.
        case bytes([UInt8])
        /// A list.
        case list([Node])
        /// A map.
        case map([ExactName: Node])
        /// A set.
        case set(Set<Node>)
        /// A path's segments.
        case path([ExactName])
        /// Seconds and nanos.
        case timestamp(Int64, Int32)
        /// Seconds and nanos.
        case duration(Int64, Int32)
        /// Bit patterns of latitude and longitude.
        case latlng(UInt64, UInt64)
    }

    /// The normalised value.
    let node: Node

    /// The key of `value` under `comparison`; nil when the value equals nothing (NaN under
    /// `.strict`) or has no key (map diffs, constraints).
    init?(_ value: RulesValue, _ comparison: NumberComparison) {
        guard let n = Self.node(value, comparison) else { return nil }
        node = n
    }

    private static func floatNode(_ d: Double, _ comparison: NumberComparison) -> Node? {
        switch comparison {
        case .strict:
            if d.isNaN { return nil }
        case .setMember:
            if d.isNaN { return .float(Double.nan.bitPattern) }
            if d == d.rounded(.towardZero), d >= -9_223_372_036_854_775_808.0, d < 9_223_372_036_854_775_808.0 {
                return .int(Int64(d))
            }
        }
        return .float((d == 0 ? 0.0 : d).bitPattern)
    }

    private static func node(_ v: RulesValue, _ comparison: NumberComparison) -> Node? {
        switch v {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return .int(i)
        case .float(let d): return floatNode(d, comparison)
        case .string(let s): return .string(Array(s.utf8))
        case .bytes(let b): return .bytes(b)
        case .list(let l):
            var out: [Node] = []
            out.reserveCapacity(l.count)
            for e in l {
                guard let n = node(e, comparison) else { return nil }
                out.append(n)
            }
            return .list(out)
        case .map(let m):
            var out: [ExactName: Node] = [:]
            for (k, e) in m.entries {
                guard let n = node(e, comparison) else { return nil }
                out[ExactName(k)] = n
            }
            return .map(out)
        case .set(let s):
            // A set inside anything compares as a set.
            var out = Set<Node>()
            for e in s.elements {
                guard let n = node(e, .setMember) else { return nil }
                out.insert(n)
            }
            return .set(out)
        case .path(let p): return .path(p.segments.map { ExactName($0) })
        case .timestamp(let t): return .timestamp(t.seconds, t.nanos)
        case .duration(let d): return .duration(d.seconds, d.nanos)
        case .latlng(let g):
            return .latlng((g.latitude == 0 ? 0.0 : g.latitude).bitPattern, (g.longitude == 0 ? 0.0 : g.longitude).bitPattern)
        case .mapDiff, .constraint: return nil
        }
    }
}
