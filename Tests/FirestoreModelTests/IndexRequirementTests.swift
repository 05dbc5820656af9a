import Testing

@testable import FirestoreModel

/// Production's index rules (docs/reference/indexes.md §3–§4) as a table of queries and the
/// index each needs (nil = served). Each row's label starts with the number of the section of
/// that document whose rule it holds; rows marked "link" reproduce the index decoded from a
/// console link pasted in a public repository (docs/reference/indexes.md §5.3).
@Suite struct IndexRequirementTests {
    struct Row: CustomTestStringConvertible {
        var rule: String
        var query: StructuredQuery
        var configuration = IndexConfiguration()
        var expected: MissingIndex?
        var testDescription: String { rule }
    }

    static func p(_ s: String) -> FieldPath { FieldPath(s.split(separator: ".").map(String.init)) }
    static func eq(_ f: String, _ v: Value = .integer(1)) -> Filter { .field(p(f), .equal, v) }
    static func op(_ f: String, _ o: FieldOperator, _ v: Value = .integer(1)) -> Filter { .field(p(f), o, v) }
    static func and(_ fs: Filter...) -> Filter { .composite(.and, fs) }
    static func or(_ fs: Filter...) -> Filter { .composite(.or, fs) }
    static func asc(_ f: String) -> Order { Order(f == "__name__" ? .documentKey : p(f), .ascending) }
    static func desc(_ f: String) -> Order { Order(f == "__name__" ? .documentKey : p(f), .descending) }
    static let list: Value = .array([.integer(1), .integer(2)])
    static let ref: Value = .reference("projects/p/databases/(default)/documents/c/x")

    static func q(_ filter: Filter? = nil, _ order: [Order] = [], group: Bool = false, collection: String = "c")
        -> StructuredQuery
    {
        StructuredQuery(collectionID: collection, allDescendants: group, filter: filter, orderBy: order)
    }

    /// A composite index spec: `"a"` ascending, `"-a"` descending, `"[a"` array-contains.
    static func index(_ specs: [String], scope: IndexQueryScope = .collection, collection: String = "c")
        -> CompositeIndex
    {
        CompositeIndex(
            collectionGroup: collection, queryScope: scope,
            fields: specs.map { s in
                if s.hasPrefix("-") { return IndexField(p(String(s.dropFirst())), .descending) }
                if s.hasPrefix("[") { return IndexField(p(String(s.dropFirst())), .arrayContains) }
                return IndexField(p(s), .ascending)
            })
    }

    static func needs(_ specs: [String], scope: IndexQueryScope = .collection, collection: String = "c") -> MissingIndex {
        let i = index(specs, scope: scope, collection: collection)
        return .composite(CompositeIndex(collectionGroup: i.collectionGroup, queryScope: i.queryScope, fields: i.normalizedFields))
    }

    static func single(_ f: String, _ kind: IndexField.Kind, scope: IndexQueryScope = .collection) -> MissingIndex {
        .singleField(collectionGroup: "c", fieldPath: p(f), setting: SingleFieldIndexSetting(queryScope: scope, kind: kind))
    }

