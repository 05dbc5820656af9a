import Testing

@testable import FirestoreModel

/// `CompositeIndex` key order and `IndexConfiguration` merging.
@Suite struct IndexModelTests {
    let a = FieldPath(["a"])
    let b = FieldPath(["b"])
    let tags = FieldPath(["tags"])

    /// docs/reference/indexes.md §4: the implied `__name__` follows the last field, ascending
    /// after `CONTAINS`.
    @Test func impliedNameDirection() {
        let desc = CompositeIndex(collectionGroup: "c", fields: [IndexField(a, .ascending), IndexField(b, .descending)])
        #expect(desc.normalizedFields.last == IndexField(.documentKey, .descending))
        #expect(desc.properties == "(a ASC, b DESC, __name__ DESC)")
        let contains = CompositeIndex(collectionGroup: "c", fields: [IndexField(a, .descending), IndexField(tags, .arrayContains)])
        #expect(contains.normalizedFields.last == IndexField(.documentKey, .ascending))
        let explicit = CompositeIndex(collectionGroup: "c", fields: [IndexField(a, .descending), IndexField(.documentKey, .ascending)])
        #expect(explicit.normalizedFields == explicit.fields)
        #expect(CompositeIndex(collectionGroup: "c", fields: []).normalizedFields == [IndexField(.documentKey, .ascending)])
        #expect(desc.description == "c COLLECTION (a ASC, b DESC, __name__ DESC)")
    }

    @Test func mergingKeepsTheFirstAndDropsDuplicates() {
        let ab = CompositeIndex(collectionGroup: "c", fields: [IndexField(a, .ascending), IndexField(b, .ascending)])
        let abName = CompositeIndex(collectionGroup: "c", fields: ab.normalizedFields)
        let abGroup = CompositeIndex(collectionGroup: "c", queryScope: .collectionGroup, fields: ab.fields)
        let ba = CompositeIndex(collectionGroup: "c", fields: [IndexField(b, .ascending), IndexField(a, .ascending)])
        let mine = IndexConfiguration(
            indexes: [ab], fieldOverrides: [FieldOverride(collectionGroup: "c", fieldPath: a, indexes: [])])
        let suggested = IndexConfiguration(
            indexes: [abName, abGroup, ba, ab],
            fieldOverrides: [
                FieldOverride(collectionGroup: "c", fieldPath: a, indexes: SingleFieldIndexSetting.automatic),
                FieldOverride(collectionGroup: "d", fieldPath: a, indexes: []),
            ])
        let merged = mine.merging(suggested)
        #expect(merged.indexes == [ab, abGroup, ba])
        #expect(merged.fieldOverrides.map(\.collectionGroup) == ["c", "d"])
        #expect(merged.fieldOverrides[0].indexes.isEmpty)
        #expect(IndexConfiguration().merging(mine) == mine)
        #expect(mine.merging(mine) == mine)
    }
}
