/// Query semantics shared by the engine, the store's post-filter and listen targets:
/// validation, the implicit orderBy, filter matching, cursors and result order.
/// Source: docs/reference/firestore-wire.md §1.5 (production semantics mirrored by firebase-js-sdk `core/filter.ts`).
extension StructuredQuery {
    /// The orderBy the query really has: explicit entries, then inequality fields not yet
    /// ordered (lexicographic), then `__name__`; appended entries take the direction of the
    /// last explicit entry (ascending if none).
    public var normalizedOrderBy: [Order] {
        var result = orderBy
        let direction = orderBy.last?.direction ?? .ascending
        var seen = Set(orderBy.map(\.field))
        let inequalities = (filter?.inequalityFields ?? []).filter { !seen.contains($0) }.sorted()
        for f in inequalities where !f.isDocumentKey {
            result.append(Order(f, direction))
            seen.insert(f)
        }
        if !seen.contains(.documentKey) { result.append(Order(.documentKey, direction)) }
        return result
    }

    /// Checks the query is one Firestore accepts, in the emulator's order of checks and with
    /// its messages (Tests/Conformance/query_cases.json).
    ///
    /// Filters are checked as production documents its limits (firebase.google.com/docs/
    /// firestore/query-data/queries, "Limitations"): one `!=`/`not-in` per query (the emulator
    /// counts `IS_NOT_NAN`/`IS_NOT_NULL` too); `not-in` never with `in`, `array-contains-any`
    /// or `OR`; `in`/`array-contains-any` up to 30 values and `not-in` up to 10; at most one
    /// `array-contains` (or `array-contains-any`) per disjunction; at most 30 disjunctions in
    /// disjunctive normal form.
    /// - Throws: `.invalidArgument` "limit is negative" / "offset is negative"; for an empty
    ///   or slashed collection id; "Only a single 'NOT_EQUAL', 'NOT_IN', 'IS_NOT_NAN', or
    ///   'IS_NOT_NULL' filter allowed per query."; "'NOT_IN' cannot be used in the same query
    ///   with 'IN', 'ARRAY_CONTAINS_ANY' or 'OR'."; operand shapes as `Filter.validate`
    ///   documents; "A maximum of 1 'ARRAY_CONTAINS' filter is allowed per disjunction.";
    ///   "Too many disjunctions after normalization. Result had N disjunctions which is more
    ///   than the maximum of 30"; "Cursor has too many values." for a cursor longer than the
    ///   normalised orderBy (Hearth also takes one for the implicit `__name__`); a `__name__`
    ///   cursor value that is not a reference; an empty orderBy field path.
    public func validate() throws(FirestoreError) {
        // Every field path of the query has at most 20 segments, checked first as the emulator does.
        var paths = (select ?? []) + orderBy.map(\.field)
        filter?.visitAll { f in
            switch f {
            case .field(let p, _, _), .unary(let p, _): paths.append(p)
            case .composite: break
            }
        }
        for p in paths { try DocumentLimits.checkPathSegments(p) }
        if let l = limit, l < 0 { throw .invalidArgument("limit is negative") }
        if offset < 0 { throw .invalidArgument("offset is negative") }
        if collectionID.isEmpty && !allDescendants { throw .invalidArgument("Collection id must not be empty.") }
        if !collectionID.isEmpty {
            if collectionID.contains("/") { throw .invalidArgument("Collection id \"\(collectionID)\" must not contain '/'.") }
            try ResourcePath([collectionID]).validateIDs()
        }
        if let f = filter { try f.validateAsQueryFilter() }
        let order = normalizedOrderBy
        for c in [startAt, endAt].compactMap({ $0 }) where c.values.count > order.count {
            throw .invalidArgument("Cursor has too many values.")
        }
        for c in [startAt, endAt].compactMap({ $0 }) {
            for (v, o) in zip(c.values, order) where o.field.isDocumentKey {
                guard case .reference = v else {
                    throw .invalidArgument("Cursor position for __name__ must be a document reference.")
                }
            }
        }
        for o in orderBy { try validateQueryPath(o.field) }
    }

