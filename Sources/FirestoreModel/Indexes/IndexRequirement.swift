/// The index a query needs and does not have, as production reports it.
public enum MissingIndex: Sendable, Hashable, CustomStringConvertible {
    /// A composite index (production: "The query requires an index", `create_composite` link).
    /// The fields end with an explicit `__name__` in the direction the query needs, as the
    /// link production prints encodes them (docs/reference/indexes.md §5.2).
    case composite(CompositeIndex)
    /// A single-field index production does not keep: a collection-group scope one, or one
    /// an exemption removed (`create_exemption` link).
    case singleField(collectionGroup: String, fieldPath: FieldPath, setting: SingleFieldIndexSetting)

    /// `messages COLLECTION (bucket ASC, i DESC, __name__ DESC)` or
    /// `messages.t COLLECTION_GROUP ASCENDING`.
    public var description: String {
        switch self {
        case .composite(let index): return index.description
        case .singleField(let group, let field, let setting):
            return "\(group).\(field.canonical) \(setting.queryScope.rawValue) \(setting.kind.rawValue)"
        }
    }
}

/// Production's rules for which queries need which index: what the automatic single-field
/// indexes and index merging serve, and what needs a composite index.
///
/// Each disjunction of the filter (its disjunctive normal form; `in` and
/// `array-contains-any` count as one equality or array-contains) is judged on its own and
/// must be served. A disjunction's shape is its equality fields `E` (`==`, `in`,
/// `IS_NULL`, `IS_NAN`), its array-contains field `C`, and its ordered fields `O`: the
/// query's normalised orderBy (explicit entries, then inequality fields, then `__name__`)
/// without the equality fields, up to `__name__`, whose direction is `N`.
/// Source: docs/reference/indexes.md §3, §4.
public enum IndexRequirement {
    /// The index `target` needs that `configuration` lacks, or nil when production would
    /// serve the query.
    ///
    /// Cursors, offset, limit and projection never matter; a collection-group query over
    /// every collection id (empty `collectionID`) runs on document names and never needs one.
    /// When several disjunctions are unserved, the first (in filter order) is reported.
    /// - Complexity: O(d · (f + i · k)) for d disjunctions of f fields, i composite indexes
    ///   of k fields.
    /// Source: docs/reference/indexes.md §3, §4.
    public static func missingIndex(for target: QueryTarget, configuration: IndexConfiguration) -> MissingIndex? {
        let query = target.query
        guard !query.collectionID.isEmpty else { return nil }
        let scope: IndexQueryScope = query.allDescendants ? .collectionGroup : .collection
        let context = Context(collectionGroup: query.collectionID, scope: scope, configuration: configuration)
        let order = query.normalizedOrderBy
        for leaves in disjunctions(of: query.filter) {
            if case .missing(let missing) = context.judge(Shape(leaves: leaves, order: order)) {
                return missing
            }
        }
        return nil
    }

    /// The indexes production's plan for `target` reads, in the order the disjunctions need
    /// them (duplicates removed), or nil when one is missing (`missingIndex` says which).
    ///
    /// A single-field index is spelled as a one-field `CompositeIndex` with its `__name__`
    /// (`(a DESC, __name__ DESC)`); a query on names alone reads `(__name__ ASC)` (or DESC).
    /// This is what `explain_metrics.plan_summary.indexes_used` lists, one entry per index,
    /// as `properties` (docs/reference/indexes.md §8).
    public static func indexesUsed(for target: QueryTarget, configuration: IndexConfiguration) -> [CompositeIndex]? {
        let query = target.query
        let scope: IndexQueryScope = query.allDescendants ? .collectionGroup : .collection
        let context = Context(collectionGroup: query.collectionID, scope: scope, configuration: configuration)
        let order = query.normalizedOrderBy
        if query.collectionID.isEmpty {
            return [context.index([IndexField(.documentKey, order.last?.direction == .descending ? .descending : .ascending)])]
        }
        var used: [CompositeIndex] = []
        for leaves in disjunctions(of: query.filter) {
            switch context.judge(Shape(leaves: leaves, order: order)) {
            case .missing: return nil
            case .served(let indexes): for i in indexes where !used.contains(i) { used.append(i) }
            }
        }
        return used
    }

