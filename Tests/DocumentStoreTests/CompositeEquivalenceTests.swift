import DeterministicRandom
import Testing

@testable import DocumentStore
@testable import FirestoreModel

/// Random documents and random queries shaped for composite indexes (equality, `in`,
/// `array-contains(-any)`, ranges, orderBy, cursors, limits, collection groups): the SQLite
/// store with composite indexes must answer exactly like `StructuredQuery.evaluate` over all
/// documents, before and after writes move entries, and after indexes are redefined.
@Suite struct CompositeEquivalenceTests {
    static let bucket = FieldPath(["bucket"])
    static let i = FieldPath(["i"])
    static let s = FieldPath(["s"])
    static let tags = FieldPath(["tags"])

    /// The indexes the scenario defines: forward and backward scans, a pinned-only index,
    /// a CONTAINS prefix, a collection-group index.
    static let indexes: [CompositeIndex] = [
        CompositeIndex(collectionGroup: "c", fields: [IndexField(bucket, .ascending), IndexField(i, .descending)]),
        CompositeIndex(collectionGroup: "c", fields: [IndexField(bucket, .ascending), IndexField(i, .ascending)]),
        CompositeIndex(collectionGroup: "c", fields: [IndexField(tags, .arrayContains), IndexField(i, .ascending)]),
        CompositeIndex(
            collectionGroup: "c", fields: [IndexField(bucket, .descending), IndexField(s, .ascending), IndexField(i, .descending)]),
        CompositeIndex(collectionGroup: "c", fields: [IndexField(i, .ascending), IndexField(s, .descending)]),
        CompositeIndex(collectionGroup: "c", fields: [IndexField(bucket, .descending), IndexField(tags, .arrayContains)]),
        CompositeIndex(
            collectionGroup: "c", queryScope: .collectionGroup, fields: [IndexField(bucket, .ascending), IndexField(i, .ascending)]),
        CompositeIndex(
            collectionGroup: "c", queryScope: .collectionGroup,
            fields: [IndexField(tags, .arrayContains), IndexField(bucket, .ascending), IndexField(i, .descending)]),
    ]

    struct Scenario {
        var gen: ValueGenerator
        var documents: [ResourcePath: Document] = [:]

        init(seed: UInt64) { gen = ValueGenerator(rng: SplitMix64(seed: seed)) }

        mutating func int(_ range: ClosedRange<Int64>) -> Int64 { Int64.random(in: range, using: &gen.rng) }

        mutating func randomFields() -> FieldMap {
            var f: FieldMap = [:]
            if gen.chance(0.9) { f["bucket"] = gen.chance(0.85) ? .integer(int(0...4)) : gen.scalar() }
            if gen.chance(0.9) {
                f["i"] = gen.chance(0.8) ? .integer(int(-20...20)) : (gen.chance(0.5) ? .double(Double(int(-20...20)) + 0.5) : gen.value())
            }
            if gen.chance(0.7) { f["s"] = gen.chance(0.7) ? .string(gen.pick(["a", "b", "c", "ab", ""])) : gen.value() }
            if gen.chance(0.7) {
                f["tags"] =
                    gen.chance(0.9)
                    ? .array((0..<Int(int(0...3))).map { _ in gen.chance(0.8) ? .string(gen.pick(["x", "y", "z"])) : gen.scalar() })
                    : gen.scalar()
            }
            return f
        }

        mutating func randomPath() -> ResourcePath {
            let id = gen.pick(["d", "e", "__id7__", "é", "d-"]) + String(int(0...40))
            switch int(0...9) {
            case 0: return path("p/\(gen.pick(["1", "2"]))/c/\(id)")
            case 1: return path("c/d\(int(0...3))/c/\(id)")
            case 2: return path("other/\(id)")
            default: return path("c/\(id)")
            }
        }

        mutating func bucketValue() -> Value { gen.chance(0.9) ? .integer(int(0...4)) : gen.scalar() }

        mutating func iValue() -> Value {
            if gen.chance(0.3), let d = documents.values.randomElement(using: &gen.rng), let v = d.fields["i"] { return v }
            return gen.chance(0.85) ? .integer(int(-22...22)) : gen.scalar()
        }