    static let rows: [Row] = [
        // 3.1: names only.
        Row(rule: "3.1 no filter, no order", query: q(), expected: nil),
        Row(rule: "3.1 orderBy __name__ desc", query: q(nil, [desc("__name__")]), expected: nil),
        Row(rule: "3.1 __name__ range", query: q(op("__name__", .greaterThan, ref)), expected: nil),
        Row(rule: "3.1 __name__ in", query: q(op("__name__", .in, .array([ref]))), expected: nil),
        Row(rule: "3.1 collection group, no filter", query: q(group: true), expected: nil),
        Row(rule: "3.1 recursive listing (empty id)", query: q(op("a", .greaterThan), group: true, collection: ""), expected: nil),
        // 3.2: one ordered field.
        Row(rule: "3.2 range", query: q(op("a", .greaterThan)), expected: nil),
        Row(rule: "3.2 orderBy desc", query: q(nil, [desc("a")]), expected: nil),
        Row(rule: "3.2 range + orderBy same field desc", query: q(op("a", .lessThan), [desc("a")]), expected: nil),
        Row(rule: "3.2 !=", query: q(op("a", .notEqual)), expected: nil),
        Row(rule: "3.2 not-in", query: q(op("a", .notIn, list)), expected: nil),
        Row(rule: "3.2 IS_NOT_NULL", query: q(.unary(p("a"), .isNotNull)), expected: nil),
        Row(rule: "3.2 map subfield", query: q(nil, [asc("m.x")]), expected: nil),
        Row(rule: "3.2 range and __name__ range", query: q(and(op("a", .greaterThan), op("__name__", .greaterThan, ref))), expected: nil),
        Row(rule: "3.4 orderBy desc then __name__ asc", query: q(nil, [desc("a"), asc("__name__")]), expected: needs(["-a", "__name__"])),
        // 3.3: equality, array-contains and merging.
        Row(rule: "3.3 equality", query: q(eq("a")), expected: nil),
        Row(rule: "3.3 two equalities merge", query: q(and(eq("a"), eq("b"))), expected: nil),
        Row(rule: "3.3 equality + array-contains merge", query: q(and(eq("a"), op("tags", .arrayContains))), expected: nil),
        Row(rule: "3.3 array-contains-any", query: q(op("tags", .arrayContainsAny, list)), expected: nil),
        Row(rule: "3.3 in", query: q(op("a", .in, list)), expected: nil),
        Row(rule: "3.3 in + orderBy the same field", query: q(op("a", .in, list), [desc("a")]), expected: nil),
        Row(rule: "3.3 equality + orderBy the same field", query: q(eq("a"), [desc("a")]), expected: nil),
        Row(rule: "3.3 equality + __name__ desc", query: q(eq("a"), [desc("__name__")]), expected: nil),
        Row(rule: "3.3 array-contains + __name__ desc", query: q(op("tags", .arrayContains), [desc("__name__")]), expected: nil),
        Row(rule: "3.3 IS_NULL and equality", query: q(and(.unary(p("a"), .isNull), eq("b"))), expected: nil),
        Row(rule: "3.3 equality + __name__ equality", query: q(and(eq("a"), op("__name__", .equal, ref))), expected: nil),
        Row(rule: "3.5 OR of equalities", query: q(or(eq("a"), eq("b"))), expected: nil),
        // 3.4: composites.
        Row(rule: "3.4 equality + orderBy", query: q(eq("a"), [asc("b")]), expected: needs(["a", "b", "__name__"])),
        Row(
            rule: "3.4 equality + orderBy desc (link: meta.userId, timestamp)", query: q(eq("meta.userId"), [desc("timestamp")]),
            expected: needs(["meta.userId", "-timestamp", "-__name__"])),
        Row(rule: "3.4 equality + range", query: q(and(eq("a"), op("b", .greaterThan))), expected: needs(["a", "b", "__name__"])),
        Row(rule: "3.4 two orderBy fields", query: q(nil, [asc("a"), asc("b")]), expected: needs(["a", "b", "__name__"])),
        Row(
            rule: "3.4 equalities sorted (link: childId, userId)", query: q(and(eq("userId"), eq("childId")), [desc("period.endDate")]),
            expected: needs(["childId", "userId", "-period.endDate", "-__name__"])),
        Row(
            rule: "3.4 equality then orderBys in order (link: folderId, completed, order)",
            query: q(eq("folderId"), [asc("completed"), asc("order")]), expected: needs(["folderId", "completed", "order", "__name__"])),
        Row(
            rule: "3.4 array-contains + orderBy (link: keywords, dateAdded)", query: q(op("keywords", .arrayContains), [desc("dateAdded")]),
            expected: needs(["[keywords", "-dateAdded", "-__name__"])),
        Row(
            rule: "3.4 equality before array-contains", query: q(and(op("tags", .arrayContains), eq("z")), [asc("d")]),
            expected: needs(["z", "[tags", "d", "__name__"])),
        Row(
            rule: "3.4 array-contains + orderBy the same field", query: q(op("tags", .arrayContains), [asc("tags")]),
            expected: needs(["[tags", "tags", "__name__"])),
        Row(rule: "3.4 in + orderBy another field", query: q(op("a", .in, list), [asc("b")]), expected: needs(["a", "b", "__name__"])),
        Row(
            rule: "3.4 array-contains-any + orderBy", query: q(op("tags", .arrayContainsAny, list), [asc("d")]),
            expected: needs(["[tags", "d", "__name__"])),
        Row(rule: "3.4 != + orderBy another field", query: q(op("a", .notEqual), [asc("b")]), expected: needs(["b", "a", "__name__"])),
        Row(
            rule: "3.4 inequalities on two fields", query: q(and(op("b", .greaterThan), op("a", .lessThan))),
            expected: needs(["a", "b", "__name__"])),
        Row(
            rule: "3.4 equality + inequalities on two fields", query: q(and(eq("c"), op("b", .greaterThan), op("a", .lessThan))),
            expected: needs(["c", "a", "b", "__name__"])),
        Row(
            rule: "3.4 explicit orderBy first, then inequality fields",
            query: q(and(op("a", .greaterThan), op("b", .greaterThan)), [desc("b")]),
            expected: needs(["-b", "-a", "-__name__"])),
        // 3.5: OR: every disjunction.
        Row(
            rule: "3.5 OR, second disjunction needs an index", query: q(or(op("a", .greaterThan), eq("b")), []),
            expected: needs(["b", "a", "__name__"])),
        Row(
            rule: "3.5 OR with a shared orderBy: first unserved disjunction", query: q(or(eq("a"), eq("b")), [asc("c")]),
            expected: needs(["a", "c", "__name__"])),
        Row(
            rule: "3.5 AND of ORs expands", query: q(and(or(eq("a"), eq("b")), or(eq("c"), eq("d"))), [asc("e")]),
            expected: needs(["a", "c", "e", "__name__"])),
        // 2.3: collection-group scope is not automatic.
        Row(
            rule: "2.3 collection group equality", query: q(eq("a"), group: true),
            expected: single("a", .ascending, scope: .collectionGroup)),
        Row(
            rule: "2.3 collection group orderBy desc", query: q(nil, [desc("createdAt")], group: true),
            expected: single("createdAt", .descending, scope: .collectionGroup)),
        Row(
            rule: "2.3 collection group array-contains", query: q(op("tags", .arrayContains), group: true),
            expected: single("tags", .arrayContains, scope: .collectionGroup)),
        Row(
            rule: "2.3 collection group equality + orderBy", query: q(eq("a"), [asc("b")], group: true),
            expected: needs(["a", "b", "__name__"], scope: .collectionGroup)),
        // Cursors, limit, offset and projection do not matter.
        Row(
            rule: "3 cursors do not matter",
            query: StructuredQuery(
                select: [p("a")], collectionID: "c", filter: eq("a"), orderBy: [], startAt: Cursor(values: [ref], before: true),
                endAt: Cursor(values: [ref], before: false), offset: 3, limit: 5), expected: nil),
    ]