    /// True when `document` passes the filter and has every orderBy field.
    ///
    /// `order` is `normalizedOrderBy`, passed in by callers that check many documents.
    public func matches(_ document: Document, in database: DatabaseID, order: [Order]? = nil) -> Bool {
        // Every document has a name: only the other order fields can be missing.
        for o in order ?? normalizedOrderBy where !o.field.isDocumentKey && document.value(at: o.field, in: database) == nil {
            return false
        }
        return filter?.matches(document, in: database) ?? true
    }

    /// Compares two documents by the normalised orderBy.
    public func compare(_ a: Document, _ b: Document, in database: DatabaseID, order: [Order]? = nil) -> Ordering {
        for o in order ?? normalizedOrderBy {
            let c: Ordering
            if o.field.isDocumentKey {
                c = a.path == b.path ? .equal : (a.path < b.path ? .less : .greater)
            } else {
                c = Value.compare(a.value(at: o.field, in: database) ?? .null, b.value(at: o.field, in: database) ?? .null)
            }
            if c != .equal { return o.direction == .ascending ? c : c.reversed }
        }
        return .equal
    }

    /// True when `document` is at or after `startAt` and before or at `endAt`.
    public func withinCursors(_ document: Document, in database: DatabaseID, order: [Order]? = nil) -> Bool {
        let order = order ?? normalizedOrderBy
        if let s = startAt {
            let c = Self.compare(document, to: s, order: order, in: database)
            if c == .less || (c == .equal && !s.before) { return false }
        }
        if let e = endAt {
            let c = Self.compare(document, to: e, order: order, in: database)
            if c == .greater || (c == .equal && e.before) { return false }
        }
        return true
    }

    /// Compares a document with a cursor over the cursor's prefix of `order`.
    static func compare(_ document: Document, to cursor: Cursor, order: [Order], in database: DatabaseID) -> Ordering {
        for (v, o) in zip(cursor.values, order) {
            var c: Ordering
            if o.field.isDocumentKey, case .reference(let name) = v {
                let cursorPath = (try? database.path(fromName: name)) ?? ResourcePath(relative: name)
                c = document.path == cursorPath ? .equal : (document.path < cursorPath ? .less : .greater)
            } else {
                c = Value.compare(document.value(at: o.field, in: database) ?? .null, v)
            }
            if o.direction == .descending { c = c.reversed }
            if c != .equal { return c }
        }
        return .equal
    }

    /// Runs the query's semantics over candidate documents: filter, order, cursors, offset, limit.
    ///
    /// The store narrows candidates with its indexes; this is the one place the final
    /// answer is decided. - Complexity: O(n log n) in the candidates.
    /// - Returns: the results and the number skipped by `offset`.
    public func evaluate<S: Sequence>(over candidates: S, target: QueryTarget, in database: DatabaseID)
        -> (documents: [Document], skipped: Int) where S.Element == Document
    {
        let order = normalizedOrderBy
        let docs = candidates.filter {
            target.contains($0.path) && matches($0, in: database, order: order)
                && withinCursors($0, in: database, order: order)
        }
        return ordered(accepted: docs, in: database)
    }

    /// The last steps of `evaluate` for documents already known to be in the target, to
    /// match the filter and to be within the cursors (a store's checked candidates): order,
    /// offset, limit.
    /// - Returns: the results and the number skipped by `offset`.
    ///
    /// `inOrder`: the caller read `accepted` in the normalised order already (a store whose
    /// index stream follows the whole order), so the sort is skipped; debug builds check it.
    public func ordered(accepted: [Document], in database: DatabaseID, inOrder: Bool = false)
        -> (documents: [Document], skipped: Int)
    {
        let order = normalizedOrderBy
        var docs = inOrder ? accepted : Self.sorted(accepted, by: order, in: database)
        assert(
            !inOrder || docs.map(\.path) == Self.sorted(accepted, by: order, in: database).map(\.path),
            "a stream declared in query order was not")
        let skipped = min(offset, docs.count)
        docs.removeFirst(skipped)
        if let l = limit, docs.count > l { docs.removeLast(docs.count - l) }
        return (docs, skipped)
    }
}