    /// True when the query filters with inequalities (`<`, `<=`, `>`, `>=`, `!=`, `not-in`,
    /// `IS_NOT_NULL`, `IS_NOT_NAN`) on more than one field other than `__name__`: production
    /// then appends its multiple-range-fields hint to the missing-index message
    /// (docs/reference/indexes.md §5.1).
    public static func hasInequalitiesOnSeveralFields(_ query: StructuredQuery) -> Bool {
        (query.filter?.inequalityFields.filter { !$0.isDocumentKey }.count ?? 0) > 1
    }

    /// The most disjunctions expanded; validated queries have at most 30 (`in` values are
    /// not expanded here), so this only bounds unvalidated input.
    static let maxDisjunctions = 1024

    /// The filter's disjunctive normal form as lists of leaves (field and unary filters).
    /// nil → one empty disjunction.
    static func disjunctions(of filter: Filter?) -> [[Filter]] {
        guard let filter else { return [[]] }
        switch filter {
        case .field, .unary: return [[filter]]
        case .composite(.or, let children):
            var out: [[Filter]] = []
            for child in children {
                out += disjunctions(of: child)
                if out.count >= maxDisjunctions { break }
            }
            return out.isEmpty ? [[]] : out
        case .composite(.and, let children):
            var out: [[Filter]] = [[]]
            for child in children {
                let next = disjunctions(of: child)
                var product: [[Filter]] = []
                outer: for left in out {
                    for right in next {
                        product.append(left + right)
                        if product.count >= maxDisjunctions { break outer }
                    }
                }
                out = product
            }
            return out
        }
    }
}

extension IndexRequirement {
    /// One disjunction as an index sees it (see `IndexRequirement`).
    struct Shape {
        /// Equality fields, sorted, without `__name__`.
        var equalities: [FieldPath]
        /// Array-contains fields, sorted (validation allows one).
        var contains: [FieldPath]
        /// Ordered fields (ascending or descending), in query order, without `__name__`.
        var ordered: [IndexField]
        /// The direction of `__name__` at the end of the order.
        var nameDirection: IndexField.Kind

        init(leaves: [Filter], order: [Order]) {
            var equal = Set<FieldPath>()
            var contains = Set<FieldPath>()
            for leaf in leaves {
                switch leaf {
                case .field(let p, .equal, _), .field(let p, .in, _), .unary(let p, .isNull), .unary(let p, .isNaN):
                    if !p.isDocumentKey { equal.insert(p) }
                case .field(let p, .arrayContains, _), .field(let p, .arrayContainsAny, _):
                    contains.insert(p)
                default: break
                }
            }
            var ordered: [IndexField] = []
            var name: IndexField.Kind = .ascending
            for o in order {
                let kind: IndexField.Kind = o.direction == .ascending ? .ascending : .descending
                if o.field.isDocumentKey {
                    name = kind
                    break
                }
                if !equal.contains(o.field) { ordered.append(IndexField(o.field, kind)) }
            }
            self.equalities = equal.sorted()
            self.contains = contains.sorted()
            self.ordered = ordered
            self.nameDirection = name
        }

        /// The filter fields an index prefix may hold, with the kinds that serve each.
        var filterFields: [FieldPath] { equalities + contains }

        /// The composite index production asks for: equalities (sorted, ascending), the
        /// array-contains field, the ordered fields, an explicit `__name__`.
        func requiredIndex(collectionGroup: String, scope: IndexQueryScope) -> CompositeIndex {
            let fields =
                equalities.map { IndexField($0, .ascending) } + contains.map { IndexField($0, .arrayContains) } + ordered
                + [IndexField(.documentKey, nameDirection)]
            return CompositeIndex(collectionGroup: collectionGroup, queryScope: scope, fields: fields)
        }
    }

    /// The collection id, scope and configuration one query is judged against.
    struct Context {
        let collectionGroup: String
        let scope: IndexQueryScope
        let configuration: IndexConfiguration

        /// True when `field` keeps a single-field index of `kind` in the query's scope.
        func hasSingleField(_ field: FieldPath, _ kind: IndexField.Kind) -> Bool {
            configuration.singleFieldIndexes(collectionGroup: collectionGroup, field: field)
                .contains(SingleFieldIndexSetting(queryScope: scope, kind: kind))
        }