    @Test(arguments: rows) func table(_ row: Row) {
        let target = QueryTarget(parent: .root, query: row.query)
        #expect(IndexRequirement.missingIndex(for: target, configuration: row.configuration) == row.expected)
    }

    func missing(_ query: StructuredQuery, _ configuration: IndexConfiguration) -> MissingIndex? {
        IndexRequirement.missingIndex(for: QueryTarget(parent: .root, query: query), configuration: configuration)
    }

    typealias T = IndexRequirementTests

    @Test func exemptionsRemoveAutomaticIndexes() {
        let exempt = IndexConfiguration(fieldOverrides: [FieldOverride(collectionGroup: "c", fieldPath: T.p("a"), indexes: [])])
        #expect(missing(T.q(T.eq("a")), exempt) == T.single("a", .ascending))
        #expect(missing(T.q(nil, [T.desc("a")]), exempt) == T.single("a", .descending))
        #expect(missing(T.q(T.op("a", .arrayContains)), exempt) == T.single("a", .arrayContains))
        // Another collection id or field keeps its automatic indexes.
        #expect(missing(T.q(T.eq("a"), collection: "d"), exempt) == nil)
        #expect(missing(T.q(T.eq("b")), exempt) == nil)
        // Merging stops at the exempted field.
        #expect(missing(T.q(T.and(T.eq("b"), T.eq("a"))), exempt) == T.single("a", .ascending))
    }

    @Test func mapSubfieldsInheritAnExemption() {
        let exempt = IndexConfiguration(fieldOverrides: [FieldOverride(collectionGroup: "c", fieldPath: T.p("m"), indexes: [])])
        #expect(missing(T.q(T.eq("m.x")), exempt) == T.single("m.x", .ascending))
        let relisted = IndexConfiguration(fieldOverrides: [
            FieldOverride(collectionGroup: "c", fieldPath: T.p("m"), indexes: []),
            FieldOverride(collectionGroup: "c", fieldPath: T.p("m.x"), indexes: SingleFieldIndexSetting.automatic),
        ])
        #expect(missing(T.q(T.eq("m.x")), relisted) == nil)
        #expect(missing(T.q(T.eq("m.y")), relisted) == T.single("m.y", .ascending))
    }