        mutating func pinned() -> [Filter] {
            var filters: [Filter] = []
            switch int(0...9) {
            case 0...4: filters.append(.field(bucket, .equal, bucketValue()))
            case 5, 6: filters.append(.field(bucket, .in, .array((0..<Int(int(1...3))).map { _ in bucketValue() })))
            case 7: filters.append(.unary(bucket, .isNull))
            default: break
            }
            switch int(0...9) {
            case 0...2: filters.append(.field(tags, .arrayContains, .string(gen.pick(["x", "y", "z", "w"]))))
            case 3: filters.append(.field(tags, .arrayContainsAny, .array([.string("x"), .string(gen.pick(["y", "z"]))])))
            default: break
            }
            if gen.chance(0.15) { filters.append(.field(s, .equal, .string(gen.pick(["a", "b", "c"])))) }
            return filters
        }

        mutating func randomTarget() -> QueryTarget {
            var q = StructuredQuery(collectionID: "c")
            var parent = ResourcePath.root
            switch int(0...9) {
            case 0, 1: q.allDescendants = true
            case 2: parent = path("p/1")
            case 3:
                q.allDescendants = true
                parent = path("c/d\(int(0...3))")
            default: break
            }
            var filters = pinned()
            if gen.chance(0.4) {
                let op = gen.pick([FieldOperator.lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual])
                filters.append(.field(i, op, iValue()))
                if gen.chance(0.4) { filters.append(.field(i, gen.pick([.lessThan, .greaterThanOrEqual]), iValue())) }
            }
            if gen.chance(0.05) { filters.append(.field(i, .notEqual, iValue())) }
            if gen.chance(0.05) {
                filters.append(.composite(.or, [.field(s, .equal, .string("a")), .field(i, .greaterThan, .integer(0))]))
            }
            if filters.count == 1 { q.filter = filters[0] } else if !filters.isEmpty { q.filter = .composite(.and, filters) }

            let hasRange = filters.contains { if case .field(i, let op, _) = $0 { return op != .equal && op != .in } else { return false } }
            switch int(0...5) {
            case 0: break
            case 1: if !hasRange { q.orderBy = [Order(s, gen.chance(0.5) ? .ascending : .descending)] }
            case 2:
                let d: Direction = gen.chance(0.5) ? .ascending : .descending
                q.orderBy = [Order(i, d), Order(s, gen.chance(0.5) ? d : (d == .ascending ? .descending : .ascending))]
            default: q.orderBy = [Order(i, gen.chance(0.5) ? .ascending : .descending)]
            }
            if gen.chance(0.1) { q.orderBy.append(Order(.documentKey, gen.chance(0.5) ? .ascending : .descending)) }
            let order = q.normalizedOrderBy
            for isStart in [true, false] where gen.chance(0.3) {
                let n = Int(int(1...Int64(order.count)))
                let source = documents.values.randomElement(using: &gen.rng)
                let values = order.prefix(n).map { o -> Value in
                    if o.field.isDocumentKey { return ref((source?.path ?? path("c/d1")).relativeString) }
                    return source?.value(at: o.field, in: testDB) ?? iValue()
                }
                let cursor = Cursor(values: values, before: gen.chance(0.5))
                if isStart { q.startAt = cursor } else { q.endAt = cursor }
            }
            if gen.chance(0.2) { q.offset = Int(int(1...3)) }
            if gen.chance(0.7) { q.limit = Int(int(0...10)) }
            return QueryTarget(parent: parent, query: q)
        }

        func expected(_ target: QueryTarget) -> (documents: [Document], skipped: Int) {
            target.query.evaluate(over: documents.values, target: target, in: testDB)
        }
    }

