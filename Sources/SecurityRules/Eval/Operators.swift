import FirestoreModel

/// The operators of the language over runtime values (docs/reference/security-rules.md §2.2, §3.3, §3.6, §4).
///
/// Types are checked when the operator runs; a mismatch is an `Unsupported operation error`
/// naming what was received and what is accepted.
enum Operators {
    /// The signatures `+` accepts, for error messages.
    static let arithmeticSignatures = [
        "int + int", "float + float", "int + float", "float + int", "string + string", "timestamp + duration", "duration + duration",
    ]

    /// `!v`, `-v`.
    static func unary(_ op: RulesUnaryOperator, _ v: RulesValue, at p: SourcePosition) throws(RulesEvalError) -> RulesValue {
        switch (op, v) {
        case (.not, .bool(let b)): return .bool(!b)
        case (.negate, .int(let i)):
            guard i != .min else { throw RulesEvalError(RulesMessages.overflow, at: p) }
            return .int(-i)
        case (.negate, .float(let d)): return .float(-d)
        case (.negate, .duration(let d)):
            guard let n = RulesDuration(seconds: -d.seconds, nanos: -Int64(d.nanos)) else {
                throw RulesEvalError(RulesMessages.overflow, at: p)
            }
            return .duration(n)
        case (_, .constraint): throw RulesEvalError("", at: p, kind: .unprovable)
        case (.not, _): throw RulesEvalError(RulesMessages.unsupported("!\(v.typeName)", expected: ["!bool"]), at: p)
        case (.negate, _): throw RulesEvalError(RulesMessages.unsupported("-\(v.typeName)", expected: ["-int", "-float"]), at: p)
        }
    }

    /// `l op r` for every binary operator but `&&`/`||`.
    static func binary(_ op: RulesBinaryOperator, _ l: RulesValue, _ r: RulesValue, at p: SourcePosition, evaluation: Evaluation)
        throws(RulesEvalError)
        -> RulesValue
    {
        if case .constraint(let c) = l { return try ConstraintLogic.compare(op, c, r, constraintOnLeft: true, at: p) }
        if case .constraint(let c) = r { return try ConstraintLogic.compare(op, c, l, constraintOnLeft: false, at: p) }
        switch op {
        case .equal, .notEqual:
            // A synthetic list document holds only the filtered fields: comparing it whole
            // would judge documents by fields nobody pinned.
            if l.containsPartialMap || r.containsPartialMap { throw RulesEvalError("", at: p, kind: .unprovable) }
            return .bool(RulesValue.rulesEqual(l, r) == (op == .equal))
        case .add:
            if case .string(let a) = l, case .string(let b) = r {
                // Concatenation copies: charge it, so nested doubling cannot exhaust memory.
                try evaluation.charge((a.utf8.count + b.utf8.count) / 4, at: p)
            }
            return try add(l, r, at: p)
        case .subtract: return try subtract(l, r, at: p)
        case .multiply, .divide, .modulo: return try multiplicative(op, l, r, at: p)
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            guard let c = compare(l, r) else {
                if isComparable(l, r) { return .bool(false) }  // NaN involved
                throw RulesEvalError(
                    RulesMessages.unsupported(
                        "\(l.typeName) \(op.rawValue) \(r.typeName)",
                        expected: [
                            "number \(op.rawValue) number", "string \(op.rawValue) string", "timestamp \(op.rawValue) timestamp",
                            "duration \(op.rawValue) duration",
                        ]),
                    at: p)
            }
            switch op {
            case .less: return .bool(c == .less)
            case .lessOrEqual: return .bool(c != .greater)
            case .greater: return .bool(c == .greater)
            default: return .bool(c != .less)
            }
        case .in: return try membership(l, r, at: p, evaluation: evaluation)
        }
    }

    /// True when both operands are numbers (so an unordered result means NaN).
    static func isComparable(_ l: RulesValue, _ r: RulesValue) -> Bool {
        switch (l, r) {
        case (.int, .int), (.int, .float), (.float, .int), (.float, .float): return true
        default: return false
        }
    }

