import FirestoreModel

/// Chooses how the SQLite store reads a query's candidates (query model → `QueryPlan`).
///
/// Rules, in order:
/// 0. A composite index of `composites` that serves the query (`compositePlan`) is read first.
/// 1. Among the top-level AND conjuncts, pick the most selective indexable filter by a fixed
///    rank (no statistics): `==` / `IS NULL` / `IS NAN` < `in` < `array-contains` <
///    `array-contains-any` < range (`<`, `<=`, `>`, `>=`) < OR of indexable branches. A tie
///    goes to the filter on the first orderBy field (its stream is in query order).
///    `!=`, `not-in`, `IS NOT NULL`, `IS NOT NAN` and `__name__` filters are not picked:
///    they select most of the collection; the orderBy scan below is as good and ordered.
/// 2. Otherwise scan the first normalised orderBy field's index (every document that can
///    match has that field), or the documents in name order when that field is `__name__`.
/// 3. Range constraints of every conjunct on the chosen field are intersected into its
///    ranges; when the stream is in query order, so are the cursor bounds.
///
/// The plan only narrows candidates; correctness never depends on it, because every
/// candidate is checked with the query's full semantics.
enum QueryPlanner {
    /// Plans `target` in `database` (used to read `__name__` cursors), given the built
    /// composite indexes (normalised) of its collection id.
    static func plan(_ target: QueryTarget, in database: DatabaseID, composites: [CompositeIndex] = []) -> QueryPlan {
        let query = target.query
        let order = query.normalizedOrderBy
        let scope: SingleFieldIndex.QueryScope = query.allDescendants ? .collectionGroup : .collection
        let conjuncts = query.filter.map(flattenAnd) ?? []
        let first = order.first ?? Order(.documentKey)
        if query.allDescendants && query.collectionID.isEmpty {
            // Every collection under the parent (the clients' `recursive()` query): no field
            // index spans collections, so read documents in name order.
            return orderScan(order: [Order(.documentKey, first.field.isDocumentKey ? first.direction : .ascending)],
                query: query, target: target, scope: scope, database: database)
        }
        if !composites.isEmpty,
            let plan = compositePlan(target, conjuncts: conjuncts, composites: composites, database: database)
        {
            return plan
        }

        var best: Candidate?
        for leaf in conjuncts {
            guard var c = candidate(for: leaf, conjuncts: conjuncts, target: target, database: database) else { continue }
            c.onFirstOrder = c.field == first.field && c.mode == .ordered
            if best.map({ c.isBetter(than: $0) }) ?? true { best = c }
        }

        guard let chosen = best else { return orderScan(order: order, query: query, target: target, scope: scope, database: database) }
        if let union = chosen.union { return QueryPlan(accesses: union, streamOrder: .unordered) }
        guard let field = chosen.field else { return QueryPlan(accesses: [], streamOrder: .unordered) }
        let index = SingleFieldIndex(collectionID: query.collectionID, field: field, mode: chosen.mode, queryScope: scope)
        var ranges = chosen.ranges

        // Which order does the stream follow? A single point pins the field, so within it
        // entries run in name order.
        if ranges.count == 1, ranges[0].isPoint {
            var rest = order[...]
            if chosen.mode == .ordered { rest = rest.drop { $0.field == field } }
            if let next = rest.first, next.field.isDocumentKey {
                return QueryPlan(accesses: [.index(index, ranges: ranges, direction: next.direction)], streamOrder: .path)
            }
            return QueryPlan(accesses: [.index(index, ranges: ranges, direction: .ascending)], streamOrder: .unordered)
        }
        if chosen.onFirstOrder {
            let bounds = cursorRange(query: query, direction: first.direction) { OrderedKey.value($0) }
            ranges = ranges.compactMap { $0.intersection(bounds) }
            if first.direction == .descending { ranges.reverse() }
            return QueryPlan(accesses: [.index(index, ranges: ranges, direction: first.direction)], streamOrder: .indexValue)
        }
        return QueryPlan(accesses: [.index(index, ranges: ranges, direction: .ascending)], streamOrder: .unordered)
    }

