import Testing

@testable import FirestoreModel

@Suite struct StructuredQueryTests {
    let db = DatabaseID(project: "p")
    let a = FieldPath(["a"])
    let b = FieldPath(["b"])

    func doc(_ path: String, _ fields: FieldMap) -> Document {
        Document(path: ResourcePath(relative: path), fields: fields, createTime: Timestamp(seconds: 0, nanos: 0), updateTime: Timestamp(seconds: 0, nanos: 0))
    }

    var docs: [Document] {
        [
            doc("c/d1", ["a": .integer(1), "b": .string("x")]), doc("c/d2", ["a": .double(2.5)]), doc("c/d3", ["a": .integer(3), "b": .string("y")]),
            doc("c/d4", ["a": .double(3)]), doc("c/d5", ["b": .string("z")]), doc("c/d6", ["a": .null]), doc("c/d7", ["a": .string("s")]),
            doc("c/d1/c/n1", ["a": .integer(3)]), doc("other/o1", ["a": .integer(3)]),
        ]
    }

    func ids(_ q: StructuredQuery, parent: ResourcePath = .root) -> [String] {
        q.evaluate(over: docs, target: QueryTarget(parent: parent, query: q), in: db).documents.map(\.path.relativeString)
    }

    @Test func normalizedOrderBy() {
        #expect(StructuredQuery(collectionID: "c").normalizedOrderBy == [Order(.documentKey)])
        #expect(StructuredQuery(collectionID: "c", orderBy: [Order(a, .descending)]).normalizedOrderBy == [Order(a, .descending), Order(.documentKey, .descending)])
        let ineq = StructuredQuery(collectionID: "c", filter: .composite(.and, [.field(b, .greaterThan, .integer(1)), .field(a, .notEqual, .integer(1))]))
        #expect(ineq.normalizedOrderBy == [Order(a), Order(b), Order(.documentKey)])
        let mixed = StructuredQuery(collectionID: "c", filter: .field(a, .lessThan, .integer(1)), orderBy: [Order(b, .descending)])
        #expect(mixed.normalizedOrderBy == [Order(b, .descending), Order(a, .descending), Order(.documentKey, .descending)])
        let explicitName = StructuredQuery(collectionID: "c", filter: .field(a, .lessThan, .integer(1)), orderBy: [Order(.documentKey), Order(a)])
        #expect(explicitName.normalizedOrderBy == [Order(.documentKey), Order(a)])
        let unary = StructuredQuery(collectionID: "c", filter: .unary(a, .isNotNull))
        #expect(unary.normalizedOrderBy == [Order(a), Order(.documentKey)])
    }

    @Test func filterOrderAndMissingFields() {
        #expect(ids(StructuredQuery(collectionID: "c")) == ["c/d1", "c/d2", "c/d3", "c/d4", "c/d5", "c/d6", "c/d7"])
        #expect(ids(StructuredQuery(collectionID: "c", orderBy: [Order(a)])) == ["c/d6", "c/d1", "c/d2", "c/d3", "c/d4", "c/d7"])
        #expect(ids(StructuredQuery(collectionID: "c", orderBy: [Order(a, .descending)])) == ["c/d7", "c/d4", "c/d3", "c/d2", "c/d1", "c/d6"])
        #expect(ids(StructuredQuery(collectionID: "c", filter: .field(a, .greaterThanOrEqual, .integer(3)))) == ["c/d3", "c/d4"])
        #expect(ids(StructuredQuery(collectionID: "c", filter: .field(a, .greaterThan, .integer(1)), orderBy: [Order(b)])) == ["c/d3"])
    }

