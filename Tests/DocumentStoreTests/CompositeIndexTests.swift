import DeterministicRandom
import Foundation
import Testing

@testable import DocumentStore
@testable import FirestoreModel

/// Composite index keys, storage, lifecycle, plans and statistics of the SQLite store.
@Suite struct CompositeIndexTests {
    static let bucket = FieldPath(["bucket"])
    static let i = FieldPath(["i"])
    static let tags = FieldPath(["tags"])
    static let byBucketThenIDescending = CompositeIndex(
        collectionGroup: "c", fields: [IndexField(bucket, .ascending), IndexField(i, .descending)])
    static let byTagThenI = CompositeIndex(collectionGroup: "c", fields: [IndexField(tags, .arrayContains), IndexField(i, .ascending)])

    private func memcmpOrder(_ a: [UInt8], _ b: [UInt8]) -> Ordering {
        a == b ? .equal : (a.lexicographicallyPrecedes(b) ? .less : .greater)
    }

    // MARK: Keys

    /// Concatenation needs prefix-free components: no value key is a proper prefix of another.
    @Test func valueKeysArePrefixFree() {
        var gen = ValueGenerator(rng: SplitMix64(seed: 7))
        var pool: [[UInt8]] = []
        for _ in 0..<3000 { pool.append(OrderedKey.value(gen.value())) }
        pool += [Value.null, .array([]), .array([.null]), .map([:]), .string(""), .string("\u{0}"), .bytes([0]), .bytes([0, 0])]
            .map(OrderedKey.value)
        var prefixes = 0
        for a in pool {
            for b in pool.prefix(400) where a.count < b.count && b.starts(with: a) { prefixes += 1 }
        }
        #expect(prefixes == 0)
    }