    /// An indexable filter and what reading it costs.
    private struct Candidate {
        /// Lower is more selective.
        var rank: Int
        var field: FieldPath?
        var mode: SingleFieldIndex.Mode = .ordered
        /// Sorted ascending and disjoint; empty = the filter matches nothing.
        var ranges: [KeyRange] = []
        /// For an OR: the union of its branches' accesses.
        var union: [QueryPlan.Access]?
        var onFirstOrder = false

        func isBetter(than other: Candidate) -> Bool {
            if rank != other.rank { return rank < other.rank }
            return onFirstOrder && !other.onFirstOrder
        }
    }

    /// The leaves and ORs of an AND tree.
    static func flattenAnd(_ filter: Filter) -> [Filter] {
        if case .composite(.and, let fs) = filter { return fs.flatMap(flattenAnd) }
        return [filter]
    }

    private static func candidate(
        for leaf: Filter, conjuncts: [Filter], target: QueryTarget, database: DatabaseID
    ) -> Candidate? {
        switch leaf {
        case .unary(let field, let op):
            guard !field.isDocumentKey else { return nil }
            switch op {
            case .isNull: return pointCandidate(field, .null, conjuncts: conjuncts)
            case .isNaN: return pointCandidate(field, .double(.nan), conjuncts: conjuncts)
            case .isNotNull, .isNotNaN: return nil
            }
        case .field(let field, let op, let operand):
            guard !field.isDocumentKey else { return nil }
            switch op {
            case .equal:
                return pointCandidate(field, operand, conjuncts: conjuncts)
            case .in:
                guard case .array(let options) = operand else { return nil }
                let constraint = rangeConstraint(on: field, conjuncts: conjuncts)
                let ranges = uniqueSortedKeys(options).compactMap { KeyRange.point($0).intersection(constraint) }
                return Candidate(rank: 1, field: field, ranges: ranges)
            case .arrayContains:
                return Candidate(rank: 2, field: field, mode: .arrayContains, ranges: [.point(OrderedKey.value(operand))])
            case .arrayContainsAny:
                guard case .array(let options) = operand else { return nil }
                return Candidate(rank: 3, field: field, mode: .arrayContains, ranges: uniqueSortedKeys(options).map(KeyRange.point))
            case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
                let constraint = rangeConstraint(on: field, conjuncts: conjuncts)
                return Candidate(rank: 4, field: field, ranges: constraint.isEmpty ? [] : [constraint])
            case .notEqual, .notIn:
                return nil
            }
        case .composite(.or, let branches):
            var accesses: [QueryPlan.Access] = []
            for branch in branches {
                let sub = plan(QueryTarget(parent: target.parent, query: StructuredQuery(
                    collectionID: target.query.collectionID, allDescendants: target.query.allDescendants, filter: branch)),
                    in: database)
                // A branch that needs a scan of everything (a whole index, or the documents)
                // makes the union a scan too.
                for access in sub.accesses {
                    if case .index(let index, let ranges, _) = access, !ranges.contains(.all) {
                        accesses.append(.index(index, ranges: ranges, direction: .ascending))
                    } else {
                        return nil
                    }
                }
            }
            return Candidate(rank: 5, union: accesses)
        case .composite(.and, _):
            return nil  // flattened by the caller
        }
    }

    private static func pointCandidate(_ field: FieldPath, _ value: Value, conjuncts: [Filter]) -> Candidate {
        let ranges = KeyRange.point(OrderedKey.value(value)).intersection(rangeConstraint(on: field, conjuncts: conjuncts))
        return Candidate(rank: 0, field: field, ranges: ranges.map { [$0] } ?? [])
    }

