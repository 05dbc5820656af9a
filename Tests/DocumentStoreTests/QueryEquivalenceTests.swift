import DeterministicRandom
import Testing

@testable import DocumentStore
@testable import FirestoreModel

/// Random documents and random queries: every store must return exactly what
/// `StructuredQuery.evaluate` returns over all documents (the one definition of the semantics).
@Suite struct QueryEquivalenceTests {
    /// Generates the data set and the queries from one seed.
    struct Scenario {
        var gen: ValueGenerator
        var documents: [ResourcePath: Document] = [:]

        init(seed: UInt64) { gen = ValueGenerator(rng: SplitMix64(seed: seed)) }

        static let fields = [FieldPath(["a"]), FieldPath(["b"]), FieldPath(["m", "x"]), FieldPath(["arr"])]

        mutating func randomFields() -> FieldMap {
            var f: FieldMap = [:]
            if gen.chance(0.85) { f["a"] = gen.chance(0.6) ? .integer(Int64.random(in: -4...4, using: &gen.rng)) : gen.value() }
            if gen.chance(0.7) { f["b"] = gen.value() }
            if gen.chance(0.4) { f["m"] = gen.chance(0.8) ? .map(["x": gen.value()]) : gen.value() }
            if gen.chance(0.5) {
                f["arr"] = gen.chance(0.85) ? .array((0..<Int.random(in: 0...3, using: &gen.rng)).map { _ in gen.scalar() }) : gen.value()
            }
            return f
        }

        mutating func randomPath() -> ResourcePath {
            let id = gen.pick(["d", "e", "f", "__id7__", "é", "d-", "Z"]) + String(Int.random(in: 0..<25, using: &gen.rng))
            switch Int.random(in: 0..<10, using: &gen.rng) {
            case 0: return path("p/\(gen.pick(["1", "2"]))/c/\(id)")
            case 1: return path("c/d\(Int.random(in: 0..<4, using: &gen.rng))/c/\(id)")
            case 2: return path("other/\(id)")
            default: return path("c/\(id)")
            }
        }

        mutating func randomOperand(for field: FieldPath) -> Value {
            if field.isDocumentKey { return ref(gen.pick(Array(documents.keys)).relativeString) }
            if gen.chance(0.4), let d = documents.values.randomElement(using: &gen.rng), let v = d.fields.value(at: field) {
                if case .array(let a) = v, let e = a.first, gen.chance(0.5) { return e }
                return v
            }
            return gen.chance(0.5) ? .integer(Int64.random(in: -4...4, using: &gen.rng)) : gen.value()
        }

        mutating func randomLeaf() -> Filter {
            let field = gen.chance(0.05) ? FieldPath.documentKey : gen.pick(Self.fields)
            if gen.chance(0.15) { return .unary(field, gen.pick(UnaryOperator.allCases)) }
            let op = gen.pick(FieldOperator.allCases)
            switch op {
            case .in, .notIn, .arrayContainsAny:
                return .field(field, op, .array((0..<Int.random(in: 1...4, using: &gen.rng)).map { _ in randomOperand(for: field) }))
            default:
                return .field(field, op, randomOperand(for: field))
            }
        }

        mutating func randomFilter(depth: Int = 0) -> Filter {
            guard depth < 2, gen.chance(0.35) else { return randomLeaf() }
            let n = Int.random(in: 1...3, using: &gen.rng)
            return .composite(gen.chance(0.5) ? .and : .or, (0..<n).map { _ in randomFilter(depth: depth + 1) })
        }

        mutating func randomTarget() -> QueryTarget {
            var q = StructuredQuery(collectionID: "c")
            var parent = ResourcePath.root
            switch Int.random(in: 0..<10, using: &gen.rng) {
            case 0, 1: q.allDescendants = true
            case 2: parent = path("p/1")
            case 3:
                q.allDescendants = true
                parent = path("c/d\(Int.random(in: 0..<4, using: &gen.rng))")
            default: break
            }
            if gen.chance(0.8) { q.filter = randomFilter() }
            for _ in 0..<Int.random(in: 0...2, using: &gen.rng) {
                let f = gen.chance(0.15) ? FieldPath.documentKey : gen.pick(Array(Self.fields.prefix(3)))
                q.orderBy.append(Order(f, gen.chance(0.5) ? .ascending : .descending))
            }
            let order = q.normalizedOrderBy
            for isStart in [true, false] where gen.chance(0.3) {
                let n = Int.random(in: 1...order.count, using: &gen.rng)
                let source = documents.values.randomElement(using: &gen.rng)
                let values = order.prefix(n).map { o -> Value in
                    if o.field.isDocumentKey { return ref((source?.path ?? path("c/d1")).relativeString) }
                    return source?.value(at: o.field, in: testDB) ?? randomOperand(for: o.field)
                }
                let cursor = Cursor(values: values, before: gen.chance(0.5))
                if isStart { q.startAt = cursor } else { q.endAt = cursor }
            }
            if gen.chance(0.3) { q.offset = Int.random(in: 1...3, using: &gen.rng) }
            if gen.chance(0.6) { q.limit = Int.random(in: 0...8, using: &gen.rng) }
            return QueryTarget(parent: parent, query: q)
        }

