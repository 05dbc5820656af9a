/// What a `StructuredAggregationQuery` may hold, and which documents it aggregates.
/// Source: googleapis `query.proto` (StructuredAggregationQuery: "a minimum of one and maximum
/// of five aggregations per query"); the emulator's answers in
/// Tests/Conformance/aggregation_cases.json.
extension Aggregation {
    /// The most aggregations one query may hold (query.proto).
    public static let maxPerQuery = 5

    /// Why a `count`'s `up_to` is refused, or nil when it is fine: a negative one in the
    /// emulator's words; zero because query.proto requires "greater than zero when present"
    /// (the emulator counts up to 0 and answers 0).
    public static func invalidUpToMessage(_ upTo: Int64) -> String? {
        if upTo < 0 { return "The `up_to` value in a COUNT aggregation must be greater than or equal to zero." }
        if upTo == 0 { return "The `up_to` value in a COUNT aggregation must be greater than zero." }
        return nil
    }

    /// The field a `sum` or `avg` reads; nil for `count`.
    public var field: FieldPath? {
        switch kind {
        case .count: return nil
        case .sum(let f), .avg(let f): return f
        }
    }

    /// Checks a list of aggregations whose aliases are already resolved (`field_N` for unnamed
    /// ones), in the emulator's order of checks and with its messages.
    /// - Throws: `.invalidArgument` "Aggregations can not be empty." for none; for more than
    ///   five (the emulator answers 500 UNKNOWN there; production answers INVALID_ARGUMENT,
    ///   firebase/flutterfire#12193); "The property.name \"__x__\" is reserved." for an
    ///   alias `__…__` (at least one character between the underscores), "The property.name is
    ///   longer than 1500 bytes." for a longer alias (UTF-8); "Aggregation aliases contain
    ///   duplicate alias: A." for a repeated alias; "Aggregations are not supported for the
    ///   property: __key__" for a `sum`/`avg` of `__name__`.
    public static func validate(_ aggregations: [Aggregation]) throws(FirestoreError) {
        if aggregations.isEmpty { throw .invalidArgument("Aggregations can not be empty.") }
        if aggregations.count > maxPerQuery {
            throw .invalidArgument(
                "Too many aggregations: \(aggregations.count); a query may hold at most \(maxPerQuery).")
        }
        for a in aggregations {
            let alias = a.alias
            if alias.utf8.count > 4 && alias.hasPrefix("__") && alias.hasSuffix("__") {
                throw .invalidArgument("The property.name \"\(alias)\" is reserved.")
            }
            if alias.utf8.count > 1500 { throw .invalidArgument("The property.name is longer than 1500 bytes.") }
        }
        var seen = Set<String>()
        for a in aggregations where !seen.insert(a.alias).inserted {
            throw .invalidArgument("Aggregation aliases contain duplicate alias: \(a.alias).")
        }
        for a in aggregations {
            if let f = a.field, f.isDocumentKey {
                throw .invalidArgument("Aggregations are not supported for the property: __key__")
            }
        }
    }
}

extension StructuredQuery {
    /// The query whose results `aggregations` are computed over: this query with every
    /// `sum`/`avg` field ordered on.
    ///
    /// Firestore computes sums and averages from the field's index, so the aggregated fields
    /// act like an implicit `orderBy`: documents lacking one are left out (of a `count` beside
    /// it too), and `offset`/`limit` apply in that order. The fields come after the query's own
    /// order (explicit entries, then inequality fields), lexicographically, in the direction of
    /// the last explicit entry, before the `__name__` tie-break. E.g. `limit(12).sum("x")`
    /// sums the 12 smallest `x` values. Observed on the emulator
    /// (Tests/Conformance/aggregation_cases.json) and asserted against production by
    /// google-cloud-firestore's `test_sum_query_get_with_limit`.
    public func scanned(for aggregations: [Aggregation]) -> StructuredQuery {
        let fields = Set(aggregations.compactMap(\.field)).filter { !$0.isDocumentKey }
        guard !fields.isEmpty else { return self }
        var order = normalizedOrderBy
        let explicitKey = orderBy.contains { $0.field.isDocumentKey }
        // A cursor that reaches the implicit `__name__` (Hearth takes one; the emulator refuses
        // it) keeps `__name__` before the summed fields, so its values keep their meaning.
        let cursorLength = max(startAt?.values.count ?? 0, endAt?.values.count ?? 0)
        var key: Order?
        if !explicitKey, cursorLength < order.count, let last = order.last, last.field.isDocumentKey {
            key = order.removeLast()
        }
        let ordered = Set(order.map(\.field))
        let direction = orderBy.last?.direction ?? .ascending
        for f in fields.sorted() where !ordered.contains(f) { order.append(Order(f, direction)) }
        if let key { order.append(key) }
        var q = self
        q.orderBy = order
        return q
    }
}
