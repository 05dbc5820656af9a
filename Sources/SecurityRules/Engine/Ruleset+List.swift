import FirestoreModel

/// `list` decisions: "rules are not filters" (docs/reference/security-rules.md §7). The filter is split into ways
/// (disjuncts; each value of `in` / `array-contains-any` is one); each way gets a synthetic
/// `resource` holding only what its filters pin down, and every way must be granted.
extension Ruleset {
    /// One filter of one way, as a constraint pair on a field.
    struct WayFilter: Hashable {
        /// The filtered field.
        var field: FieldPath
        /// How it is filtered.
        var comparator: RulesConstraint.Comparator
        /// The filter operand.
        var value: Value
        /// From `==`, an `in` value, `is null` or `is nan`: the field's value is known.
        var pinsValue: Bool

        /// `field COMPARATOR value`.
        var description: String {
            let v = RulesValue(value).literalText
            return "\(field.canonical) \(comparator.rawValue) \(v)"
        }
    }

    /// Most ways a query may split into before it is refused as unprovable.
    static let maxWays = 512

    /// Disjunctive normal form of the filter; nil when it has more than `maxWays` ways.
    static func ways(of filter: Filter?) -> [[WayFilter]]? {
        guard let filter else { return [[]] }
        switch filter {
        case .field(let p, let op, let v):
            func one(_ c: RulesConstraint.Comparator, _ value: Value, pins: Bool = false) -> WayFilter {
                WayFilter(field: p, comparator: c, value: value, pinsValue: pins)
            }
            switch op {
            case .equal: return [[one(.eq, v, pins: true)]]
            case .notEqual: return [[one(.neq, v)]]
            case .lessThan: return [[one(.lt, v)]]
            case .lessThanOrEqual: return [[one(.lte, v)]]
            case .greaterThan: return [[one(.gt, v)]]
            case .greaterThanOrEqual: return [[one(.gte, v)]]
            case .arrayContains: return [[one(.listContains, v)]]
            case .in:
                guard case .array(let values) = v else { return [[one(.eq, v, pins: true)]] }
                return uniqued(values).map { [one(.eq, $0, pins: true)] }
            case .arrayContainsAny:
                guard case .array(let values) = v else { return [[one(.listContains, v)]] }
                return uniqued(values).map { [one(.listContains, $0)] }
            case .notIn:
                guard case .array(let values) = v else { return [[one(.neq, v)]] }
                return [uniqued(values).map { one(.neq, $0) }]
            }
        case .unary(let p, let op):
            switch op {
            case .isNull: return [[WayFilter(field: p, comparator: .eq, value: .null, pinsValue: true)]]
            case .isNaN: return [[WayFilter(field: p, comparator: .eq, value: .double(.nan), pinsValue: true)]]
            case .isNotNull: return [[WayFilter(field: p, comparator: .neq, value: .null, pinsValue: false)]]
            case .isNotNaN: return [[WayFilter(field: p, comparator: .neq, value: .double(.nan), pinsValue: false)]]
            }
        case .composite(.or, let children):
            var out: [[WayFilter]] = []
            for c in children {
                guard let w = ways(of: c) else { return nil }
                out += w
                if out.count > maxWays { return nil }
            }
            return out
        case .composite(.and, let children):
            var out: [[WayFilter]] = [[]]
            for c in children {
                guard let w = ways(of: c) else { return nil }
                if out.count * w.count > maxWays { return nil }
                out = out.flatMap { prefix in w.map { prefix + $0 } }
            }
            return out
        }
    }

    private static func uniqued(_ values: [Value]) -> [Value] {
        var seen: [Value] = []
        for v in values where !seen.contains(where: { $0.firestoreEquals(v) && $0.typeName == v.typeName }) { seen.append(v) }
        return seen
    }

