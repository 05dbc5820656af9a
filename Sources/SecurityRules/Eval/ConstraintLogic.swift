import FirestoreModel

/// How rules operators treat a query constraint during `list` evaluation (docs/reference/security-rules.md §7 item 5).
///
/// A comparison `c OP v` is `true` only when one of the field's filters implies it for every
/// document the query can return; otherwise it is an *unprovable* error, never `false`, so
/// no negation can turn ignorance into a grant. Where the emulator is laxer (it lets
/// `EQ 1.0` imply `!= 1`, and answers `c in list` with `false`) this stays sound instead
/// and says so here: zero false allows.
enum ConstraintLogic {
    /// The error for a comparison the constraints cannot prove.
    static func unprovable(_ p: SourcePosition) -> RulesEvalError { RulesEvalError("", at: p, kind: .unprovable) }

    /// `c op v` (or `v op c` when `constraintOnLeft` is false).
    static func compare(_ op: RulesBinaryOperator, _ c: RulesConstraint, _ v: RulesValue, constraintOnLeft: Bool, at p: SourcePosition)
        throws(RulesEvalError) -> RulesValue
    {
        if case .constraint = v { throw unprovable(p) }
        var normalized = op
        if !constraintOnLeft {
            switch op {
            case .less: normalized = .greater
            case .lessOrEqual: normalized = .greaterOrEqual
            case .greater: normalized = .less
            case .greaterOrEqual: normalized = .lessOrEqual
            case .in:
                // `v in c`: true when the field is filtered with array-contains v.
                if c.pairs.contains(where: { $0.comparator == .listContains && RulesValue.rulesEqual($0.value, v) }) { return .bool(true) }
                throw unprovable(p)
            default: break
            }
        } else if op == .in {
            // `c in list`: true when an equality filter pins the field to a member.
            if case .list(let items) = v,
                c.pairs.contains(where: { pair in pair.comparator == .eq && items.contains { RulesValue.rulesEqual($0, pair.value) } })
            {
                return .bool(true)
            }
            throw unprovable(p)
        }
        switch normalized {
        case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual:
            if normalized == .notEqual, case .null = v { return .bool(true) }
            if c.pairs.contains(where: { implies($0, normalized, v) }) { return .bool(true) }
            throw unprovable(p)
        default:
            throw unprovable(p)
        }
    }

    /// Whether every document value `x` with `x <pair> pair.value` satisfies `x op v`.
    static func implies(_ pair: RulesConstraint.Pair, _ op: RulesBinaryOperator, _ v: RulesValue) -> Bool {
        let f = pair.value
        switch pair.comparator {
        case .eq:
            switch op {
            case .equal: return RulesValue.rulesEqual(f, v)
            case .notEqual: return !RulesValue.rulesEqual(f, v) && order(f, v) != nil || differentFamilies(f, v)
            default:
                guard let o = order(f, v) else { return false }
                return satisfies(o, op)
            }
        case .neq:
            return op == .notEqual && RulesValue.rulesEqual(f, v)
        case .gt, .gte, .lt, .lte:
            guard let o = order(f, v) else { return false }
            switch (pair.comparator, op) {
            case (.gt, .greater), (.gt, .greaterOrEqual), (.gt, .notEqual): return o != .less
            case (.gte, .greater), (.gte, .notEqual): return o == .greater
            case (.gte, .greaterOrEqual): return o != .less
            case (.lt, .less), (.lt, .lessOrEqual), (.lt, .notEqual): return o != .greater
            case (.lte, .less), (.lte, .notEqual): return o == .less
            case (.lte, .lessOrEqual): return o != .greater
            default: return false
            }
        case .listContains:
            return false
        }
    }

    private static func satisfies(_ o: Ordering, _ op: RulesBinaryOperator) -> Bool {
        switch op {
        case .less: return o == .less
        case .lessOrEqual: return o != .greater
        case .greater: return o == .greater
        case .greaterOrEqual: return o != .less
        default: return false
        }
    }

    /// Order of a filter operand against a rule value, when the filter's matches are ordered
    /// the same way by the query and by the rules: an int filter compares with any number, a
    /// float filter only with floats; strings only when UTF-8 and UTF-16 orders agree; bools
    /// `false < true`; timestamps. Nil otherwise.
    static func order(_ f: RulesValue, _ v: RulesValue) -> Ordering? {
        switch (f, v) {
        case (.int, .int), (.int, .float), (.float, .float), (.timestamp, .timestamp):
            return Operators.compare(f, v)
        case (.string(let a), .string(let b)):
            let u16 = Operators.compare(f, v)
            return u16 == compareUTF8(a, b) ? u16 : nil
        case (.bool(let a), .bool(let b)):
            return a == b ? .equal : (a ? .greater : .less)
        default:
            return nil
        }
    }

    /// True when the filter value and the rule value are of unrelated kinds, so every
    /// document equal to the filter value differs from the rule value.
    private static func differentFamilies(_ f: RulesValue, _ v: RulesValue) -> Bool {
        if f.asDouble != nil && v.asDouble != nil { return false }
        return f.kind != v.kind && !(f.kind == .null || v.kind == .null) || (f.kind == .null) != (v.kind == .null)
    }

    /// `c.hasAny(list)` / `c.hasAll(list)` on an array-contains constraint.
    static func method(_ name: String, _ c: RulesConstraint, _ args: [RulesValue], at p: SourcePosition) throws(RulesEvalError)
        -> RulesValue
    {
        guard args.count == 1, case .list(let items) = args[0] else { throw unprovable(p) }
        let contained = c.pairs.filter { $0.comparator == .listContains }.map(\.value)
        func has(_ x: RulesValue) -> Bool { contained.contains { RulesValue.rulesEqual($0, x) } }
        switch name {
        case "hasAny": if items.contains(where: has) { return .bool(true) }
        case "hasAll": if !items.isEmpty && items.allSatisfy(has) { return .bool(true) }
        default: break
        }
        throw unprovable(p)
    }
}
