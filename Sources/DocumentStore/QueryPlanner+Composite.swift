import FirestoreModel

/// Composite-index plans (query model → `QueryPlan.Access.composite`).
///
/// A composite index serves a query when its normalised fields are, in order: a prefix of
/// fields pinned by the query's top-level conjuncts (`==`, `IS NULL`, `IS NAN` or `in` on an
/// ordered field, in any order; at most one `array-contains` / `array-contains-any` on its
/// CONTAINS field), then exactly the query's normalised orderBy fields (whose first is the
/// first inequality field), then `__name__`, with every direction after the prefix equal to
/// the query's, or every one opposite (the index is then read backwards). Each combination of
/// pinned values is one key prefix; within it the first orderBy field's range and the cursors
/// bound the scan. With one prefix the entries come in query order, so reading stops after
/// `offset + limit` accepted documents; with several, each prefix's entries do, so reading
/// each stops after that many. Source: docs/reference/indexes.md (composite indexes,
/// index field order).
extension QueryPlanner {
    /// Most prefix combinations (`in` × `array-contains-any` values) read as separate ranges.
    static let maxCompositePrefixes = 1000

    /// The values the top-level conjuncts pin.
    private struct Pins {
        /// `==` / `IS NULL` / `IS NAN`: one key; `in`: its distinct keys (the fewest per field).
        var points: [FieldPath: [[UInt8]]] = [:]
        /// `array-contains`: one key; `array-contains-any`: its distinct keys.
        var contains: [FieldPath: [[UInt8]]] = [:]
        /// True when a conjunct is an OR (no index serves it whole).
        var hasDisjunction = false

        init(_ conjuncts: [Filter]) {
            func pin(_ field: FieldPath, _ keys: [[UInt8]], into table: inout [FieldPath: [[UInt8]]]) {
                guard !field.isDocumentKey else { return }
                if let known = table[field], known.count <= keys.count { return }
                table[field] = keys
            }
            for leaf in conjuncts {
                switch leaf {
                case .unary(let f, .isNull): pin(f, [OrderedKey.value(.null)], into: &points)
                case .unary(let f, .isNaN): pin(f, [OrderedKey.value(.double(.nan))], into: &points)
                case .field(let f, .equal, let v): pin(f, [OrderedKey.value(v)], into: &points)
                case .field(let f, .in, .array(let vs)): pin(f, distinctKeys(vs), into: &points)
                case .field(let f, .arrayContains, let v): pin(f, [OrderedKey.value(v)], into: &contains)
                case .field(let f, .arrayContainsAny, .array(let vs)): pin(f, distinctKeys(vs), into: &contains)
                case .composite(.or, _): hasDisjunction = true
                default: break
                }
            }
        }

        private func distinctKeys(_ values: [Value]) -> [[UInt8]] {
            Array(Set(values.map(OrderedKey.value))).sorted(by: bytesLess)
        }
    }

