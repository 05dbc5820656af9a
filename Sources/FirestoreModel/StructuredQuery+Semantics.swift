/// Query semantics shared by the engine, the store's post-filter and listen targets:
/// validation, the implicit orderBy, filter matching, cursors and result order.
/// Source: reference §1.5 (production semantics mirrored by firebase-js-sdk `core/filter.ts`).
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

    /// Checks the query is one Firestore accepts.
    /// - Throws: `.invalidArgument` for a negative offset or limit, a cursor longer than the
    ///   normalised orderBy, an `in`/`not-in`/`array-contains-any` operand that is not a
    ///   non-empty array (max 30 values, 10 for `not-in`), an empty `OR` (an empty `AND`
    ///   matches everything, as on the emulator), or more than one of `!=`, `not-in`,
    ///   `IS_NOT_NAN`, `IS_NOT_NULL` (the emulator's rule; Tests/Conformance/query_cases.json).
    public func validate() throws(FirestoreError) {
        if offset < 0 { throw .invalidArgument("offset must be non-negative.") }
        if let l = limit, l < 0 { throw .invalidArgument("limit must be non-negative.") }
        if collectionID.isEmpty && !allDescendants { throw .invalidArgument("Collection id must not be empty.") }
        if !collectionID.isEmpty {
            if collectionID.contains("/") { throw .invalidArgument("Collection id \"\(collectionID)\" must not contain '/'.") }
            try ResourcePath([collectionID]).validateIDs()
        }
        if let f = filter, f.disjunctionCount > Self.maxDisjunctions {
            throw .invalidArgument(
                "Invalid Query. The filter has more than \(Self.maxDisjunctions) disjunctions in disjunctive normal form.")
        }
        let order = normalizedOrderBy
        for c in [startAt, endAt].compactMap({ $0 }) where c.values.count > order.count {
            throw .invalidArgument("Too many cursor values specified. The specified order by clause has \(order.count) fields.")
        }
        for c in [startAt, endAt].compactMap({ $0 }) {
            for (v, o) in zip(c.values, order) where o.field.isDocumentKey {
                guard case .reference = v else {
                    throw .invalidArgument("Cursor position for __name__ must be a document reference.")
                }
            }
        }
        if let f = filter {
            try f.validate()
            // The emulator allows one negation per query, counting the unary forms clients
            // send for `!= NaN` / `!= null` too.
            var negations = 0
            f.visit { leaf in
                switch leaf {
                case .field(_, .notEqual, _), .field(_, .notIn, _), .unary(_, .isNotNaN), .unary(_, .isNotNull): negations += 1
                default: break
                }
            }
            if negations > 1 {
                throw .invalidArgument("Only a single 'NOT_EQUAL', 'NOT_IN', 'IS_NOT_NAN', or 'IS_NOT_NULL' filter allowed per query.")
            }
        }
        for o in orderBy { try validateQueryPath(o.field) }
    }

    /// True when `document` passes the filter and has every orderBy field.
    public func matches(_ document: Document, in database: DatabaseID) -> Bool {
        for o in normalizedOrderBy where document.value(at: o.field, in: database) == nil { return false }
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
        var docs = candidates.filter {
            target.contains($0.path) && matches($0, in: database) && withinCursors($0, in: database, order: order)
        }
        docs.sort { compare($0, $1, in: database, order: order) == .less }
        let skipped = min(offset, docs.count)
        docs.removeFirst(skipped)
        if let l = limit, docs.count > l { docs.removeLast(docs.count - l) }
        return (docs, skipped)
    }
}

func validateQueryPath(_ p: FieldPath) throws(FirestoreError) {
    if p.segments.isEmpty || p.segments.contains(where: \.isEmpty) {
        throw .invalidArgument("Invalid field path in query.")
    }
}

extension StructuredQuery {
    /// Most disjunctions a filter may have in disjunctive normal form. Source: reference §1.5.
    public static let maxDisjunctions = 30
}

extension Filter {
    /// The number of disjunctions of the filter in disjunctive normal form (an `in` or
    /// `array-contains-any` of n values counts n), saturating just above the limit so that a
    /// product of ORs is never expanded.
    public var disjunctionCount: Int {
        let cap = StructuredQuery.maxDisjunctions + 1
        switch self {
        case .composite(.or, let fs):
            return min(cap, fs.reduce(0) { min(cap, $0 + $1.disjunctionCount) })
        case .composite(.and, let fs):
            return fs.reduce(1) { min(cap, $0 * max(1, $1.disjunctionCount)) }
        case .field(_, .in, .array(let a)), .field(_, .arrayContainsAny, .array(let a)):
            return min(cap, max(1, a.count))
        default:
            return 1
        }
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

    /// Checks operand shapes.
    /// - Throws: `.invalidArgument` as `StructuredQuery.validate()` documents.
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
                guard case .array(let a) = v, !a.isEmpty else {
                    throw .invalidArgument("A non-empty array is required for '\(op.rawValue)' filters.")
                }
                if a.count > (op == .notIn ? 10 : 30) {
                    throw .invalidArgument("'\(op.rawValue)' filters support a maximum of \(op == .notIn ? 10 : 30) elements in the value array.")
                }
                if p.isDocumentKey {
                    for e in a {
                        guard case .reference = e else {
                            throw .invalidArgument("'\(op.rawValue)' on __name__ requires an array of references.")
                        }
                    }
                }
            default:
                if p.isDocumentKey && op != .arrayContains {
                    guard case .reference = v else {
                        throw .invalidArgument("__name__ filters must be document references, got \(v.typeName).")
                    }
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