extension StructuredQuery {
    /// `documents` sorted by `order` (as `compare` orders them), each document's order values
    /// read once rather than at every comparison: a stored document reads a value from its
    /// bytes, and a sort compares each document about log2(n) times.
    static func sorted(_ documents: [Document], by order: [Order], in database: DatabaseID) -> [Document] {
        guard documents.count > 1 else { return documents }
        let fields = order.map { $0.field.isDocumentKey ? nil : $0.field }
        let keys: [[Value]] = documents.map { d in fields.map { f in f.map { d.value(at: $0, in: database) ?? .null } ?? .null } }
        var indices = Array(documents.indices)
        indices.sort { a, b in
            for (k, o) in order.enumerated() {
                let c: Ordering
                if fields[k] == nil {
                    let pa = documents[a].path
                    let pb = documents[b].path
                    c = pa == pb ? .equal : (pa < pb ? .less : .greater)
                } else {
                    c = Value.compare(keys[a][k], keys[b][k])
                }
                if c != .equal { return (o.direction == .ascending ? c : c.reversed) == .less }
            }
            return false
        }
        return indices.map { documents[$0] }
    }
}

func validateQueryPath(_ p: FieldPath) throws(FirestoreError) {
    if p.segments.isEmpty || p.segments.contains(where: \.isEmpty) {
        throw .invalidArgument("Invalid field path in query.")
    }
}

extension StructuredQuery {
    /// Most disjunctions a filter may have in disjunctive normal form. Source: docs/reference/firestore-wire.md §1.5.
    public static let maxDisjunctions = 30
}

extension Filter {
    /// The checks of a query's whole filter, in the emulator's order (see
    /// `StructuredQuery.validate`).
    /// - Throws: `.invalidArgument` with the emulator's message for the first violation.
    func validateAsQueryFilter() throws(FirestoreError) {
        var negations = 0
        var notIn = false
        var disjunctive = false
        visitAll { f in
            switch f {
            case .field(_, .notEqual, _), .unary(_, .isNotNaN), .unary(_, .isNotNull): negations += 1
            case .field(_, .notIn, _):
                negations += 1
                notIn = true
            case .field(_, .in, _), .field(_, .arrayContainsAny, _), .composite(.or, _): disjunctive = true
            default: break
            }
        }
        if negations > 1 {
            throw .invalidArgument("Only a single 'NOT_EQUAL', 'NOT_IN', 'IS_NOT_NAN', or 'IS_NOT_NULL' filter allowed per query.")
        }
        if notIn && disjunctive {
            throw .invalidArgument("'NOT_IN' cannot be used in the same query with 'IN', 'ARRAY_CONTAINS_ANY' or 'OR'.")
        }
        try validate()
        if arrayContainsPerDisjunction > 1 {
            throw .invalidArgument("A maximum of 1 'ARRAY_CONTAINS' filter is allowed per disjunction.")
        }
        let n = disjunctionCount
        if n > StructuredQuery.maxDisjunctions {
            throw .invalidArgument(
                "Too many disjunctions after normalization. Result had \(n) disjunctions which is more than the maximum of \(StructuredQuery.maxDisjunctions)"
            )
        }
    }

    /// Saturation bound of `disjunctionCount`: far above the limit, far below overflow.
    static let disjunctionCountCap = 1 << 40

