import FirestoreModel

/// When a plan's stream already has the answer's properties, so the store can skip work on
/// each document (issue 14 item 1): the filter re-check and the final sort. Both are
/// conservative: `false` keeps the general path, which is always right.
/// `QueryEquivalenceTests` and `CompositeEquivalenceTests` compare the SQLite store with
/// `StructuredQuery.evaluate` over random data and queries, so the fast paths are checked
/// against the one definition of the semantics.
extension QueryPlan {
    /// True when every entry the plan reads belongs to a document that matches `query`'s
    /// filter. Holds for one ordered single-field index read within the ranges of filters that
    /// are all on that field: `==`, `<`, `<=`, `>`, `>=` against an integer, a double that is
    /// not NaN, or a string. `OrderedKey` orders and equates values as `Value.compare` does
    /// (`1` and `1.0`, `-0.0` and `0.0` share a key) and keeps each type group contiguous, so
    /// the key range of such filters holds exactly their matches. One exception: NaN sorts
    /// first among the numbers and matches no range, so a number range must be bounded below
    /// by its own filter (or be an equality), not by the group's start. Every order field must
    /// be that field or `__name__`, so a document the index yields has all of them.
    func isExact(for query: StructuredQuery) -> Bool {
        guard accesses.count == 1, case .index(let index, _, _) = accesses[0], index.mode == .ordered,
            let filter = query.filter
        else { return false }
        let leaves = QueryPlanner.flattenAnd(filter)
        guard !leaves.isEmpty else { return false }
        var numbers = false
        var boundedBelow = false
        for leaf in leaves {
            guard case .field(let field, let op, let operand) = leaf, field == index.field else { return false }
            switch operand {
            case .integer: numbers = true
            case .double(let d) where !d.isNaN: numbers = true
            case .string: break
            default: return false
            }
            switch op {
            case .equal, .greaterThan, .greaterThanOrEqual: boundedBelow = true
            case .lessThan, .lessThanOrEqual: break
            default: return false
            }
        }
        if numbers && !boundedBelow { return false }
        return query.normalizedOrderBy.allSatisfy { $0.field.isDocumentKey || $0.field == index.field }
    }

    /// True when the stream yields candidates in `order` (the query's normalised order), ties
    /// included, so sorting the accepted candidates would not move any: a composite index's
    /// stream (its key is the whole order); a single-field index whose value is the first
    /// order field followed by `__name__` in the same direction; a stream in name order where
    /// `__name__` is all the order there is, or every order field before it is the index field
    /// pinned to one value (an array-contains point pins none). One access only (several would be a union).
    func followsWholeOrder(_ order: [Order]) -> Bool {
        guard accesses.count == 1, !mayRepeat, let last = order.last, last.field.isDocumentKey else { return false }
        switch (streamOrder, accesses[0]) {
        case (.indexKey, .composite):
            return true
        case (.indexValue, .index(let index, _, let direction)):
            return index.mode == .ordered && order.count == 2 && order[0].field == index.field
                && order[0].direction == direction && last.direction == direction
        case (.path, .documents(_, let direction)):
            return order.count == 1 && last.direction == direction
        case (.path, .index(let index, let ranges, let direction)):
            // An array-contains entry pins no order field; an ordered one pins its own.
            return ranges.count == 1 && ranges[0].isPoint && last.direction == direction
                && order.dropLast().allSatisfy { index.mode == .ordered && $0.field == index.field }
        default:
            return false
        }
    }
}
