/// `list` and `set` methods (docs/reference/security-rules.md §4.5, §4.8). Membership is hashed, so `hasAll` over
/// large lists is O(n + m) and charged to the work budget.
extension Library {
    /// The receiver as a list.
    static func receiverList(_ c: Builtin.Call) -> [RulesValue] {
        if case .list(let l) = c.receiver { return l }
        return []
    }

    /// The argument types `string()` accepts, in the emulator's order (its error text).
    static let stringFormSignatures = ["int", "float", "null", "string", "bool", "path"].map { "string(\($0))" }

    /// The receiver as a set.
    static func receiverSet(_ c: Builtin.Call) -> RulesSet {
        if case .set(let s) = c.receiver { return s }
        return RulesSet([])
    }

    /// A membership index: hashed keys of the values that have one (see `RulesValueKey`).
    struct Membership {
        /// Hashed keys of the indexed values.
        var keys = Set<RulesValueKey>()
        /// How numbers compare: `.strict` for lists, `.setMember` for sets.
        let comparison: RulesValueKey.NumberComparison

        /// Indexes `values`.
        init(_ values: [RulesValue], _ comparison: RulesValueKey.NumberComparison) {
            self.comparison = comparison
            for v in values { if let k = RulesValueKey(v, comparison) { keys.insert(k) } }
        }

        /// True when `v` equals an indexed value.
        func contains(_ v: RulesValue) -> Bool {
            guard let k = RulesValueKey(v, comparison) else { return false }
            return keys.contains(k)
        }
    }

    /// `list` methods (docs/reference/security-rules.md §4.5).
    static let listEntries: [Builtin] = [
        Builtin("size", on: .list, ["list.size() -> int"], arity: 0...0, doc: "Number of elements.") { c in
            .int(Int64(receiverList(c).count))
        },
        Builtin(
            "hasAll", on: .list, ["list.hasAll(list) -> bool"], arity: 1...1,
            doc: "Every element of the argument is in the list."
        ) {
            c throws(RulesEvalError) in
            let other = try c.list(0)
            let mine = receiverList(c)
            try c.charge(mine.count + other.count)
            let index = Membership(mine, .strict)
            return .bool(other.allSatisfy(index.contains))
        },
        Builtin(
            "hasAny", on: .list, ["list.hasAny(list) -> bool"], arity: 1...1,
            doc: "Some element of the argument is in the list."
        ) {
            c throws(RulesEvalError) in
            let other = try c.list(0)
            let mine = receiverList(c)
            try c.charge(mine.count + other.count)
            let index = Membership(mine, .strict)
            return .bool(other.contains(where: index.contains))
        },
        Builtin(
            "hasOnly", on: .list, ["list.hasOnly(list) -> bool"], arity: 1...1,
            doc: "Every element of the list is in the argument."
        ) {
            c throws(RulesEvalError) in
            let other = try c.list(0)
            let mine = receiverList(c)
            try c.charge(mine.count + other.count)
            let index = Membership(other, .strict)
            return .bool(mine.allSatisfy(index.contains))
        },
        Builtin("concat", on: .list, ["list.concat(list) -> list"], arity: 1...1, doc: "Appended copy, no dedupe.") {
            c throws(RulesEvalError) in
            let other = try c.list(0)
            let mine = receiverList(c)
            // Building a new list: charged more than a scan, so nested doubling stays small.
            try c.charge(8 * (mine.count + other.count))
            return .list(mine + other)
        },
        Builtin(
            "removeAll", on: .list, ["list.removeAll(list) -> list"], arity: 1...1,
            doc: "Removes every occurrence of each argument element."
        ) {
            c throws(RulesEvalError) in
            let other = try c.list(0)
            let mine = receiverList(c)
            try c.charge(mine.count + other.count)
            let index = Membership(other, .strict)
            return .list(mine.filter { !index.contains($0) })
        },
        Builtin(
            "join", on: .list, ["list.join(string) -> string"], arity: 1...1,
            doc: "Joins the elements' `string()` forms with the separator (corpus lst.l07, l24)."
        ) {
            c throws(RulesEvalError) in
            let sep = try c.string(0)
            let mine = receiverList(c)
            try c.charge(mine.count)
            var parts: [String] = []
            parts.reserveCapacity(mine.count)
            for e in mine {
                // The emulator converts each element as `string()` does and fails as it does.
                guard let text = stringForm(e) else {
                    throw c.fail(RulesMessages.unsupported("string(\(e.typeName))", expected: stringFormSignatures))
                }
                parts.append(text)
            }
            return .string(parts.joined(separator: sep))
        },
        Builtin("toSet", on: .list, ["list.toSet() -> set"], arity: 0...0, doc: "Set of the unique elements.") { c throws(RulesEvalError) in
            let mine = receiverList(c)
            try c.charge(mine.count)
            return .set(RulesSet(mine))
        },
    ]