    /// The number of disjunctions of the filter in disjunctive normal form, counted without
    /// expanding it: an OR adds its distinct disjuncts (nested ORs flattened, repeats counted
    /// once, as the emulator normalises `a == 1 OR a == 1`), an AND multiplies, an `in` or
    /// `array-contains-any` counts its distinct values. Saturates at `disjunctionCountCap`.
    /// - Complexity: O(n) in the filter's nodes.
    public var disjunctionCount: Int {
        let cap = Self.disjunctionCountCap
        switch self {
        case .composite(.or, _):
            var seen = Set<Filter>()
            var total = 0
            for d in disjuncts where seen.insert(d).inserted { total = min(cap, total + d.disjunctionCount) }
            return total
        case .composite(.and, let fs):
            return fs.reduce(1) { acc, f in
                let n = max(1, f.disjunctionCount)
                return acc > cap / n ? cap : acc * n
            }
        case .field(_, .in, .array(let a)), .field(_, .arrayContainsAny, .array(let a)):
            return max(1, Set(a).count)
        default:
            return 1
        }
    }

    /// The children of an OR with nested ORs (and one-child composites) spliced in.
    var disjuncts: [Filter] {
        guard case .composite(.or, let fs) = self else { return [self] }
        var out: [Filter] = []
        for f in fs {
            switch f {
            case .composite(.or, _): out += f.disjuncts
            case .composite(_, let one) where one.count == 1: out += Filter.composite(.or, one).disjuncts
            default: out.append(f)
            }
        }
        return out
    }

    /// The most `array-contains` filters one disjunction of the DNF holds (an
    /// `array-contains-any` is a disjunction of them), counted without expansion.
    var arrayContainsPerDisjunction: Int {
        switch self {
        case .field(_, .arrayContains, _), .field(_, .arrayContainsAny, _): return 1
        case .composite(.and, let fs): return fs.reduce(0) { $0 + $1.arrayContainsPerDisjunction }
        case .composite(.or, let fs): return fs.map(\.arrayContainsPerDisjunction).max() ?? 0
        default: return 0
        }
    }

    /// Calls `body` for every node, composites included, depth first.
    func visitAll(_ body: (Filter) -> Void) {
        body(self)
        if case .composite(_, let fs) = self { for f in fs { f.visitAll(body) } }
    }

    /// Fields constrained by inequality operators anywhere in the filter: `<`, `<=`, `>`,
    /// `>=`, `!=`, `not-in`, and the unary `IS_NOT_NAN` / `IS_NOT_NULL` (what clients send for
    /// `!= NaN` / `!= null`; the emulator orders their results by the field).
    public var inequalityFields: Set<FieldPath> {
        var out = Set<FieldPath>()
        visit { leaf in
            switch leaf {
            case .field(let p, let op, _) where op.isInequality: out.insert(p)
            case .unary(let p, .isNotNaN), .unary(let p, .isNotNull): out.insert(p)
            default: break
            }
        }
        return out
    }

    /// Calls `body` for every field and unary filter (leaves).
    public func visit(_ body: (Filter) -> Void) {
        switch self {
        case .composite(_, let fs): for f in fs { f.visit(body) }
        default: body(self)
        }
    }

    /// Checks operand shapes, leaf by leaf.
    /// - Throws: `.invalidArgument` "Composite filter must have at least one sub-filter." for
    ///   an empty OR; "'IN' requires an ArrayValue." / "'IN' requires an non-empty
    ///   ArrayValue." / "'IN' supports up to 30 comparison values." (10 for `NOT_IN`) for
    ///   `in`, `not-in`, `array-contains-any` operands (the emulator's words); "__key__ filter
    ///   value must be a Key" for a `__name__` comparison with a non-reference; an empty
    ///   field path.
    public func validate() throws(FirestoreError) {
        switch self {
        case .composite(let op, let fs):
            if fs.isEmpty && op == .or { throw .invalidArgument("Composite filter must have at least one sub-filter.") }
            for f in fs { try f.validate() }
        case .unary(let p, _):
            try validateQueryPath(p)
        case .field(let p, let op, let v):
            try validateQueryPath(p)
            switch op {
            case .in, .notIn, .arrayContainsAny:
                guard case .array(let a) = v else { throw .invalidArgument("'\(op.rawValue)' requires an ArrayValue.") }
                if a.isEmpty { throw .invalidArgument("'\(op.rawValue)' requires an non-empty ArrayValue.") }
                let most = op == .notIn ? 10 : 30
                if a.count > most { throw .invalidArgument("'\(op.rawValue)' supports up to \(most) comparison values.") }
                if p.isDocumentKey {
                    for e in a {
                        guard case .reference = e else {
                            throw .invalidArgument("'\(op.rawValue)' on __name__ requires an array of references.")
                        }
                    }
                }
            default:
                if p.isDocumentKey && op != .arrayContains {
                    guard case .reference = v else { throw .invalidArgument("__key__ filter value must be a Key") }
                }
            }
        }
    }

