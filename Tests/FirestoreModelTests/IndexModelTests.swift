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

/// `IndexConfiguration.adding`: what `hearth indexes suggest` writes serves the query.
@Suite struct IndexSuggestionTests {
    typealias T = IndexRequirementTests

    func missing(_ query: StructuredQuery, _ configuration: IndexConfiguration) -> MissingIndex? {
        IndexRequirement.missingIndex(for: QueryTarget(parent: .root, query: query), configuration: configuration)
    }

    @Test(arguments: [
        T.q(T.eq("a"), [T.asc("b")]),
        T.q(T.eq("a"), group: true),
        T.q(nil, [T.desc("t")], group: true),
        T.q(T.and(T.eq("a"), T.op("tags", .arrayContains)), group: true),
        T.q(T.or(T.eq("a"), T.eq("b")), [T.desc("c")]),
        T.q(T.eq("m.x")),
    ])
    func addingUntilServedTerminates(_ query: StructuredQuery) throws {
        var config = IndexConfiguration(fieldOverrides: [FieldOverride(collectionGroup: "c", fieldPath: T.p("m"), indexes: [])])
        var steps = 0
        while let m = missing(query, config) {
            let next = config.adding(m)
            try #require(next != config, "adding \(m) changed nothing")
            config = next
            steps += 1
            try #require(steps < 10)
        }
        #expect(steps >= 1)
    }

    @Test func aNewOverrideKeepsTheAutomaticSettings() {
        let m = MissingIndex.singleField(
            collectionGroup: "c", fieldPath: T.p("a"), setting: .init(queryScope: .collectionGroup, kind: .ascending))
        let config = IndexConfiguration().adding(m)
        #expect(config.fieldOverrides.count == 1)
        #expect(
            config.fieldOverrides[0].indexes == SingleFieldIndexSetting.automatic + [.init(queryScope: .collectionGroup, kind: .ascending)])
        // The collection-scope queries the automatic indexes served still are.
        #expect(missing(T.q(nil, [T.desc("a")]), config) == nil)
        #expect(config.adding(m) == config)
    }

    @Test func anExistingOverrideGrowsInPlace() {
        let existing = IndexConfiguration(fieldOverrides: [
            FieldOverride(collectionGroup: "c", fieldPath: T.p("a"), indexes: [.init(kind: .ascending)])
        ])
        let m = MissingIndex.singleField(collectionGroup: "c", fieldPath: T.p("a"), setting: .init(kind: .descending))
        #expect(
            existing.adding(m).fieldOverrides == [
                FieldOverride(collectionGroup: "c", fieldPath: T.p("a"), indexes: [.init(kind: .ascending), .init(kind: .descending)])
            ])
    }

    @Test func aCompositeIsAddedOnce() {
        let m = T.needs(["a", "b", "__name__"])
        let once = IndexConfiguration().adding(m)
        #expect(once.indexes.count == 1)
        #expect(once.adding(m) == once)
        #expect(IndexConfiguration(indexes: [T.index(["a", "b"])]).adding(m).indexes == [T.index(["a", "b"])])
    }
}