    /// Three-way order for `<`-family operators: numbers (exact across int/float), strings
    /// by UTF-16 code units, timestamps, durations. Nil when not ordered (NaN or other types).
    static func compare(_ l: RulesValue, _ r: RulesValue) -> Ordering? {
        switch (l, r) {
        case (.int(let a), .int(let b)): return Ordering(a, b)
        case (.float(let a), .float(let b)):
            if a.isNaN || b.isNaN { return nil }
            return Ordering(a, b)
        case (.int(let a), .float(let b)): return compareIntDouble(a, b)
        case (.float(let a), .int(let b)): return compareIntDouble(b, a)?.reversed
        case (.string(let a), .string(let b)):
            if a.utf16.elementsEqual(b.utf16) { return .equal }
            return a.utf16.lexicographicallyPrecedes(b.utf16) ? .less : .greater
        case (.timestamp(let a), .timestamp(let b)): return Ordering(a, b)
        case (.duration(let a), .duration(let b)): return Ordering(a, b)
        default: return nil
        }
    }

    /// Exact order of an Int64 and a Double; nil for NaN.
    static func compareIntDouble(_ a: Int64, _ b: Double) -> Ordering? {
        if b.isNaN { return nil }
        if b >= 9_223_372_036_854_775_808.0 { return .less }
        if b < -9_223_372_036_854_775_808.0 { return .greater }
        let t = b.rounded(.towardZero)
        let bi = Int64(t)
        if a != bi { return a < bi ? .less : .greater }
        let frac = b - t
        return frac > 0 ? .less : (frac < 0 ? .greater : .equal)
    }

    /// `l + r`.
    static func add(_ l: RulesValue, _ r: RulesValue, at p: SourcePosition) throws(RulesEvalError) -> RulesValue {
        switch (l, r) {
        case (.int(let a), .int(let b)):
            let (s, o) = a.addingReportingOverflow(b)
            if o { throw RulesEvalError(RulesMessages.overflow, at: p) }
            return .int(s)
        case (.int(let a), .float(let b)): return .float(Double(a) + b)
        case (.float(let a), .int(let b)): return .float(a + Double(b))
        case (.float(let a), .float(let b)): return .float(a + b)
        case (.string(let a), .string(let b)): return .string(a + b)
        case (.timestamp(let t), .duration(let d)), (.duration(let d), .timestamp(let t)):
            return .timestamp(try shift(t, by: d, sign: 1, at: p))
        case (.duration(let a), .duration(let b)):
            guard let d = RulesDuration(seconds: a.seconds &+ b.seconds, nanos: Int64(a.nanos) + Int64(b.nanos)) else {
                throw RulesEvalError(RulesMessages.overflow, at: p)
            }
            return .duration(d)
        default:
            throw RulesEvalError(RulesMessages.unsupported("\(l.typeName) + \(r.typeName)", expected: arithmeticSignatures), at: p)
        }
    }

    /// `l - r`.
    static func subtract(_ l: RulesValue, _ r: RulesValue, at p: SourcePosition) throws(RulesEvalError) -> RulesValue {
        switch (l, r) {
        case (.int(let a), .int(let b)):
            let (s, o) = a.subtractingReportingOverflow(b)
            if o { throw RulesEvalError(RulesMessages.overflow, at: p) }
            return .int(s)
        case (.int(let a), .float(let b)): return .float(Double(a) - b)
        case (.float(let a), .int(let b)): return .float(a - Double(b))
        case (.float(let a), .float(let b)): return .float(a - b)
        case (.timestamp(let t), .duration(let d)): return .timestamp(try shift(t, by: d, sign: -1, at: p))
        case (.timestamp(let a), .timestamp(let b)):
            guard let d = RulesDuration(seconds: a.seconds - b.seconds, nanos: Int64(a.nanos) - Int64(b.nanos)) else {
                throw RulesEvalError(RulesMessages.overflow, at: p)
            }
            return .duration(d)
        case (.duration(let a), .duration(let b)):
            guard let d = RulesDuration(seconds: a.seconds &- b.seconds, nanos: Int64(a.nanos) - Int64(b.nanos)) else {
                throw RulesEvalError(RulesMessages.overflow, at: p)
            }
            return .duration(d)
        default:
            throw RulesEvalError(
                RulesMessages.unsupported(
                    "\(l.typeName) - \(r.typeName)",
                    expected: ["int - int", "float - float", "timestamp - duration", "timestamp - timestamp", "duration - duration"]),
                at: p)
        }
    }

    /// `t ± d`, an error outside 0001…9999.
    static func shift(_ t: Timestamp, by d: RulesDuration, sign: Int64, at p: SourcePosition) throws(RulesEvalError) -> Timestamp {
        var s = t.seconds + sign * d.seconds
        var n = Int64(t.nanos) + sign * Int64(d.nanos)
        if n < 0 {
            n += 1_000_000_000
            s -= 1
        } else if n >= 1_000_000_000 {
            n -= 1_000_000_000
            s += 1
        }
        let out = Timestamp(seconds: s, nanos: Int32(n))
        guard out.isValid else { throw RulesEvalError("Timestamp out of range.", at: p) }
        return out
    }