    /// `set` methods (docs/reference/security-rules.md §4.8).
    static let setEntries: [Builtin] = [
        Builtin("size", on: .set, ["set.size() -> int"], arity: 0...0, doc: "Number of elements.") { c in
            .int(Int64(receiverSet(c).elements.count))
        },
        Builtin(
            "hasAll", on: .set, ["set.hasAll(list) -> bool", "set.hasAll(set) -> bool"], arity: 1...1,
            doc: "Every element of the argument is in the set."
        ) {
            c throws(RulesEvalError) in
            let other = try c.collection(0)
            let mine = receiverSet(c).elements
            try c.charge(mine.count + other.count)
            let index = Membership(mine, .setMember)
            return .bool(other.allSatisfy(index.contains))
        },
        Builtin(
            "hasAny", on: .set, ["set.hasAny(list) -> bool", "set.hasAny(set) -> bool"], arity: 1...1,
            doc: "Some element of the argument is in the set."
        ) {
            c throws(RulesEvalError) in
            let other = try c.collection(0)
            let mine = receiverSet(c).elements
            try c.charge(mine.count + other.count)
            let index = Membership(mine, .setMember)
            return .bool(other.contains(where: index.contains))
        },
        Builtin(
            "hasOnly", on: .set, ["set.hasOnly(list) -> bool", "set.hasOnly(set) -> bool"], arity: 1...1,
            doc: "Every element of the set is in the argument."
        ) {
            c throws(RulesEvalError) in
            let other = try c.collection(0)
            let mine = receiverSet(c).elements
            try c.charge(mine.count + other.count)
            let index = Membership(other, .setMember)
            return .bool(mine.allSatisfy(index.contains))
        },
        Builtin("difference", on: .set, ["set.difference(set) -> set"], arity: 1...1, doc: "Elements of the receiver not in the argument.")
        {
            c throws(RulesEvalError) in
            guard case .set(let other) = c.args[0] else { throw c.unsupported() }
            let mine = receiverSet(c).elements
            try c.charge(mine.count + other.elements.count)
            let index = Membership(other.elements, .setMember)
            return .set(RulesSet(mine.filter { !index.contains($0) }))
        },
        Builtin("union", on: .set, ["set.union(set) -> set"], arity: 1...1, doc: "Elements in either set.") { c throws(RulesEvalError) in
            guard case .set(let other) = c.args[0] else { throw c.unsupported() }
            let mine = receiverSet(c).elements
            try c.charge(mine.count + other.elements.count)
            return .set(RulesSet(mine + other.elements))
        },
        Builtin("intersection", on: .set, ["set.intersection(set) -> set"], arity: 1...1, doc: "Elements in both sets.") {
            c throws(RulesEvalError) in
            guard case .set(let other) = c.args[0] else { throw c.unsupported() }
            let mine = receiverSet(c).elements
            try c.charge(mine.count + other.elements.count)
            let index = Membership(other.elements, .setMember)
            return .set(RulesSet(mine.filter(index.contains)))
        },
    ]
}