    /// Decides a `list` request: every way of its filter must be granted.
    func decideList(_ request: RulesRequest, ledger: AccessLedger) -> RulesDecision {
        let query = request.query ?? QueryConstraints()
        let db = request.database
        let collectionPath = RulesValue.documentPath(request.path, database: db)
        let base: [PathMatcher.Token] = ["databases", db.database, "documents"].map { .segment($0) }
        var tokens: [PathMatcher.Token]
        if query.allDescendants {
            tokens = base + request.path.segments.dropLast().map { .segment($0) } + [.unknownRun]
            tokens += [.segment(request.path.lastSegment), .unknownID]
        } else {
            tokens = base + request.path.segments.map { .segment($0) } + [.unknownID]
        }
        let pathText = collectionPath.description + (query.allDescendants ? " (collection group)" : "")
        guard let rawWays = Self.ways(of: query.filter) else {
            return RulesDecision(
                allowed: false,
                explanation: RulesExplanation(
                    method: .list, path: pathText,
                    failure: "Query filter splits into more than \(Self.maxWays) disjunctions; it cannot be proven."))
        }
        var seenWays = Set<[WayFilter]>()
        var last: RulesDecision?
        for raw in rawWays {
            var way: [WayFilter] = []
            for f in raw where !way.contains(where: { $0.description == f.description }) { way.append(f) }
            guard seenWays.insert(way).inserted else { continue }
            let wayText = way.isEmpty ? "(no filter)" : way.map(\.description).joined(separator: " && ")
            let decision: RulesDecision
            if let nameFilter = way.first(where: { $0.field.isDocumentKey && $0.comparator == .eq }) {
                decision = decideNamedWay(request, nameFilter, ledger: ledger, way: wayText)
            } else {
                var globals = requestGlobals(request, path: collectionPath)
                globals["resource"] = .map(RulesMap(["data": .map(syntheticData(way))], isPartial: true))
                decision = run(request: request, pathText: pathText, tokens: tokens, globals: globals, ledger: ledger, way: wayText)
            }
            if !decision.allowed { return decision }
            last = decision
        }
        return last
            ?? RulesDecision(allowed: false, explanation: RulesExplanation(method: .list, path: pathText, failure: "Query has no ways."))
    }

    /// A way with `__name__ == ref` is decided like a read of that one document.
    func decideNamedWay(_ request: RulesRequest, _ filter: WayFilter, ledger: AccessLedger, way: String) -> RulesDecision {
        guard case .reference(let name) = filter.value, let docPath = try? request.database.documentPath(fromName: name) else {
            return RulesDecision(
                allowed: false,
                explanation: RulesExplanation(
                    method: .list, path: "\(request.path)", failure: "__name__ filter is not a document of this database.", way: way))
        }
        let stored: Document?
        do { stored = try ledger.access.get(docPath) } catch {
            return RulesDecision(
                allowed: false,
                explanation: RulesExplanation(method: .list, path: "\(docPath)", failure: "Could not read \(docPath): \(error)", way: way))
        }
        let path = RulesValue.documentPath(docPath, database: request.database)
        var globals = requestGlobals(request, path: path)
        globals["resource"] = stored.map { RulesValue.resource($0, database: request.database) } ?? .null
        return run(
            request: request, pathText: path.description, tokens: path.segments.map { .segment($0) }, globals: globals, ledger: ledger,
            way: way)
    }

    /// The partial `resource.data` of a way (docs/reference/security-rules.md §7 item 3): a single pinning filter
    /// gives the value itself, anything else a constraint; nested field paths nest partial maps.
    func syntheticData(_ way: [WayFilter]) -> RulesMap {
        var byField: [FieldPath: [WayFilter]] = [:]
        var order: [FieldPath] = []
        for f in way where !f.field.isDocumentKey {
            if byField[f.field] == nil { order.append(f.field) }
            byField[f.field, default: []].append(f)
        }
        var root = RulesMap([:], isPartial: true)
        for field in order {
            let filters = byField[field] ?? []
            let value: RulesValue
            if filters.count == 1, filters[0].pinsValue {
                value = RulesValue(filters[0].value)
            } else {
                value = .constraint(RulesConstraint(pairs: filters.map { .init(comparator: $0.comparator, value: RulesValue($0.value)) }))
            }
            Self.insert(value, at: field.segments[...], into: &root)
        }
        return root
    }

    private static func insert(_ value: RulesValue, at path: ArraySlice<String>, into map: inout RulesMap) {
        guard let head = path.first else { return }
        if path.count == 1 {
            if map.entries[head] == nil { map.entries[head] = value }
            return
        }
        var child = RulesMap([:], isPartial: true)
        if case .map(let existing)? = map.entries[head] { child = existing }
        insert(value, at: path.dropFirst(), into: &child)
        map.entries[head] = .map(child)
    }
}