        /// The single-field index production names for `field`.
        func singleField(_ field: FieldPath, _ kind: IndexField.Kind) -> MissingIndex {
            .singleField(
                collectionGroup: collectionGroup, fieldPath: field,
                setting: SingleFieldIndexSetting(queryScope: scope, kind: kind))
        }

        /// Defined composite indexes that may serve this query: same collection id, same scope.
        var composites: [CompositeIndex] {
            configuration.indexes.filter { $0.collectionGroup == collectionGroup && $0.queryScope == scope }
        }

        /// The filter fields `index` serves for `shape`, or nil when it does not fit: its key
        /// must be a prefix of filter fields (equalities in any direction, array-contains as
        /// `CONTAINS`, any order), then exactly `shape.ordered`, then `__name__` in
        /// `shape.nameDirection`.
        func coveredFields(by index: CompositeIndex, for shape: Shape) -> Set<FieldPath>? {
            let key = index.normalizedFields
            let tail = shape.ordered + [IndexField(.documentKey, shape.nameDirection)]
            guard key.count >= tail.count, Array(key.suffix(tail.count)) == tail else { return nil }
            var covered = Set<FieldPath>()
            for f in key.dropLast(tail.count) {
                switch f.kind {
                case .arrayContains: guard shape.contains.contains(f.fieldPath) else { return nil }
                case .ascending, .descending: guard shape.equalities.contains(f.fieldPath) else { return nil }
                }
                covered.insert(f.fieldPath)
            }
            return covered
        }

        /// How production serves `shape` — the indexes its plan reads — or the index it
        /// lacks (docs/reference/indexes.md §3).
        func judge(_ shape: Shape) -> Judgement {
            let filters = shape.filterFields
            let name = IndexField(.documentKey, shape.nameDirection)
            // docs/reference/indexes.md §3.1: no filter field and no ordered field: the document names serve it.
            if filters.isEmpty && shape.ordered.isEmpty { return .served([index([name])]) }
            let fitting = composites.compactMap { c in coveredFields(by: c, for: shape).map { (index: c, covers: $0) } }
            // docs/reference/indexes.md §3.2: one ordered field whose direction `__name__` follows: its single-field index.
            if filters.isEmpty, shape.ordered.count == 1, shape.ordered[0].kind == shape.nameDirection {
                let f = shape.ordered[0]
                if hasSingleField(f.fieldPath, f.kind) { return .served([index([f, name])]) }
                if let c = fitting.first { return .served([c.index]) }
                return .missing(singleField(f.fieldPath, f.kind))
            }
            // docs/reference/indexes.md §3.3: filters only: merge single-field indexes (and composites of filter fields).
            if shape.ordered.isEmpty {
                var used: [CompositeIndex] = []
                for field in filters {
                    let kind: IndexField.Kind = shape.contains.contains(field) ? .arrayContains : shape.nameDirection
                    if hasSingleField(field, kind) {
                        used.append(index([IndexField(field, kind), name]))
                    } else if let c = fitting.first(where: { $0.covers.contains(field) }) {
                        if !used.contains(c.index) { used.append(c.index) }
                    } else {
                        return .missing(singleField(field, kind))
                    }
                }
                return .served(used)
            }
            // docs/reference/indexes.md §3.4: filters with ordered fields, or several ordered fields: composites that
            // end with the order, merged when each covers some of the filter fields.
            if filters.isEmpty, let c = fitting.first { return .served([c.index]) }
            if !filters.isEmpty {
                var used: [CompositeIndex] = []
                var covered = Set<FieldPath>()
                for c in fitting where !c.covers.isSubset(of: covered) {
                    used.append(c.index)
                    covered.formUnion(c.covers)
                }
                if filters.allSatisfy(covered.contains) { return .served(used) }
            }
            return .missing(.composite(shape.requiredIndex(collectionGroup: collectionGroup, scope: scope)))
        }

        /// An index of the query's collection id and scope with `fields`.
        func index(_ fields: [IndexField]) -> CompositeIndex {
            CompositeIndex(collectionGroup: collectionGroup, queryScope: scope, fields: fields)
        }
    }

    /// The outcome for one disjunction.
    enum Judgement {
        /// Served by these indexes (single-field ones spelled with their `__name__`).
        case served([CompositeIndex])
        /// Not served; production asks for this index.
        case missing(MissingIndex)
    }
}