    /// The best plan on one of `composites` (normalised, of the target's collection id and
    /// scope), or nil when none serves the query's pinned fields and order. A composite that
    /// serves every conjunct is preferred, then the one pinning the most fields.
    static func compositePlan(
        _ target: QueryTarget, conjuncts: [Filter], composites: [CompositeIndex], database: DatabaseID
    ) -> QueryPlan? {
        let query = target.query
        let scope: IndexQueryScope = query.allDescendants ? .collectionGroup : .collection
        let order = query.normalizedOrderBy
        guard let last = order.last, last.field.isDocumentKey,
            !order.dropLast().contains(where: { $0.field.isDocumentKey })
        else { return nil }
        let orderFields = Array(order.dropLast())
        let pins = Pins(conjuncts)

        var best: (score: Int, plan: QueryPlan)?
        for index in composites where index.collectionGroup == query.collectionID && index.queryScope == scope {
            let fields = index.normalizedFields
            guard let name = fields.last, name.fieldPath.isDocumentKey else { continue }
            let body = fields.dropLast()
            guard body.count >= orderFields.count, !body.contains(where: { $0.fieldPath.isDocumentKey }) else { continue }
            let prefixFields = body.prefix(body.count - orderFields.count)
            let ordered = Array(body.suffix(orderFields.count)) + [name]

            // Directions after the prefix: all as the query's, or all opposite.
            var forward = true
            var backward = true
            for (field, o) in zip(ordered, order) {
                guard field.fieldPath == o.field, field.kind != .arrayContains else {
                    forward = false
                    backward = false
                    break
                }
                if (field.kind == .ascending) == (o.direction == .ascending) { backward = false } else { forward = false }
            }
            guard forward || backward else { continue }

            // The pinned prefix: one option list per field.
            guard let options = prefixOptions(prefixFields, pins) else { continue }
            let combinations = options.reduce(1) { $0 * max($1.count, 0) }
            guard combinations <= maxCompositePrefixes else { continue }
            var prefixes: [[UInt8]] = [[]]
            for keys in options { prefixes = prefixes.flatMap { p in keys.map { p + $0 } } }
            prefixes.sort(by: bytesLess)

            let covered = Set(body.map(\.fieldPath))
            let servesWhole =
                !pins.hasDisjunction && pins.points.keys.allSatisfy(covered.contains)
                && pins.contains.keys.allSatisfy { f in prefixFields.contains { $0.fieldPath == f && $0.kind == .arrayContains } }
            guard servesWhole || !prefixFields.isEmpty else { continue }

            var ranges = prefixes.compactMap { prefix in
                scanRange(
                    prefix: prefix, ordered: ordered, backward: backward, target: target, conjuncts: conjuncts,
                    database: database)
            }
            if backward { ranges.reverse() }
            let plan = QueryPlan(
                accesses: [.composite(index, ranges: ranges, direction: backward ? .descending : .ascending)],
                streamOrder: prefixes.count == 1 ? .indexKey : .indexKeyWithinRanges)
            let score = (servesWhole ? 1000 : 0) + prefixFields.count * 10 + (prefixes.count == 1 ? 2 : 0) + (forward ? 1 : 0)
            if best.map({ score > $0.score }) ?? true { best = (score, plan) }
        }
        return best?.plan
    }

    /// The component keys each prefix field can take, or nil when a field is not pinned (or a
    /// second CONTAINS field would be needed).
    private static func prefixOptions(_ fields: ArraySlice<IndexField>, _ pins: Pins) -> [[[UInt8]]]? {
        var options: [[[UInt8]]] = []
        var usedContains = false
        for field in fields {
            switch field.kind {
            case .ascending, .descending:
                guard let keys = pins.points[field.fieldPath] else { return nil }
                options.append(field.kind == .descending ? keys.map(CompositeIndex.inverted) : keys)
            case .arrayContains:
                guard !usedContains, let keys = pins.contains[field.fieldPath] else { return nil }
                usedContains = true
                options.append(keys)
            }
        }
        return options
    }