    /// True when `document` passes the filter. Missing fields never match.
    public func matches(_ document: Document, in database: DatabaseID) -> Bool {
        switch self {
        case .composite(.and, let fs): return fs.allSatisfy { $0.matches(document, in: database) }
        case .composite(.or, let fs): return fs.contains { $0.matches(document, in: database) }
        case .unary(let p, let op):
            guard let v = document.value(at: p, in: database) else { return false }
            switch op {
            case .isNaN: return v.isNaN
            case .isNull: if case .null = v { return true } else { return false }
            case .isNotNaN:
                if case .null = v { return false }
                return !v.isNaN
            case .isNotNull: if case .null = v { return false } else { return true }
            }
        case .field(let p, let op, let operand):
            guard let v = document.value(at: p, in: database) else { return false }
            return Filter.evaluate(v, op, operand)
        }
    }

    /// One field comparison `value op operand` in Firestore's semantics.
    ///
    /// Null and NaN operands equal nothing — not even null or NaN (clients send `IS_NULL` /
    /// `IS_NAN` for those): `== null`, `== NaN`, `in [null, NaN]`, `array-contains null`
    /// match nothing; `!= null` matches nothing; `!= NaN` and `not-in [NaN]` match every
    /// non-null value, NaN included; ranges against null or NaN match nothing. Observed on
    /// the emulator (Tests/Conformance/query_cases.json).
    public static func evaluate(_ v: Value, _ op: FieldOperator, _ operand: Value) -> Bool {
        switch op {
        case .equal: return equalsOperand(v, operand)
        case .notEqual:
            if case .null = v { return false }
            if case .null = operand { return false }
            return !equalsOperand(v, operand)
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
            guard v.typeOrder == operand.typeOrder else { return false }
            if case .null = operand { return false }
            if v.isNaN || operand.isNaN { return false }
            let c = Value.compare(v, operand)
            switch op {
            case .lessThan: return c == .less
            case .lessThanOrEqual: return c != .greater
            case .greaterThan: return c == .greater
            default: return c != .less
            }
        case .arrayContains:
            guard case .array(let a) = v else { return false }
            return a.contains { equalsOperand($0, operand) }
        case .in:
            guard case .array(let options) = operand else { return false }
            return options.contains { equalsOperand(v, $0) }
        case .arrayContainsAny:
            guard case .array(let a) = v, case .array(let options) = operand else { return false }
            return a.contains { e in options.contains { equalsOperand(e, $0) } }
        case .notIn:
            guard case .array(let options) = operand else { return false }
            if case .null = v { return false }
            if options.contains(where: { if case .null = $0 { return true } else { return false } }) { return false }
            return !options.contains { equalsOperand(v, $0) }
        }
    }

    /// Equality of a stored value with a filter operand: same type group and equal in the
    /// total order (`1 == 1.0`, `-0.0 == 0`), except that null and NaN operands equal nothing.
    static func equalsOperand(_ v: Value, _ operand: Value) -> Bool {
        if case .null = operand { return false }
        if operand.isNaN { return false }
        return v.typeOrder == operand.typeOrder && Value.compare(v, operand) == .equal
    }
}