    /// `l * r`, `l / r`, `l % r`: integer division truncates, int division by zero errors.
    static func multiplicative(_ op: RulesBinaryOperator, _ l: RulesValue, _ r: RulesValue, at p: SourcePosition) throws(RulesEvalError)
        -> RulesValue
    {
        switch (l, r) {
        case (.int(let a), .int(let b)):
            switch op {
            case .multiply:
                let (m, o) = a.multipliedReportingOverflow(by: b)
                if o { throw RulesEvalError(RulesMessages.overflow, at: p) }
                return .int(m)
            case .divide:
                if b == 0 { throw RulesEvalError(RulesMessages.divideByZero, at: p) }
                if a == .min && b == -1 { throw RulesEvalError(RulesMessages.overflow, at: p) }
                return .int(a / b)
            default:
                if b == 0 { throw RulesEvalError(RulesMessages.divideByZero, at: p) }
                if b == -1 { return .int(0) }
                return .int(a % b)
            }
        case (.int, .float), (.float, .int), (.float, .float):
            let a = l.asDouble ?? 0
            let b = r.asDouble ?? 0
            switch op {
            case .multiply: return .float(a * b)
            case .divide: return .float(a / b)
            default: return .float(a.truncatingRemainder(dividingBy: b))
            }
        default:
            let o = op.rawValue
            throw RulesEvalError(
                RulesMessages.unsupported(
                    "\(l.typeName) \(o) \(r.typeName)", expected: ["int \(o) int", "float \(o) float", "int \(o) float", "float \(o) int"]),
                at: p)
        }
    }

    /// `x in container`: list and set membership, map keys (docs/reference/security-rules.md §4.5, §4.6, §4.8).
    static func membership(_ x: RulesValue, _ container: RulesValue, at p: SourcePosition, evaluation: Evaluation) throws(RulesEvalError)
        -> RulesValue
    {
        if x.containsPartialMap { throw RulesEvalError("", at: p, kind: .unprovable) }
        switch container {
        case .list(let items):
            // Type-strict: `1 in [1.0]` is false (corpus num.n09, n40).
            try evaluation.charge(items.count, at: p)
            guard let key = RulesValueKey(x, .strict) else { return .bool(false) }
            return .bool(items.contains { RulesValueKey($0, .strict) == key })
        case .set(let s):
            // By value: `1 in [1.0].toSet()` is true (corpus num.n36).
            try evaluation.charge(s.elements.count, at: p)
            guard let key = RulesValueKey(x, .setMember) else { return .bool(false) }
            return .bool(s.elements.contains { RulesValueKey($0, .setMember) == key })
        case .map(let m):
            guard case .string(let k) = x else {
                throw RulesEvalError(RulesMessages.unsupported("map.in(\(x.typeName))", expected: ["map.in(string)"]), at: p)
            }
            if m.member(k) != nil { return .bool(true) }
            if m.isPartial { throw RulesEvalError("", at: p, kind: .unprovable) }
            return .bool(false)
        case .null:
            throw RulesEvalError(RulesMessages.nullValue, at: p)
        default:
            // The emulator's text: `in` is looked up as a method of the container's type.
            throw RulesEvalError(RulesMessages.functionNotFound("in"), at: p)
        }
    }

    /// `r.name` (docs/reference/security-rules.md §2.4, §4.9).
    static func member(_ r: RulesValue, _ name: String, at p: SourcePosition) throws(RulesEvalError) -> RulesValue {
        switch r {
        case .map(let m):
            if let v = m.member(name) { return v }
            throw RulesEvalError(RulesMessages.undefinedProperty(name), at: p)
        case .null: throw RulesEvalError(RulesMessages.nullValue, at: p)
        case .path(let path):
            if let v = path.bindings[name] { return .string(v) }
            throw RulesEvalError(RulesMessages.undefinedProperty(name), at: p)
        case .constraint: throw RulesEvalError("", at: p, kind: .unprovable)
        default: throw RulesEvalError(RulesMessages.undefinedProperty(name), at: p)
        }
    }