    /// The intersection of every `==`, `<`, `<=`, `>`, `>=`, `IS NULL`, `IS NAN` conjunct on
    /// `field`, as a key range (`.all` when there is none).
    static func rangeConstraint(on field: FieldPath, conjuncts: [Filter]) -> KeyRange {
        var result = KeyRange.all
        for leaf in conjuncts {
            let r: KeyRange?
            switch leaf {
            case .field(field, let op, let v): r = range(op, v)
            case .unary(field, .isNull): r = .point(OrderedKey.value(.null))
            case .unary(field, .isNaN): r = .point(OrderedKey.value(.double(.nan)))
            default: r = .all
            }
            guard let r, let next = result.intersection(r) else { return .empty }
            result = next
        }
        return result
    }

    /// The keys a single range or equality filter can match; nil when it matches nothing
    /// (a range against NaN). Ranges stay within the operand's type group (docs/reference/firestore-wire.md §1.5).
    private static func range(_ op: FieldOperator, _ v: Value) -> KeyRange? {
        let key = OrderedKey.value(v)
        let groupStart = KeyRange.Bound(key: OrderedKey.typeGroupStart(of: v), inclusive: true)
        let groupEnd = KeyRange.Bound(key: OrderedKey.typeGroupEnd(of: v), inclusive: false)
        switch op {
        case .equal: return .point(key)
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
            if v.isNaN { return nil }
            switch op {
            case .lessThan: return KeyRange(lower: groupStart, upper: .init(key: key, inclusive: false))
            case .lessThanOrEqual: return KeyRange(lower: groupStart, upper: .init(key: key, inclusive: true))
            case .greaterThan: return KeyRange(lower: .init(key: key, inclusive: false), upper: groupEnd)
            default: return KeyRange(lower: .init(key: key, inclusive: true), upper: groupEnd)
            }
        default: return .all
        }
    }

    /// Distinct keys of `values`, ascending (so `1` and `1.0` are read once).
    private static func uniqueSortedKeys(_ values: [Value]) -> [[UInt8]] {
        Array(Set(values.map(OrderedKey.value))).sorted(by: bytesLess)
    }

    /// The plan when no filter is indexable: scan by the first normalised orderBy field.
    private static func orderScan(
        order: [Order], query: StructuredQuery, target: QueryTarget, scope: SingleFieldIndex.QueryScope,
        database: DatabaseID
    ) -> QueryPlan {
        let first = order.first ?? Order(.documentKey)
        if first.field.isDocumentKey {
            let range = cursorRange(query: query, direction: first.direction) { value -> [UInt8]? in
                guard case .reference(let name) = value, let path = try? database.path(fromName: name) else { return nil }
                return OrderedKey.path(path)
            }
            return QueryPlan(accesses: [.documents(range: range, direction: first.direction)], streamOrder: .path)
        }
        let index = SingleFieldIndex(collectionID: query.collectionID, field: first.field, queryScope: scope)
        let range = cursorRange(query: query, direction: first.direction) { OrderedKey.value($0) }
        return QueryPlan(accesses: [.index(index, ranges: [range], direction: first.direction)], streamOrder: .indexValue)
    }

    /// Key bounds implied by the cursors' first values on the first orderBy field.
    ///
    /// A one-value cursor is exact (`startAfter` / `endBefore` exclude the key); with more
    /// values the first key is included and later fields decide. `key` returns nil when a
    /// value gives no usable bound.
    private static func cursorRange(query: StructuredQuery, direction: Direction, key: (Value) -> [UInt8]?) -> KeyRange {
        var range = KeyRange.all
        // In key order, the start cursor bounds the low end when ascending, the high end when descending.
        if let start = query.startAt, let v = start.values.first, let k = key(v) {
            let bound = KeyRange.Bound(key: k, inclusive: start.values.count > 1 || start.before)
            if direction == .ascending { range.lower = bound } else { range.upper = bound }
        }
        if let end = query.endAt, let v = end.values.first, let k = key(v) {
            let bound = KeyRange.Bound(key: k, inclusive: end.values.count > 1 || !end.before)
            if direction == .ascending { range.upper = bound } else { range.lower = bound }
        }
        return range
    }
}