    /// The entry keys under `prefix` that can match: the range of the first ordered field's
    /// constraints and the cursors, as one `[lower, upper)` range; nil when none can.
    /// `ordered` are the index fields after the prefix, `__name__` last.
    private static func scanRange(
        prefix: [UInt8], ordered: [IndexField], backward: Bool, target: QueryTarget, conjuncts: [Filter],
        database: DatabaseID
    ) -> KeyRange? {
        var range = KeyRange(
            lower: .init(key: prefix, inclusive: true),
            upper: CompositeIndex.successor(ofPrefix: prefix).map { .init(key: $0, inclusive: false) })
        if ordered.count > 1 {
            let values = rangeConstraint(on: ordered[0].fieldPath, conjuncts: conjuncts)
            guard !values.isEmpty,
                let r = componentRange(values, prefix: prefix, descending: ordered[0].kind == .descending),
                let narrowed = range.intersection(r)
            else { return nil }
            range = narrowed
        }
        let query = target.query
        for (cursor, isStart) in [(query.startAt, true), (query.endAt, false)] {
            guard let cursor, !cursor.values.isEmpty else { continue }
            var key = prefix
            var complete = true
            for (value, field) in zip(cursor.values, ordered) {
                let descending = field.kind == .descending
                if field.fieldPath.isDocumentKey {
                    guard case .reference(let n) = value, let p = try? database.path(fromName: n) else {
                        complete = false
                        break
                    }
                    key += CompositeIndex.nameComponent(OrderedKey.path(p), descending: descending)
                } else {
                    key += CompositeIndex.component(value, descending: descending)
                }
            }
            // In query order, a start cursor is `≥ key` (startAt) or `> key` (startAfter) on the
            // cursor's fields, an end cursor `≤ key` (endAt) or `< key` (endBefore); a cursor cut
            // short by an unusable value only bounds by its prefix. Backwards, key order is the
            // reverse of query order.
            let includesKey = isStart ? cursor.before : !cursor.before
            let bound: KeyRange
            if isStart != backward {
                // A lower bound in key order.
                if includesKey || !complete {
                    bound = KeyRange(lower: .init(key: key, inclusive: true), upper: nil)
                } else {
                    guard let next = CompositeIndex.successor(ofPrefix: key) else { return nil }
                    bound = KeyRange(lower: .init(key: next, inclusive: true), upper: nil)
                }
            } else {
                // An upper bound in key order.
                if includesKey || !complete {
                    bound = KeyRange(lower: nil, upper: CompositeIndex.successor(ofPrefix: key).map { .init(key: $0, inclusive: false) })
                } else {
                    bound = KeyRange(lower: nil, upper: .init(key: key, inclusive: false))
                }
            }
            guard let narrowed = range.intersection(bound) else { return nil }
            range = narrowed
        }
        return range
    }

    /// Whole entry keys under `prefix` whose next component is a value in `values` (a range of
    /// `OrderedKey.value` keys whose ends are whole value keys or type-group bytes), for an
    /// ascending or (inverted components) descending field; nil when there are none.
    static func componentRange(_ values: KeyRange, prefix: [UInt8], descending: Bool) -> KeyRange? {
        var lower: KeyRange.Bound? = .init(key: prefix, inclusive: true)
        var upper: KeyRange.Bound? = CompositeIndex.successor(ofPrefix: prefix).map { .init(key: $0, inclusive: false) }
        // `≥ k` is `key ≥ prefix+k`, `> k` is `key ≥ successor(prefix+k)`; `≤ k` is
        // `key < successor(prefix+k)`, `< k` is `key < prefix+k`. Inverted components swap ends.
        func atLeast(_ k: [UInt8], _ inclusive: Bool) -> KeyRange.Bound? {
            let whole = prefix + k
            if inclusive { return .init(key: whole, inclusive: true) }
            return CompositeIndex.successor(ofPrefix: whole).map { .init(key: $0, inclusive: true) }
        }
        func below(_ k: [UInt8], _ inclusive: Bool) -> KeyRange.Bound? {
            let whole = prefix + k
            if !inclusive { return .init(key: whole, inclusive: false) }
            return CompositeIndex.successor(ofPrefix: whole).map { .init(key: $0, inclusive: false) }
        }
        if !descending {
            if let l = values.lower {
                guard let b = atLeast(l.key, l.inclusive) else { return nil }
                lower = b
            }
            if let u = values.upper { upper = below(u.key, u.inclusive) }
        } else {
            if let l = values.lower { upper = below(CompositeIndex.inverted(l.key), l.inclusive) }
            if let u = values.upper {
                guard let b = atLeast(CompositeIndex.inverted(u.key), u.inclusive) else { return nil }
                lower = b
            }
        }
        let r = KeyRange(lower: lower, upper: upper)
        return r.isEmpty ? nil : r
    }
}
