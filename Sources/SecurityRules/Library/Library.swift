/// The built-in table: every method and function of docs/reference/security-rules.md §4, looked up by
/// (receiver type, name) or by qualified name. Entries live in `Library+<Type>.swift`.
enum Library {
    /// Every entry.
    static let entries: [Builtin] =
        stringEntries + bytesEntries + listEntries + setEntries + mapEntries + mapDiffEntries + pathEntries
        + timestampEntries + durationEntries + latlngEntries + mathEntries + hashingEntries + globalEntries

    /// Methods by receiver type and name.
    static let methods: [RulesType: [String: Builtin]] = {
        var t: [RulesType: [String: Builtin]] = [:]
        for e in entries { if let r = e.receiver { t[r, default: [:]][e.name] = e } }
        return t
    }()

    /// Global and namespace functions by qualified name.
    static let functions: [String: Builtin] = {
        var t: [String: Builtin] = [:]
        for e in entries where e.receiver == nil { t[e.name] = e }
        return t
    }()

    /// Calls `name` on `receiver`.
    /// - Throws: `Null value error.` on a null receiver, `Function not found error` when the
    ///   type has no such method, or the method's own error.
    static func callMethod(_ name: String, on receiver: RulesValue, args: [RulesValue], evaluation: Evaluation, at p: SourcePosition)
        throws(RulesEvalError) -> RulesValue
    {
        switch receiver {
        case .null: throw RulesEvalError(RulesMessages.nullValue, at: p)
        case .constraint(let c): return try ConstraintLogic.method(name, c, args, at: p)
        case .map(let m) where m.isPartial && name == "keys" && args.isEmpty:
            return partialKeys(m)
        case .map(let m) where m.isPartial && name != "get":
            throw RulesEvalError("", at: p, kind: .unprovable)
        default: break
        }
        guard let entry = methods[receiver.kind]?[name] else {
            throw RulesEvalError(RulesMessages.functionNotFound(name), at: p)
        }
        return try invoke(entry, receiver: receiver, args: args, evaluation: evaluation, at: p)
    }

    /// `keys()` of the synthetic `resource` / `resource.data` of a `list` evaluation: what
    /// every document the query can return is known to hold, and nothing more.
    ///
    /// Every field filter (`==`, `<`, `!=`, `not-in`, `array-contains`, `is null` …) matches
    /// only documents that have the field, so each filtered field is certainly a key; whether a
    /// document has other keys is unknown. The keys are therefore a constraint of
    /// `LIST_CONTAINS` pairs: `'a' in keys`, `keys.hasAll([...])` and `keys.hasAny([...])` are
    /// true when the filtered fields prove them, and everything else — `size()`, `==`,
    /// `hasOnly`, a key the query does not filter on — is unprovable, so the query is denied.
    ///
    /// This is production's rule ("rules are not filters": a query is allowed only when the
    /// rule holds for every document it could return, https://firebase.google.com/docs/firestore/security/rules-query),
    /// not the emulator's, which gives a list of exactly the filtered fields and so lets
    /// `!resource.data.keys().hasAll(['secret'])` through for a query that does not filter on
    /// `secret` (firebase-tools #4420; corpus query.k01, qkeys.k01, k03–k05 marked "production differs").
    static func partialKeys(_ m: RulesMap) -> RulesValue {
        .constraint(RulesConstraint(pairs: m.sortedKeys.map { .init(comparator: .listContains, value: .string($0)) }))
    }

    /// Runs an entry after checking the argument count.
    static func invoke(_ entry: Builtin, receiver: RulesValue?, args: [RulesValue], evaluation: Evaluation, at p: SourcePosition)
        throws(RulesEvalError) -> RulesValue
    {
        let call = Builtin.Call(
            name: entry.name, receiver: receiver ?? .null, args: args, evaluation: evaluation, position: p, signatures: entry.signatures)
        guard entry.arity.contains(args.count) else { throw call.unsupported() }
        return try entry.run(call)
    }

    /// One line per entry: `signature — doc`, for documentation and the CLI.
    static var reference: String {
        entries.flatMap { e in e.signatures.map { "\($0) — \(e.doc)" } }.joined(separator: "\n")
    }
}