    @Test func parentsAndCollectionGroups() {
        #expect(ids(StructuredQuery(collectionID: "c", allDescendants: true, filter: .field(a, .equal, .integer(3))))
            == ["c/d1/c/n1", "c/d3", "c/d4"])
        #expect(ids(StructuredQuery(collectionID: "c"), parent: ResourcePath(["c", "d1"])) == ["c/d1/c/n1"])
        #expect(ids(StructuredQuery(collectionID: "c", allDescendants: true), parent: ResourcePath(["c", "d2"])) == [])
        let target = QueryTarget(parent: .root, query: StructuredQuery(collectionID: "c"))
        #expect(target.contains(ResourcePath(["c", "x"])) && !target.contains(ResourcePath(["c"])) && !target.contains(ResourcePath(["c", "x", "c", "y"])))
    }

    @Test func cursors() {
        let byA = [Order(a)]
        func q(_ start: Cursor?, _ end: Cursor?, order: [Order] = [Order(FieldPath(["a"]))]) -> [String] {
            ids(StructuredQuery(collectionID: "c", orderBy: order, startAt: start, endAt: end))
        }
        #expect(q(Cursor(values: [.integer(3)], before: true), nil, order: byA) == ["c/d3", "c/d4", "c/d7"])
        #expect(q(Cursor(values: [.integer(3)], before: false), nil, order: byA) == ["c/d7"])
        #expect(q(nil, Cursor(values: [.double(3)], before: false), order: byA) == ["c/d6", "c/d1", "c/d2", "c/d3", "c/d4"])
        #expect(q(nil, Cursor(values: [.double(3)], before: true), order: byA) == ["c/d6", "c/d1", "c/d2"])
        let name4 = Value.reference(db.resourceName(ResourcePath(["c", "d4"])))
        #expect(q(Cursor(values: [.integer(3), name4], before: true), nil, order: byA) == ["c/d4", "c/d7"])
        #expect(q(Cursor(values: [.integer(3), name4], before: false), nil, order: byA) == ["c/d7"])
        #expect(q(Cursor(values: [.integer(3)], before: true), nil, order: [Order(a, .descending)]) == ["c/d4", "c/d3", "c/d2", "c/d1", "c/d6"])
        #expect(q(Cursor(values: [.string("")], before: true), Cursor(values: [.map([:])], before: true), order: byA) == ["c/d7"])
        #expect(q(Cursor(values: [.null], before: false), nil, order: byA) == ["c/d1", "c/d2", "c/d3", "c/d4", "c/d7"])
    }

    @Test func offsetAndLimit() {
        let r = StructuredQuery(collectionID: "c", orderBy: [Order(a)], offset: 2, limit: 2)
            .evaluate(over: docs, target: QueryTarget(parent: .root, query: StructuredQuery(collectionID: "c")), in: db)
        #expect(r.documents.map(\.path.lastSegment) == ["d2", "d3"] && r.skipped == 2)
        let past = StructuredQuery(collectionID: "c", offset: 100).evaluate(over: docs, target: QueryTarget(parent: .root, query: StructuredQuery(collectionID: "c")), in: db)
        #expect(past.documents.isEmpty && past.skipped == 7)
        #expect(ids(StructuredQuery(collectionID: "c", limit: 0)) == [])
    }

    @Test func validation() throws {
        try StructuredQuery(collectionID: "c", filter: .composite(.and, [])).validate()
        try StructuredQuery(collectionID: "c", filter: .composite(.and, [.field(a, .greaterThan, .integer(1)), .field(b, .lessThan, .integer(1))])).validate()
        try StructuredQuery(collectionID: "", allDescendants: true).validate()
        let bad: [StructuredQuery] = [
            StructuredQuery(collectionID: "c", offset: -1), StructuredQuery(collectionID: "c", limit: -1), StructuredQuery(collectionID: ""),
            StructuredQuery(collectionID: "c", startAt: Cursor(values: [.integer(1), .integer(2)], before: true)),
            StructuredQuery(collectionID: "c", startAt: Cursor(values: [.string("d1")], before: true)),
            StructuredQuery(collectionID: "c", filter: .composite(.or, [])),
            StructuredQuery(collectionID: "c", filter: .field(a, .in, .array([]))),
            StructuredQuery(collectionID: "c", filter: .field(a, .in, .integer(1))),
            StructuredQuery(collectionID: "c", filter: .field(a, .arrayContainsAny, .array(Array(repeating: .integer(1), count: 31)))),
            StructuredQuery(collectionID: "c", filter: .field(a, .notIn, .array(Array(repeating: .integer(1), count: 11)))),
            StructuredQuery(collectionID: "c", filter: .composite(.and, [.field(a, .notIn, .array([.integer(1)])), .field(b, .notIn, .array([.integer(1)]))])),
            StructuredQuery(collectionID: "c", filter: .composite(.and, [.field(a, .notEqual, .integer(1)), .field(b, .notEqual, .integer(1))])),
            StructuredQuery(collectionID: "c", filter: .composite(.and, [.unary(a, .isNotNull), .field(b, .notEqual, .integer(1))])),
            StructuredQuery(collectionID: "c", filter: .field(.documentKey, .equal, .string("d1"))),
            StructuredQuery(collectionID: "c", filter: .field(.documentKey, .in, .array([.string("d1")]))),
            StructuredQuery(collectionID: "c", orderBy: [Order(FieldPath([]))]),
        ]
        for q in bad {
            let e = #expect(throws: FirestoreError.self) { try q.validate() }
            #expect(e?.code == .invalidArgument)
        }
        try StructuredQuery(collectionID: "c", filter: .field(a, .in, .array(Array(repeating: .integer(1), count: 30)))).validate()
    }
}
