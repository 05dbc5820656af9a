/// `map` and `map_diff` methods (docs/reference/security-rules.md §4.6, §4.7).
extension Library {
    /// The receiver as a map.
    static func receiverMap(_ c: Builtin.Call) -> RulesMap {
        if case .map(let m) = c.receiver { return m }
        return RulesMap([:])
    }

    /// `map` methods (docs/reference/security-rules.md §4.6).
    static let mapEntries: [Builtin] = [
        Builtin("size", on: .map, ["map.size() -> int"], arity: 0...0, doc: "Number of entries.") { c in
            .int(Int64(receiverMap(c).entries.count))
        },
        Builtin("keys", on: .map, ["map.keys() -> list"], arity: 0...0, doc: "The keys as a list (UTF-8 order).") {
            c throws(RulesEvalError) in
            let m = receiverMap(c)
            try c.charge(m.entries.count)
            return .list(m.sortedKeys.map { .string($0) })
        },
        Builtin("values", on: .map, ["map.values() -> list"], arity: 0...0, doc: "The values as a list, in key order.") {
            c throws(RulesEvalError) in
            let m = receiverMap(c)
            try c.charge(m.entries.count)
            return .list(m.sortedKeys.compactMap { m.entries[$0] })
        },
        Builtin(
            "get", on: .map, ["map.get(string, any) -> any", "map.get(list, any) -> any"], arity: 2...2,
            doc: "Value at a key or key path, else the default; never an error for missing steps."
        ) { c throws(RulesEvalError) in
            var keys: [String] = []
            switch c.args[0] {
            case .string(let k): keys = [k]
            case .list(let l):
                for e in l {
                    guard case .string(let k) = e else { throw c.unsupported() }
                    keys.append(k)
                }
            default: throw c.unsupported()
            }
            var current = RulesValue.map(receiverMap(c))
            for k in keys {
                guard case .map(let m) = current else { return c.args[1] }
                if let v = m.entries[k] {
                    current = v
                } else if m.isPartial {
                    // The query does not pin this field: its value is unknown, not absent.
                    throw RulesEvalError("", at: c.position, kind: .unprovable)
                } else {
                    return c.args[1]
                }
            }
            return current
        },
        Builtin("diff", on: .map, ["map.diff(map) -> map_diff"], arity: 1...1, doc: "Shallow comparison with another map.") {
            c throws(RulesEvalError) in
            guard case .map(let other) = c.args[0] else { throw c.unsupported() }
            if other.isPartial { throw RulesEvalError("", at: c.position, kind: .unprovable) }
            return .mapDiff(RulesMapDiff(left: receiverMap(c), right: other))
        },
    ]

    /// The receiver as a map diff.
    static func receiverDiff(_ c: Builtin.Call) -> RulesMapDiff {
        if case .mapDiff(let d) = c.receiver { return d }
        return RulesMapDiff(left: RulesMap([:]), right: RulesMap([:]))
    }

    /// Keys of the diff selected by `keep(inLeft, inRight, equal)`.
    static func diffKeys(_ c: Builtin.Call, _ keep: (RulesValue?, RulesValue?) -> Bool) throws(RulesEvalError) -> RulesValue {
        let d = receiverDiff(c)
        try c.charge(d.left.entries.count + d.right.entries.count)
        // Keys as exact names: `é` and `e`+U+0301 are two keys (a `Set<String>` would merge them).
        var keys = Set(d.left.entries.storage.keys)
        keys.formUnion(d.right.entries.storage.keys)
        let selected = keys.sorted().map(\.string).filter { keep(d.left.entries[$0], d.right.entries[$0]) }
        return .set(RulesSet(selected.map { .string($0) }))
    }

    /// True when two values of one key differ (numbers by value, NaN equal to NaN).
    static func changed(_ a: RulesValue, _ b: RulesValue) -> Bool { !RulesValue.diffEqual(a, b) }

    /// `map_diff` methods (docs/reference/security-rules.md §4.7).
    static let mapDiffEntries: [Builtin] = [
        Builtin("addedKeys", on: .mapDiff, ["map_diff.addedKeys() -> set"], arity: 0...0, doc: "Keys only in the receiver map.") {
            c throws(RulesEvalError) in
            try diffKeys(c) { l, r in l != nil && r == nil }
        },
        Builtin("removedKeys", on: .mapDiff, ["map_diff.removedKeys() -> set"], arity: 0...0, doc: "Keys only in the argument map.") {
            c throws(RulesEvalError) in
            try diffKeys(c) { l, r in l == nil && r != nil }
        },
        Builtin("changedKeys", on: .mapDiff, ["map_diff.changedKeys() -> set"], arity: 0...0, doc: "Keys in both with different values.") {
            c throws(RulesEvalError) in
            try diffKeys(c) { l, r in
                guard let l, let r else { return false }
                return changed(l, r)
            }
        },
        Builtin("unchangedKeys", on: .mapDiff, ["map_diff.unchangedKeys() -> set"], arity: 0...0, doc: "Keys in both with equal values.") {
            c throws(RulesEvalError) in
            try diffKeys(c) { l, r in
                guard let l, let r else { return false }
                return !changed(l, r)
            }
        },
        Builtin("affectedKeys", on: .mapDiff, ["map_diff.affectedKeys() -> set"], arity: 0...0, doc: "Added, removed and changed keys.") {
            c throws(RulesEvalError) in
            try diffKeys(c) { l, r in
                guard let l, let r else { return true }
                return changed(l, r)
            }
        },
    ]
}