    @Test func overridesEnableCollectionGroupScope() {
        let cg = IndexConfiguration(fieldOverrides: [
            FieldOverride(
                collectionGroup: "c", fieldPath: T.p("a"),
                indexes: [.init(kind: .ascending), .init(queryScope: .collectionGroup, kind: .ascending)])
        ])
        #expect(missing(T.q(T.eq("a"), group: true), cg) == nil)
        #expect(missing(T.q(T.op("a", .greaterThan), group: true), cg) == nil)
        #expect(missing(T.q(T.eq("a"), [T.desc("__name__")], group: true), cg) == T.single("a", .descending, scope: .collectionGroup))
        // The override replaces the automatic settings: no descending collection index now.
        #expect(missing(T.q(nil, [T.desc("a")]), cg) == T.single("a", .descending))
    }

    @Test func aDefinedCompositeServesItsQueries() {
        let config = IndexConfiguration(indexes: [T.index(["a", "b"]), T.index(["x", "-y"]), T.index(["[tags", "-d"])])
        #expect(missing(T.q(T.eq("a"), [T.asc("b")]), config) == nil)
        #expect(missing(T.q(T.and(T.eq("a"), T.op("b", .greaterThan))), config) == nil)
        #expect(missing(T.q(nil, [T.asc("a"), T.asc("b")]), config) == nil)
        #expect(missing(T.q(T.eq("a"), [T.desc("b")]), config) == T.needs(["a", "-b", "-__name__"]))
        #expect(missing(T.q(T.eq("x"), [T.desc("y")]), config) == nil)
        #expect(missing(T.q(T.eq("x"), [T.desc("y"), T.asc("__name__")]), config) == T.needs(["x", "-y", "__name__"]))
        #expect(missing(T.q(T.op("tags", .arrayContains), [T.desc("d")]), config) == nil)
        #expect(missing(T.q(T.eq("tags"), [T.desc("d")]), config) == T.needs(["tags", "-d", "-__name__"]))
        // Each disjunction of an OR is served by the index.
        #expect(missing(T.q(T.or(T.eq("a", .integer(1)), T.eq("a", .integer(2))), [T.asc("b")]), config) == nil)
    }

    @Test func anExplicitNameFieldMustMatchTheDirection() {
        let explicit = IndexConfiguration(indexes: [T.index(["a", "-b", "__name__"])])
        #expect(missing(T.q(T.eq("a"), [T.desc("b"), T.asc("__name__")]), explicit) == nil)
        #expect(missing(T.q(T.eq("a"), [T.desc("b")]), explicit) == T.needs(["a", "-b", "-__name__"]))
    }

    @Test func equalityFieldsMayComeInAnyOrderAndDirection() {
        let config = IndexConfiguration(indexes: [T.index(["b", "-a", "c"])])
        #expect(missing(T.q(T.and(T.eq("a"), T.eq("b")), [T.asc("c")]), config) == nil)
        // An index with a field the query does not filter on does not serve it.
        #expect(missing(T.q(T.eq("a"), [T.asc("c")]), config) == T.needs(["a", "c", "__name__"]))
    }

    @Test func compositesMergeOnACommonOrder() {
        let config = IndexConfiguration(indexes: [T.index(["a", "c"]), T.index(["b", "c"])])
        #expect(missing(T.q(T.and(T.eq("a"), T.eq("b")), [T.asc("c")]), config) == nil)
        let half = IndexConfiguration(indexes: [T.index(["a", "c"])])
        #expect(missing(T.q(T.and(T.eq("a"), T.eq("b")), [T.asc("c")]), half) == T.needs(["a", "b", "c", "__name__"]))
    }

    @Test func scopesDoNotMix() {
        let collection = IndexConfiguration(indexes: [T.index(["a", "b"])])
        #expect(missing(T.q(T.eq("a"), [T.asc("b")], group: true), collection) == T.needs(["a", "b", "__name__"], scope: .collectionGroup))
        let group = IndexConfiguration(indexes: [T.index(["a", "b"], scope: .collectionGroup)])
        #expect(missing(T.q(T.eq("a"), [T.asc("b")], group: true), group) == nil)
        #expect(missing(T.q(T.eq("a"), [T.asc("b")]), group) == T.needs(["a", "b", "__name__"]))
        let other = IndexConfiguration(indexes: [T.index(["a", "b"], collection: "d")])
        #expect(missing(T.q(T.eq("a"), [T.asc("b")]), other) == T.needs(["a", "b", "__name__"]))
    }