    /// Path keys alone are not prefix-free (an ancestor's key starts its descendants'); the
    /// `__name__` component is, so a descending name still sorts a document after its descendants.
    @Test func nameComponentsOrderAncestorsInBothDirections() {
        let parent = OrderedKey.path(path("c/a"))
        let child = OrderedKey.path(path("c/a/c/b"))
        #expect(child.starts(with: parent))
        let up = CompositeIndex.nameComponent(parent, descending: false)
        let down = CompositeIndex.nameComponent(child, descending: false)
        #expect(memcmpOrder(up, down) == .less)
        #expect(!down.starts(with: up))
        #expect(
            memcmpOrder(CompositeIndex.nameComponent(parent, descending: true), CompositeIndex.nameComponent(child, descending: true))
                == .greater)
    }

    /// Keys of two-field tuples (each direction) and a name order like the tuples do.
    @Test func concatenatedKeysOrderLikeTuples() {
        var gen = ValueGenerator(rng: SplitMix64(seed: 9))
        let names = ["c/a", "c/b", "c/a/c/b", "c/__id5__", "x/1/c/a", "c/a-"].map(path)
        var checked = 0
        for _ in 0..<4000 {
            let first = gen.chance(0.3) ? Value.integer(1) : gen.value()
            let (a, b) = ((first, gen.value(), gen.pick(names)), (gen.chance(0.4) ? first : gen.value(), gen.value(), gen.pick(names)))
            for (d1, d2, d3) in [(false, false, false), (true, false, true), (false, true, false), (true, true, true)] {
                func key(_ t: (Value, Value, ResourcePath)) -> [UInt8] {
                    CompositeIndex.component(t.0, descending: d1) + CompositeIndex.component(t.1, descending: d2)
                        + CompositeIndex.nameComponent(OrderedKey.path(t.2), descending: d3)
                }
                func flip(_ o: Ordering, _ d: Bool) -> Ordering { d ? (o == .less ? .greater : o == .greater ? .less : .equal) : o }
                var expected = flip(Value.compare(a.0, b.0), d1)
                if expected == .equal { expected = flip(Value.compare(a.1, b.1), d2) }
                if expected == .equal { expected = flip(a.2 == b.2 ? .equal : (a.2 < b.2 ? .less : .greater), d3) }
                #expect(memcmpOrder(key(a), key(b)) == expected, "\(a) vs \(b) \(d1) \(d2) \(d3)")
                checked += 1
            }
        }
        #expect(checked == 16_000)
    }

    @Test func entryKeysFollowTheDocument() {
        let index = CompositeIndex(
            collectionGroup: "c", fields: [IndexField(Self.bucket, .ascending), IndexField(Self.tags, .arrayContains)])
        let p = path("c/a")
        func keys(_ fields: FieldMap) -> [[UInt8]] { index.entryKeys(path: p) { fields.value(at: $0) } }
        // One entry per distinct element (1 and 1.0 are one), none without an array or a field.
        #expect(keys(["bucket": .integer(1), "tags": .array([.integer(1), .double(1), .string("x")])]).count == 2)
        #expect(keys(["bucket": .integer(1), "tags": .string("x")]).isEmpty)
        #expect(keys(["bucket": .integer(1), "tags": .array([])]).isEmpty)
        #expect(keys(["tags": .array([.string("x")])]).isEmpty)
        #expect(index.properties == "(bucket ASC, tags CONTAINS, __name__ ASC)")
        #expect(CompositeIndex.successor(ofPrefix: [0x01, 0xFF]) == [0x02])
        #expect(CompositeIndex.successor(ofPrefix: [0xFF]) == nil)
    }

    @Test func definitionBytesRoundTrip() throws {
        let index = CompositeIndex(
            collectionGroup: "c",
            fields: [
                IndexField(FieldPath(["a", "b.c"]), .descending), IndexField(FieldPath(["\u{0}"]), .arrayContains),
                IndexField(.documentKey, .ascending),
            ])
        let decoded = try index.encodedFields.withUnsafeBytes { try CompositeIndex.decodeFields($0) }
        #expect(decoded == index.fields)
    }

    // MARK: Storage and lifecycle

    /// Rows of `composite_entries` per index, read with a connection of its own.
    private func entryCounts(_ file: String) throws -> [Int64: Int] {
        let raw = try SQLiteConnection(path: file)
        defer { raw.close() }
        let select = try raw.prepare(
            "SELECT i.id, count(e.key) FROM composite_indexes AS i LEFT JOIN composite_entries AS e ON e.index_id = i.id GROUP BY i.id")
        defer { select.reset() }
        var out: [Int64: Int] = [:]
        while try select.step() { out[select.int64(at: 0)] = Int(select.int64(at: 1)) }
        return out
    }

    @Test func entriesFollowCreatesUpdatesDeletesArrayChangesAndFieldRemovals() throws {
        let store = try SQLiteDocumentStore(inMemory: ())
        defer { store.close() }
        try store.commit(
            [.put(doc("c/a", ["bucket": .integer(1), "i": .integer(1), "tags": .array([.string("x")])]))], in: testDB, commitTime: ts(1))
        try store.defineCompositeIndexes([Self.byBucketThenIDescending, Self.byTagThenI], project: testDB.project)
        var counts = try entryCounts(store.path)
        #expect(counts.values.sorted() == [1, 1])  // built from the stored document
        let ids = counts.keys.sorted()

        try store.commit(
            [.put(doc("c/b", ["bucket": .integer(1), "i": .integer(2), "tags": .array([.string("x"), .string("y"), .string("x")])]))],
            in: testDB, commitTime: ts(2))
        counts = try entryCounts(store.path)
        #expect(counts[ids[0]] == 2 && counts[ids[1]] == 3)
        // Array change: one element fewer; field removal: no entry in the (bucket, i) index.
        try store.commit(
            [.put(doc("c/b", ["bucket": .integer(1), "tags": .array([.string("z")]), "i": .integer(2)]))], in: testDB, commitTime: ts(3))
        try store.commit([.put(doc("c/a", ["i": .integer(1), "tags": .array([.string("x")])]))], in: testDB, commitTime: ts(4))
        counts = try entryCounts(store.path)
        #expect(counts[ids[0]] == 1 && counts[ids[1]] == 2)
        // Delete; a document of another collection id adds nothing.
        try store.commit(
            [.delete(path("c/b")), .put(doc("d/x", ["bucket": .integer(1), "i": .integer(1)]))], in: testDB, commitTime: ts(5))
        counts = try entryCounts(store.path)
        #expect(counts[ids[0]] == 0 && counts[ids[1]] == 1)

        let query = StructuredQuery(collectionID: "c", filter: .field(Self.tags, .arrayContains, .string("x")), orderBy: [Order(Self.i)])
        let snap = try store.snapshot()
        defer { snap.close() }
        var statistics = QueryStatistics()
        #expect(
            try snap.runQuery(QueryTarget(parent: .root, query: query), in: testDB, statistics: &statistics).documents.map(\.path) == [
                path("c/a")
            ])
        #expect(statistics.indexesUsed == [IndexUsage(queryScope: "Collection", properties: "(tags CONTAINS, i ASC, __name__ ASC)")])
        snap.close()

        // A clear empties the indexes and keeps them defined: later writes fill them again.
        try store.deleteAll(in: testDB, at: ts(6))
        counts = try entryCounts(store.path)
        #expect(counts.count == 2 && counts.values.allSatisfy { $0 == 0 })
        try store.commit(
            [.put(doc("c/z", ["bucket": .integer(2), "i": .integer(3), "tags": .array([.string("x")])]))], in: testDB, commitTime: ts(7))
        #expect(try entryCounts(store.path).values.sorted() == [1, 1])
    }

    /// Databases created after the definition get the indexes; a redefinition keeps the
    /// unchanged ones (same row, no rebuild) and drops the rest with their entries; a reopen
    /// keeps everything.
    @Test func defineRedefineAndReopen() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let file = dir.file("store.sqlite")
        var store = try SQLiteDocumentStore(path: file, durability: .off)
        try store.commit(
            [.put(doc("c/a", ["bucket": .integer(1), "i": .integer(1), "tags": .array([.string("x")])]))], in: testDB, commitTime: ts(1))
        try store.defineCompositeIndexes([Self.byBucketThenIDescending, Self.byTagThenI, Self.byTagThenI], project: testDB.project)
        #expect(
            try store.compositeIndexes(project: testDB.project) == [Self.byBucketThenIDescending.normalized, Self.byTagThenI.normalized])
        // A database created later, and another project's, which gets none.
        try store.commit(
            [.put(doc("c/a", ["bucket": .integer(1), "i": .integer(1), "tags": .array([.string("x")])]))], in: otherDB, commitTime: ts(2))
        try store.commit(
            [.put(doc("c/a", ["bucket": .integer(1), "i": .integer(1)]))], in: DatabaseID(project: "elsewhere"), commitTime: ts(3))
        let first = try entryCounts(file)
        #expect(first.count == 4)
        #expect(first.values.allSatisfy { $0 == 1 })

        // Redefine with one of them (its implied `__name__` spelled out): the other is dropped.
        let spelled = CompositeIndex(
            collectionGroup: "c", fields: Self.byBucketThenIDescending.fields + [IndexField(.documentKey, .descending)])
        try store.defineCompositeIndexes([spelled], project: testDB.project)
        let second = try entryCounts(file)
        #expect(second.count == 2)
        #expect(Set(second.keys).isSubset(of: Set(first.keys)))
        store.close()

        store = try SQLiteDocumentStore(path: file, durability: .off)
        defer { store.close() }
        #expect(try entryCounts(file) == second)
        #expect(try store.compositeIndexes(project: testDB.project) == [Self.byBucketThenIDescending.normalized])
        #expect(try store.compositeIndexes(project: "elsewhere").isEmpty)
        try store.defineCompositeIndexes([Self.byBucketThenIDescending], project: testDB.project)
        #expect(try entryCounts(file) == second)  // unchanged: not rebuilt
        // Writes after the reopen maintain the kept index.
        try store.commit([.put(doc("c/b", ["bucket": .integer(1), "i": .integer(5)]))], in: testDB, commitTime: ts(4))
        let query = StructuredQuery(
            collectionID: "c", filter: .field(Self.bucket, .equal, .integer(1)), orderBy: [Order(Self.i, .descending)])
        let snap = try #require(try store.snapshot() as? SQLiteSnapshot)
        defer { snap.close() }
        #expect(try snap.runQuery(QueryTarget(parent: .root, query: query), in: testDB).documents.map(\.path.lastSegment) == ["b", "a"])
        #expect(snap.lastPlan?.description.hasPrefix("composite c COLLECTION (bucket ASC, i DESC, __name__ DESC)") == true)
    }

    /// A version 2 file (no composite tables) opens as version 3 without starting a new
    /// history horizon, and takes composite definitions.
    @Test func versionTwoFileIsUpgradedInPlace() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let file = dir.file("v2.sqlite")
        var store = try SQLiteDocumentStore(path: file)
        try store.commit([.put(doc("c/a", ["bucket": .integer(1), "i": .integer(1)]))], in: testDB, commitTime: ts(1))
        store.close()
        let raw = try SQLiteConnection(path: file)
        try raw.execute(
            "DROP TABLE composite_definitions; DROP TABLE composite_indexes; DROP TABLE composite_entries; UPDATE meta SET value = 2 WHERE key = 'schema_version';"
        )
        raw.close()

        store = try SQLiteDocumentStore(path: file)
        defer { store.close() }
        #expect(try store.historyHorizon(in: testDB) == nil)
        try store.defineCompositeIndexes([Self.byBucketThenIDescending], project: testDB.project)
        #expect(try entryCounts(file).values.sorted() == [1])
        let check = try SQLiteConnection(path: file)
        defer { check.close() }
        let version = try check.prepare("SELECT value FROM meta WHERE key = 'schema_version'")
        defer { version.reset() }
        #expect(try version.step() && version.int64(at: 0) == SQLiteSchema.version)
        #expect(SQLiteSchema.version == 3)
    }

    // MARK: Plans and statistics

    /// The issue's query: `bucket == 3 order by i desc limit 20` over 10,000 documents reads
    /// about 20 entries of the composite index, where the single-field plan reads thousands.
    @Test func equalityOrderByLimitReadsOnlyTheLimit() throws {
        let store = try SQLiteDocumentStore(inMemory: ())
        defer { store.close() }
        let documents = (0..<10_000).map { n in
            doc(String(format: "c/d%05d", n), ["bucket": .integer(Int64(n % 10)), "i": .integer(Int64((n * 7919) % 10_000))])
        }
        try store.commit(documents.map(Mutation.put), in: testDB, commitTime: ts(1))
        let target = QueryTarget(
            parent: .root,
            query: StructuredQuery(
                collectionID: "c", filter: .field(Self.bucket, .equal, .integer(3)), orderBy: [Order(Self.i, .descending)], limit: 20))
        let want = target.query.evaluate(over: documents, target: target, in: testDB).documents

        func run() throws -> ([Document], QueryStatistics) {
            let snap = try store.snapshot()
            defer { snap.close() }
            var statistics = QueryStatistics()
            let got = try snap.runQuery(target, in: testDB, statistics: &statistics).documents
            return (got, statistics)
        }
        _ = try run()  // builds the single-field index it wants
        let (plain, without) = try run()
        #expect(plain == want)
        #expect(without.documentsScanned >= 1000)

        try store.defineCompositeIndexes([Self.byBucketThenIDescending], project: testDB.project)
        let (got, with) = try run()
        #expect(got == want)
        #expect(got.count == 20)
        #expect(with.indexesUsed == [IndexUsage(queryScope: "Collection", properties: "(bucket ASC, i DESC, __name__ DESC)")])
        #expect(with.plan.hasPrefix("composite c COLLECTION (bucket ASC, i DESC, __name__ DESC)"))
        #expect(with.plan.hasSuffix("asc; ordered by index key"))
        #expect(with.indexEntriesScanned >= 20 && with.indexEntriesScanned <= 21, "\(with)")
        #expect(with.documentsScanned >= 20 && with.documentsScanned <= 21, "\(with)")

        // Ascending order reads the same index backwards.
        var ascending = target
        ascending.query.orderBy = [Order(Self.i, .ascending)]
        let snap = try store.snapshot()
        defer { snap.close() }
        var statistics = QueryStatistics()
        let up = try snap.runQuery(ascending, in: testDB, statistics: &statistics).documents
        #expect(up == ascending.query.evaluate(over: documents, target: ascending, in: testDB).documents)
        #expect(statistics.plan.hasSuffix("desc; ordered by index key"))
        #expect(statistics.indexEntriesScanned <= 21)

        // `in` reads each bucket's prefix up to the limit, not the buckets whole.
        var twoBuckets = target
        twoBuckets.query.filter = .field(Self.bucket, .in, .array([.integer(4), .integer(3)]))
        twoBuckets.query.offset = 5
        let both = try snap.runQuery(twoBuckets, in: testDB, statistics: &statistics)
        let expected = twoBuckets.query.evaluate(over: documents, target: twoBuckets, in: testDB)
        #expect(both.documents == expected.documents)
        #expect(both.skipped == 5)
        #expect(statistics.plan.hasSuffix("ordered by index key within each range"))
        #expect(statistics.indexEntriesScanned <= 2 * 26, "\(statistics)")
    }

    @Test func plannerChoosesServingComposites() {
        let a = FieldPath(["a"])
        let b = FieldPath(["b"])
        let composites = [
            CompositeIndex(collectionGroup: "c", fields: [IndexField(a, .ascending), IndexField(b, .ascending)]).normalized,
            CompositeIndex(collectionGroup: "c", fields: [IndexField(Self.tags, .arrayContains), IndexField(a, .descending)]).normalized,
        ]
        func plan(_ q: StructuredQuery) -> QueryPlan {
            QueryPlanner.plan(QueryTarget(parent: .root, query: q), in: testDB, composites: composites)
        }
        // `a == 1 order by b`: the prefix of the key of 1 (number tag, positive, exponent 2048,
        // no fraction bits), then every b, read forwards.
        let eq = plan(StructuredQuery(collectionID: "c", filter: .field(a, .equal, .integer(1)), orderBy: [Order(b)]))
        #expect(
            eq.description
                == "composite c COLLECTION (a ASC, b ASC, __name__ ASC) [200508000000000000000000, 200508000000000000000001) asc; ordered by index key"
        )
        // `a in [1, 2]`: two prefixes, each in order; descending b reads backwards.
        let inPlan = plan(
            StructuredQuery(
                collectionID: "c", filter: .field(a, .in, .array([.integer(2), .integer(1)])), orderBy: [Order(b, .descending)]))
        #expect(inPlan.description.hasSuffix("desc; ordered by index key within each range"))
        if case .composite(_, let ranges, .descending) = inPlan.accesses.first {
            #expect(ranges.count == 2)
            #expect(ranges.first.map { bytesLess(ranges[1].lower?.key ?? [], $0.lower?.key ?? []) } == true)
        } else {
            Issue.record("expected a composite scan: \(inPlan)")
        }
        // A range on b after the pinned a narrows the scan inside the prefix.
        let range = plan(
            StructuredQuery(
                collectionID: "c", filter: .composite(.and, [.field(a, .equal, .integer(1)), .field(b, .greaterThan, .integer(1))])))
        #expect(
            range.description.hasPrefix(
                "composite c COLLECTION (a ASC, b ASC, __name__ ASC) [200508000000000000000000200508000000000000000001, 20050800000000000000000021)"
            ))
        // Mixed directions do not match; the single-field plan is used instead.
        let mixed = plan(
            StructuredQuery(
                collectionID: "c", filter: .field(a, .equal, .integer(1)), orderBy: [Order(b), Order(.documentKey, .descending)]))
        #expect(mixed.description.hasPrefix("index c.a"))
        // array-contains with an order on a: the CONTAINS prefix.
        let contains = plan(
            StructuredQuery(collectionID: "c", filter: .field(Self.tags, .arrayContains, .string("x")), orderBy: [Order(a, .descending)]))
        #expect(contains.description.hasPrefix("composite c COLLECTION (tags CONTAINS, a DESC, __name__ DESC)"))
        #expect(contains.streamOrder == .indexKey)
        // A collection-group query does not read collection-scope indexes.
        let group = plan(
            StructuredQuery(collectionID: "c", allDescendants: true, filter: .field(a, .equal, .integer(1)), orderBy: [Order(b)]))
        #expect(group.description.hasPrefix("index c.a"))
    }

    /// Point-in-time queries planned on a composite index see the versions current then.
    @Test func pointInTimeQueriesOnACompositeIndex() throws {
        let store = try SQLiteDocumentStore(inMemory: ())
        defer { store.close() }
        try store.defineCompositeIndexes([Self.byBucketThenIDescending], project: testDB.project)
        let before = (0..<30).map { n in
            Document(
                path: path(String(format: "c/d%02d", n)), fields: ["bucket": .integer(Int64(n % 2)), "i": .integer(Int64(n))],
                createTime: ts(1), updateTime: ts(1))
        }
        try store.commit(before.map(Mutation.put), in: testDB, commitTime: ts(1))
        let after = before.prefix(10).map { d in
            var d = d
            d.fields["i"] = .integer(100 + (d.fields["i"].flatMap { if case .integer(let x) = $0 { return x } else { return nil } } ?? 0))
            d.updateTime = ts(2)
            return d
        }
        try store.commit(after.map(Mutation.put) + [.delete(path("c/d29"))], in: testDB, commitTime: ts(2))
        let target = QueryTarget(
            parent: .root,
            query: StructuredQuery(
                collectionID: "c", filter: .field(Self.bucket, .equal, .integer(1)), orderBy: [Order(Self.i, .descending)], limit: 5))
        let past = try store.snapshot(at: ts(1))
        defer { past.close() }
        var statistics = QueryStatistics()
        let got = try past.runQuery(target, in: testDB, statistics: &statistics).documents
        #expect(got == target.query.evaluate(over: before, target: target, in: testDB).documents)
        #expect(statistics.plan.hasPrefix("composite"))
        let now = try store.snapshot()
        defer { now.close() }
        let current = Array(after) + before.dropFirst(10).dropLast()
        #expect(
            try now.runQuery(target, in: testDB).documents == target.query.evaluate(over: current, target: target, in: testDB).documents)
    }

    /// A snapshot opened before a definition plans without it (its view has no entries) and
    /// still answers exactly; a later snapshot reads the index. Collection-group indexes are
    /// named with production's "Collection Group" scope.
    @Test func snapshotsSeeTheIndexesOfTheirOwnView() throws {
        let store = try SQLiteDocumentStore(inMemory: ())
        defer { store.close() }
        let documents = (0..<50).map { (n: Int) -> Document in
            let p = n % 2 == 0 ? "c/d\(n)" : "x/\(n % 3)/c/d\(n)"
            let fields: FieldMap = ["bucket": .integer(Int64(n % 5)), "i": .integer(Int64(n))]
            return doc(p, fields)
        }
        try store.commit(documents.map(Mutation.put), in: testDB, commitTime: ts(1))
        let group = QueryTarget(
            parent: .root,
            query: StructuredQuery(
                collectionID: "c", allDescendants: true, filter: .field(Self.bucket, .equal, .integer(2)),
                orderBy: [Order(Self.i, .descending)], limit: 3))
        let want = group.query.evaluate(over: documents, target: group, in: testDB).documents
        #expect(want.count == 3)

        let old = try store.snapshot()
        defer { old.close() }
        let index = CompositeIndex(collectionGroup: "c", queryScope: .collectionGroup, fields: Self.byBucketThenIDescending.fields)
        try store.defineCompositeIndexes([index], project: testDB.project)
        var statistics = QueryStatistics()
        #expect(try old.runQuery(group, in: testDB, statistics: &statistics).documents == want)
        #expect(!statistics.plan.hasPrefix("composite"))

        let new = try store.snapshot()
        defer { new.close() }
        #expect(try new.runQuery(group, in: testDB, statistics: &statistics).documents == want)
        #expect(statistics.indexesUsed == [IndexUsage(queryScope: "Collection Group", properties: "(bucket ASC, i DESC, __name__ DESC)")])
        #expect(statistics.documentsScanned == 3)
    }

    /// The contract: defining composite indexes changes no answer, in either store.
    @Test(arguments: StoreKind.allCases)
    func definingIndexesChangesNoAnswer(kind: StoreKind) throws {
        let store = try kind.make()
        defer { store.close() }
        let documents = (0..<40).map { (n: Int) -> Document in
            let fields: FieldMap = [
                "bucket": .integer(Int64(n % 4)), "i": .integer(Int64(n * 13 % 40)), "tags": .array([.string("t\(n % 3)")]),
            ]
            return doc("c/d\(n)", fields)
        }
        try store.commit(documents.map(Mutation.put), in: testDB, commitTime: ts(1))
        let queries = [
            StructuredQuery(
                collectionID: "c", filter: .field(Self.bucket, .equal, .integer(1)), orderBy: [Order(Self.i, .descending)], limit: 4),
            StructuredQuery(
                collectionID: "c", filter: .field(Self.tags, .arrayContains, .string("t2")), orderBy: [Order(Self.i)], offset: 1, limit: 3),
            StructuredQuery(
                collectionID: "c", filter: .field(Self.bucket, .in, .array([.integer(0), .integer(3)])),
                orderBy: [Order(Self.i, .descending)],
                startAt: Cursor(values: [.integer(30)], before: false), limit: 5),
        ].map { QueryTarget(parent: .root, query: $0) }
        func answers() throws -> [[ResourcePath]] {
            let snap = try store.snapshot()
            defer { snap.close() }
            return try queries.map { try snap.runQuery($0, in: testDB).documents.map(\.path) }
        }
        let before = try answers()
        #expect(before == queries.map { q in q.query.evaluate(over: documents, target: q, in: testDB).documents.map(\.path) })
        #expect(before.allSatisfy { !$0.isEmpty })
        try store.defineCompositeIndexes([Self.byBucketThenIDescending, Self.byTagThenI], project: testDB.project)
        #expect(try answers() == before)
        try store.defineCompositeIndexes([], project: testDB.project)
        #expect(try answers() == before)
    }

    @Test func inMemoryStatisticsCountEveryDocument() throws {
        let store = InMemoryDocumentStore()
        defer { store.close() }
        try store.defineCompositeIndexes([Self.byBucketThenIDescending], project: testDB.project)
        #expect(try store.compositeIndexes(project: testDB.project) == [Self.byBucketThenIDescending.normalized])
        try store.commit((0..<12).map { .put(doc("c/d\($0)", ["bucket": .integer(Int64($0 % 3))])) }, in: testDB, commitTime: ts(1))
        let snap = try store.snapshot()
        defer { snap.close() }
        var statistics = QueryStatistics()
        let got = try snap.runQuery(
            QueryTarget(parent: .root, query: StructuredQuery(collectionID: "c", filter: .field(Self.bucket, .equal, .integer(1)))),
            in: testDB,
            statistics: &statistics)
        #expect(got.documents.count == 4)
        #expect(statistics.documentsScanned == 12)
        #expect(statistics.indexesUsed.isEmpty)
    }
}