        func expected(_ target: QueryTarget) -> (documents: [Document], skipped: Int) {
            target.query.evaluate(over: documents.values, target: target, in: testDB)
        }
    }

    /// Asserts every store answers every query like the reference semantics.
    private static func check(
        _ stores: [(StoreKind, any DocumentStore)], _ scenario: Scenario, _ queries: [QueryTarget]
    ) throws -> (checked: Int, nonEmpty: Int) {
        var checked = 0
        var nonEmpty = 0
        for (kind, store) in stores {
            // Twice on SQLite: the first run may build the index it wants and scan; the second reads it.
            for round in 0..<(kind == .sqlite ? 2 : 1) {
                let snap = try store.snapshot()
                defer { snap.close() }
                for target in queries {
                    do throws(FirestoreError) {
                        try target.query.validate()
                    } catch {
                        #expect(throws: FirestoreError.self) { try snap.runQuery(target, in: testDB) }
                        continue
                    }
                    let want = scenario.expected(target)
                    let got = try snap.runQuery(target, in: testDB)
                    let plan = (snap as? SQLiteSnapshot)?.lastPlan.map(\.description) ?? "-"
                    #expect(got.documents.map(\.path) == want.documents.map(\.path), "\(kind) round \(round): \(target) plan: \(plan)")
                    #expect(got.documents == want.documents)
                    #expect(got.skipped == want.skipped, "\(kind): \(target)")
                    checked += 1
                    if !want.documents.isEmpty { nonEmpty += 1 }
                }
            }
        }
        return (checked, nonEmpty)
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func storesAnswerLikeEvaluate(seed: UInt64) throws {
        var scenario = Scenario(seed: seed)
        let stores = try StoreKind.allCases.map { ($0, try $0.make()) }
        defer { for (_, s) in stores { s.close() } }

        // Phase 1: a bulk load, plus noise in another database that must never show up.
        var puts: [Mutation] = []
        for i in 0..<220 {
            let p = scenario.randomPath()
            let d = Document(path: p, fields: scenario.randomFields(), createTime: ts(Int64(i)), updateTime: ts(Int64(i), 1))
            scenario.documents[p] = d
            puts.append(.put(d))
        }
        for (_, s) in stores {
            try s.commit(puts, in: testDB, commitTime: ts(1000))
            try s.commit(puts.prefix(50).map { m in
                guard case .put(var d) = m else { return m }
                d.fields["a"] = .integer(1)
                return .put(d)
            }, in: otherDB, commitTime: ts(1001))
        }
        let queries = (0..<150).map { _ in scenario.randomTarget() }
        let first = try Self.check(stores, scenario, queries)

        // Phase 2: updates and deletes now go through the indexes the queries built.
        var changes: [Mutation] = []
        for (i, p) in scenario.documents.keys.sorted().enumerated() where i % 3 == 0 {
            if i % 2 == 0 {
                scenario.documents[p] = nil
                changes.append(.delete(p))
            } else {
                let d = Document(path: p, fields: scenario.randomFields(), createTime: ts(1), updateTime: ts(2000))
                scenario.documents[p] = d
                changes.append(.put(d))
            }
        }
        for i in 0..<30 {
            let p = scenario.randomPath()
            let d = Document(path: p, fields: scenario.randomFields(), createTime: ts(3000 + Int64(i)), updateTime: ts(3000))
            scenario.documents[p] = d
            changes.append(.put(d))
        }
        for (_, s) in stores { try s.commit(changes, in: testDB, commitTime: ts(2000)) }
        let second = try Self.check(stores, scenario, queries + (0..<50).map { _ in scenario.randomTarget() })

        // The generator must produce meaningful cases, or this test proves nothing.
        #expect(first.checked + second.checked > 400)
        #expect(first.nonEmpty + second.nonEmpty > 150)
    }
}