    @Test func aCompositeCanServeAnExemptedSingleFieldShape() {
        let config = IndexConfiguration(
            indexes: [T.index(["a"])], fieldOverrides: [FieldOverride(collectionGroup: "c", fieldPath: T.p("a"), indexes: [])])
        #expect(missing(T.q(T.eq("a")), config) == nil)
        #expect(missing(T.q(nil, [T.asc("a")]), config) == nil)
        #expect(missing(T.q(nil, [T.desc("a")]), config) == T.single("a", .descending))
    }

    @Test func disjunctionsExpandAndsOfOrs() {
        let f = T.and(T.or(T.eq("a"), T.eq("b")), T.or(T.eq("c"), T.eq("d")), T.eq("e"))
        let d = IndexRequirement.disjunctions(of: f)
        #expect(d.count == 4)
        #expect(d[0] == [T.eq("a"), T.eq("c"), T.eq("e")])
        #expect(d[3] == [T.eq("b"), T.eq("d"), T.eq("e")])
        #expect(IndexRequirement.disjunctions(of: nil) == [[]])
    }

    @Test func missingIndexDescriptions() {
        #expect(T.needs(["bucket", "-i"]).description == "c COLLECTION (bucket ASC, i DESC, __name__ DESC)")
        #expect(T.single("t", .ascending, scope: .collectionGroup).description == "c.t COLLECTION_GROUP ASCENDING")
    }
}

/// The indexes a served query's plan reads (docs/reference/indexes.md §8).
@Suite struct IndexesUsedTests {
    typealias T = IndexRequirementTests

    func used(_ query: StructuredQuery, _ configuration: IndexConfiguration = IndexConfiguration()) -> [String]? {
        IndexRequirement.indexesUsed(for: QueryTarget(parent: .root, query: query), configuration: configuration)?.map(\.properties)
    }

    @Test func singleFieldAndNameScans() {
        #expect(used(T.q()) == ["(__name__ ASC)"])
        #expect(used(T.q(nil, [T.desc("__name__")])) == ["(__name__ DESC)"])
        #expect(used(T.q(nil, [T.desc("a")])) == ["(a DESC, __name__ DESC)"])
        #expect(used(T.q(T.op("a", .greaterThan))) == ["(a ASC, __name__ ASC)"])
        #expect(used(T.q(T.op("tags", .arrayContains))) == ["(tags CONTAINS, __name__ ASC)"])
        #expect(used(T.q(group: true, collection: "")) == ["(__name__ ASC)"])
    }

    @Test func mergedSingleFieldIndexesAreEachListed() {
        #expect(used(T.q(T.and(T.eq("b"), T.eq("a")))) == ["(a ASC, __name__ ASC)", "(b ASC, __name__ ASC)"])
        #expect(used(T.q(T.eq("a"), [T.desc("__name__")])) == ["(a DESC, __name__ DESC)"])
        #expect(used(T.q(T.or(T.eq("a"), T.eq("b")))) == ["(a ASC, __name__ ASC)", "(b ASC, __name__ ASC)"])
        #expect(used(T.q(T.or(T.eq("a", .integer(1)), T.eq("a", .integer(2))))) == ["(a ASC, __name__ ASC)"])
    }

    @Test func compositesAreListedAsDefined() {
        let config = IndexConfiguration(indexes: [T.index(["a", "c"]), T.index(["b", "c"]), T.index(["x", "-y"])])
        #expect(
            used(T.q(T.and(T.eq("a"), T.eq("b")), [T.asc("c")]), config) == [
                "(a ASC, c ASC, __name__ ASC)", "(b ASC, c ASC, __name__ ASC)",
            ])
        #expect(used(T.q(T.eq("x"), [T.desc("y")]), config) == ["(x ASC, y DESC, __name__ DESC)"])
        #expect(used(T.q(T.eq("a"), [T.asc("d")]), config) == nil)
    }

    @Test func severalInequalityFields() {
        #expect(IndexRequirement.hasInequalitiesOnSeveralFields(T.q(T.and(T.op("a", .greaterThan), T.op("b", .notEqual)))))
        #expect(!IndexRequirement.hasInequalitiesOnSeveralFields(T.q(T.and(T.op("a", .greaterThan), T.op("a", .lessThan)))))
        #expect(!IndexRequirement.hasInequalitiesOnSeveralFields(T.q(T.and(T.op("a", .greaterThan), T.op("__name__", .lessThan, T.ref)))))
        #expect(!IndexRequirement.hasInequalitiesOnSeveralFields(T.q(T.and(T.eq("a"), T.eq("b")))))
    }
}
