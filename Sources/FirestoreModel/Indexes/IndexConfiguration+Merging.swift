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

extension IndexConfiguration {
    /// `self` with what `missing` asks for, so the query that lacked it is served: a
    /// composite is appended unless an index with the same key is already defined; a
    /// single-field setting is added to the field's own override, or to a new override that
    /// starts from the settings the field has now (automatic or inherited), because an
    /// override replaces them (docs/reference/indexes.md §2.2). Used by
    /// `hearth indexes suggest`, where `merging` alone would keep the app's older override.
    public func adding(_ missing: MissingIndex) -> IndexConfiguration {
        var result = self
        switch missing {
        case .composite(let index):
            let key = index.normalizedFields
            if !indexes.contains(where: {
                $0.collectionGroup == index.collectionGroup && $0.queryScope == index.queryScope && $0.normalizedFields == key
            }) {
                result.indexes.append(index)
            }
        case .singleField(let group, let field, let setting):
            if let i = fieldOverrides.firstIndex(where: { $0.collectionGroup == group && $0.fieldPath == field }) {
                if !fieldOverrides[i].indexes.contains(setting) { result.fieldOverrides[i].indexes.append(setting) }
            } else {
                var settings = singleFieldIndexes(collectionGroup: group, field: field)
                if !settings.contains(setting) { settings.append(setting) }
                result.fieldOverrides.append(FieldOverride(collectionGroup: group, fieldPath: field, indexes: settings))
            }
        }
        return result
    }

    /// True when this configuration has `missing`: the composite index (same keys), or the
    /// single-field setting for that field. A missing index seen earlier is no longer missing
    /// once the app defines it (`hearth indexes check` after `suggest`).
    public func provides(_ missing: MissingIndex) -> Bool {
        switch missing {
        case .composite(let index): return indexes.contains(index)
        case .singleField(let group, let field, let setting):
            return singleFieldIndexes(collectionGroup: group, field: field).contains(setting)
        }
    }
}