    /// Runs every query on a fresh snapshot of `store`, comparing with the reference.
    /// - Returns: how many were checked, returned something, and ran on a composite index.
    static func check(_ store: SQLiteDocumentStore, _ scenario: Scenario, _ queries: [QueryTarget]) throws
        -> (checked: Int, nonEmpty: Int, composite: Int)
    {
        var checked = 0
        var nonEmpty = 0
        var composite = 0
        let snap = try #require(try store.snapshot() as? SQLiteSnapshot)
        defer { snap.close() }
        for target in queries {
            do throws(FirestoreError) {
                try target.query.validate()
            } catch {
                continue
            }
            let want = scenario.expected(target)
            var statistics = QueryStatistics()
            let got = try snap.runQuery(target, in: testDB, statistics: &statistics)
            let plan = snap.lastPlan?.description ?? ""
            #expect(got.documents.map(\.path) == want.documents.map(\.path), "\(target) plan: \(plan)")
            #expect(got.documents == want.documents)
            #expect(got.skipped == want.skipped, "\(target) plan: \(plan)")
            #expect(statistics.plan == plan)
            checked += 1
            if !want.documents.isEmpty { nonEmpty += 1 }
            if plan.hasPrefix("composite") { composite += 1 }
        }
        return (checked, nonEmpty, composite)
    }

    @Test(arguments: [UInt64(11), 12, 13])
    func compositePlansAnswerLikeEvaluate(seed: UInt64) throws {
        var scenario = Scenario(seed: seed)
        let store = try SQLiteDocumentStore(inMemory: ())
        defer { store.close() }

        // Half the documents before the indexes exist (the build), half after (maintenance).
        var puts: [Mutation] = []
        for n in 0..<300 {
            let p = scenario.randomPath()
            let d = Document(path: p, fields: scenario.randomFields(), createTime: ts(Int64(n)), updateTime: ts(Int64(n), 1))
            scenario.documents[p] = d
            puts.append(.put(d))
        }
        try store.commit(Array(puts.prefix(150)), in: testDB, commitTime: ts(1000))
        try store.defineCompositeIndexes(Self.indexes, project: testDB.project)
        try store.commit(Array(puts.dropFirst(150)), in: testDB, commitTime: ts(1001))
        // Noise in another database of the project (its indexes too) must never show up.
        try store.commit(
            puts.prefix(40).map { m in
                guard case .put(var d) = m else { return m }
                d.fields["bucket"] = .integer(1)
                return .put(d)
            }, in: otherDB, commitTime: ts(1002))

        let queries = (0..<250).map { _ in scenario.randomTarget() }
        let first = try Self.check(store, scenario, queries)

        // Updates (array changes, field removals), deletes and creates move entries.
        var changes: [Mutation] = []
        for (n, p) in scenario.documents.keys.sorted().enumerated() where n % 3 == 0 {
            if n % 2 == 0 {
                scenario.documents[p] = nil
                changes.append(.delete(p))
            } else {
                var fields = scenario.documents[p]?.fields ?? [:]
                switch n % 4 {
                case 1: fields["tags"] = .array([.string("z"), .string("w")])
                case 3: fields["i"] = nil
                default: fields = scenario.randomFields()
                }
                let d = Document(path: p, fields: fields, createTime: ts(1), updateTime: ts(2000))
                scenario.documents[p] = d
                changes.append(.put(d))
            }
        }
        for n in 0..<40 {
            let p = scenario.randomPath()
            let d = Document(path: p, fields: scenario.randomFields(), createTime: ts(3000 + Int64(n)), updateTime: ts(3000))
            scenario.documents[p] = d
            changes.append(.put(d))
        }
        try store.commit(changes, in: testDB, commitTime: ts(2000))
        let second = try Self.check(store, scenario, queries + (0..<100).map { _ in scenario.randomTarget() })

        // Redefined without half of them: the rest still answer, the dropped ones are not read.
        try store.defineCompositeIndexes(Array(Self.indexes.prefix(4)), project: testDB.project)
        let third = try Self.check(store, scenario, queries)

        #expect(first.checked + second.checked + third.checked > 500)
        #expect(first.nonEmpty + second.nonEmpty > 150)
        // The generator must reach the composite plans, or this test proves little.
        #expect(first.composite > 60, "composite plans: \(first.composite) of \(first.checked)")
        #expect(second.composite > 60, "composite plans: \(second.composite) of \(second.checked)")
        #expect(third.composite > 20, "composite plans: \(third.composite) of \(third.checked)")
    }
}