    /// `r[i]`: list and string by int (UTF-16 units), map by key, path by int or binding name.
    static func index(_ r: RulesValue, _ i: RulesValue, at p: SourcePosition) throws(RulesEvalError) -> RulesValue {
        switch (r, i) {
        case (.list(let l), .int(let n)):
            guard n >= 0, n < Int64(l.count) else { throw RulesEvalError(RulesMessages.indexOutOfBounds(n, size: l.count), at: p) }
            return l[Int(n)]
        case (.string(let s), .int(let n)):
            let units = Array(s.utf16)
            guard n >= 0, n < Int64(units.count) else { throw RulesEvalError(RulesMessages.indexOutOfBounds(n, size: units.count), at: p) }
            return .string(String(decoding: [units[Int(n)]], as: UTF16.self))
        case (.map, .string(let k)): return try member(r, k, at: p)
        case (.path(let path), .int(let n)):
            guard n >= 0, n < Int64(path.segments.count) else {
                throw RulesEvalError(RulesMessages.indexOutOfBounds(n, size: path.segments.count), at: p)
            }
            return .string(path.segments[Int(n)])
        case (.path, .string(let k)): return try member(r, k, at: p)
        case (.null, _): throw RulesEvalError(RulesMessages.nullValue, at: p)
        case (.constraint, _): throw RulesEvalError("", at: p, kind: .unprovable)
        default:
            throw RulesEvalError(
                RulesMessages.unsupported(
                    "\(r.typeName)[\(i.typeName)]", expected: ["list[int]", "string[int]", "map[string]", "path[int]", "path[string]"]),
                at: p)
        }
    }

    /// `r[i:j]`: half-open, no clamping (docs/reference/security-rules.md §2.4), with the emulator's bound checks: a
    /// given `i` must lie in `[0, size)`, a given `j` must have `j - 1` in `[0, size)`, then
    /// `j < i` is an illegal range. So `'abc'[1:1]` is `''` but `'abc'[0:0]` and `'abc'[3:3]`
    /// are errors, while `''[:]` is `''` (corpus str.s21, s35–s40, lst.l12, l25, l26).
    static func slice(_ r: RulesValue, _ lower: RulesValue?, _ upper: RulesValue?, at p: SourcePosition) throws(RulesEvalError)
        -> RulesValue
    {
        func bound(_ v: RulesValue?) throws(RulesEvalError) -> Int64? {
            guard let v else { return nil }
            guard case .int(let n) = v else {
                throw RulesEvalError(
                    RulesMessages.unsupported("slice with \(v.typeName)", expected: ["list[int:int]", "string[int:int]"]), at: p)
            }
            return n
        }
        switch r {
        case .list(let l):
            let range = try checkedRange(try bound(lower), try bound(upper), l.count, at: p)
            return .list(Array(l[range]))
        case .string(let s):
            let units = Array(s.utf16)
            let range = try checkedRange(try bound(lower), try bound(upper), units.count, at: p)
            return .string(String(decoding: units[range], as: UTF16.self))
        case .null: throw RulesEvalError(RulesMessages.nullValue, at: p)
        default:
            throw RulesEvalError(
                RulesMessages.unsupported("\(r.typeName)[int:int]", expected: ["list[int:int]", "string[int:int]"]), at: p)
        }
    }

    /// The half-open range `lower..<upper` of a slice over `size` elements, omitted bounds
    /// meaning the ends.
    /// - Throws: `Index out of bound error` for a given bound outside the value, `Illegal range
    ///   error` when the upper bound is below the lower.
    private static func checkedRange(_ lower: Int64?, _ upper: Int64?, _ size: Int, at p: SourcePosition) throws(RulesEvalError)
        -> Range<Int>
    {
        let n = Int64(size)
        if let a = lower, a < 0 || a >= n { throw RulesEvalError(RulesMessages.indexOutOfBounds(a, size: size), at: p) }
        // `j - 1` wraps as the emulator's Java long does (no trap for `Int64.min`).
        if let b = upper, b <= 0 || b > n { throw RulesEvalError(RulesMessages.indexOutOfBounds(b &- 1, size: size), at: p) }
        let a = lower ?? 0
        let b = upper ?? n
        if b < a { throw RulesEvalError(RulesMessages.illegalRange(from: a, to: b), at: p) }
        return Int(a)..<Int(b)
    }
}

extension RulesValue {
    /// True when the value is, or holds, a synthetic partial map (list evaluation, docs/reference/security-rules.md §7).
    var containsPartialMap: Bool {
        switch self {
        case .map(let m): return !m.isConvertedDocument && (m.isPartial || m.entries.values.contains { $0.containsPartialMap })
        case .list(let l): return l.contains { $0.containsPartialMap }
        default: return false
        }
    }

    /// The number as a Double, nil for non-numbers.
    var asDouble: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .float(let d): return d
        default: return nil
        }
    }
}
