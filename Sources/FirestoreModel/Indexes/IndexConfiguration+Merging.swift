extension IndexConfiguration {
    /// The union of `self` and `other`: every index and override of `self` in its order,
    /// then those of `other` that `self` does not already have.
    ///
    /// Two composite indexes are the same when collection id, scope and key order
    /// (`normalizedFields`, so an implied `__name__` equals an explicit one in the same
    /// direction) agree; the first spelling is kept. Two overrides are the same when
    /// collection id and field path agree; `self`'s wins, so merging suggestions into an
    /// app's file never changes what the app wrote. Used by `hearth indexes suggest`.
    /// - Complexity: O(n + m) expected.
    public func merging(_ other: IndexConfiguration) -> IndexConfiguration {
        struct IndexKey: Hashable {
            var collectionGroup: String
            var queryScope: IndexQueryScope
            var fields: [IndexField]
        }
        struct OverrideKey: Hashable {
            var collectionGroup: String
            var fieldPath: FieldPath
        }
        var result = IndexConfiguration()
        var seenIndexes = Set<IndexKey>()
        for index in indexes + other.indexes
        where seenIndexes.insert(
            IndexKey(collectionGroup: index.collectionGroup, queryScope: index.queryScope, fields: index.normalizedFields)
        ).inserted {
            result.indexes.append(index)
        }
        var seenOverrides = Set<OverrideKey>()
        for o in fieldOverrides + other.fieldOverrides
        where seenOverrides.insert(OverrideKey(collectionGroup: o.collectionGroup, fieldPath: o.fieldPath)).inserted {
            result.fieldOverrides.append(o)
        }
        return result
    }
}
