import Foundation
import Testing

@testable import DocumentStore
@testable import FirestoreModel
@testable import StoreWorkloads

/// Behaviour only the SQLite store has: persistence, plans, index use and maintenance.
@Suite struct SQLiteStoreTests {
    static let n = FieldPath(["n"])

    private static func numbered(_ count: Int, under collection: String = "c") -> [Mutation] {
        (0..<count).map { i in
            .put(doc(String(format: "\(collection)/d%05d", i), ["n": .integer(Int64(i)), "g": .integer(Int64(i % 10))]))
        }
    }

    private static func run(_ store: SQLiteDocumentStore, _ target: QueryTarget) throws -> (docs: [Document], plan: QueryPlan?, decoded: Int) {
        let snap = try #require(try store.snapshot() as? SQLiteSnapshot)
        defer { snap.close() }
        let result = try snap.runQuery(target, in: testDB)
        return (result.documents, snap.lastPlan, snap.documentsDecoded)
    }

    /// A commit that takes the WAL past the threshold queues a checkpoint off the commit
    /// path; the store reads the same before and after, and after a reopen.
    @Test func largeCommitIsCheckpointedInTheBackground() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let file = dir.file("store.sqlite")
        var store = try SQLiteDocumentStore(path: file, durability: .normal)
        let padding = Value.string(String(repeating: "x", count: 1000))
        let mutations = (0..<6000).map { i in Mutation.put(doc(String(format: "c/d%05d", i), ["n": .integer(Int64(i)), "p": padding])) }
        try store.commit(mutations, in: testDB, commitTime: ts(5))
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(10)
        while store.checkpointer.checkpoints.load(ordering: .relaxed) == 0 && clock.now < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        #expect(store.checkpointer.checkpoints.load(ordering: .relaxed) > 0)
        try store.commit([.put(doc("c/late", ["n": .integer(-1)]))], in: testDB, commitTime: ts(6))
        for reopen in [false, true] {
            if reopen {
                store.close()
                store = try SQLiteDocumentStore(path: file)
            }
            let snap = try store.snapshot()
            defer { snap.close() }
            let listed = try snap.listDocuments(in: path("c"), database: testDB, startAfter: nil, limit: nil)
            #expect(listed.count == 6001)
            #expect(try snap.document(path("c/d04321"), in: testDB)?.fields["n"] == .integer(4321))
        }
        store.close()
    }

    @Test func stateAndLastCommitTimeSurviveReopen() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let file = dir.file("store.sqlite")
        var store = try SQLiteDocumentStore(path: file)
        try store.commit(Self.numbered(30), in: testDB, commitTime: ts(77, 123_456_789))
        _ = try Self.run(store, QueryTarget(parent: .root, query: StructuredQuery(collectionID: "c", filter: .field(Self.n, .lessThan, .integer(3)))))
        store.close()

        store = try SQLiteDocumentStore(path: file)
        defer { store.close() }
        #expect(try store.lastCommitTime() == ts(77, 123_456_789))
        // The index built before the restart is still maintained by writes after it.
        try store.commit([.delete(path("c/d00001")), .put(doc("c/new", ["n": .integer(-1)]))], in: testDB, commitTime: ts(78))
        let (docs, plan, _) = try Self.run(store, QueryTarget(parent: .root, query: StructuredQuery(collectionID: "c", filter: .field(Self.n, .lessThan, .integer(3)))))
        #expect(docs.map(\.path.lastSegment) == ["new", "d00000", "d00002"])
        #expect(plan?.indexes == [SingleFieldIndex(collectionID: "c", field: Self.n)])
    }

    /// A file of schema version 1 (no version history) opens, keeps its documents and gains
    /// the history table; versions ended after the upgrade are readable at a read time.
    @Test func versionOneFileIsUpgradedInPlace() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let file = dir.file("v1.sqlite")
        var store = try SQLiteDocumentStore(path: file)
        try store.commit([.put(doc("c/a", ["v": .integer(1)]))], in: testDB, commitTime: ts(1))
        store.close()
        let raw = try SQLiteConnection(path: file)
        try raw.execute("DROP TABLE document_versions; UPDATE meta SET value = 1 WHERE key = 'schema_version';")
        raw.close()

        store = try SQLiteDocumentStore(path: file)
        defer { store.close() }
        let replaced = Document(path: path("c/a"), fields: ["v": .integer(2)], createTime: ts(1), updateTime: ts(5))
        try store.commit([.put(replaced)], in: testDB, commitTime: ts(5))
        let past = try store.snapshot(at: ts(2))
        defer { past.close() }
        #expect(try past.document(path("c/a"), in: testDB)?.fields == ["v": .integer(1)])
        // No version ended before the upgrade was kept: reads before it are not exact.
        #expect(try store.historyHorizon(in: testDB) == ts(1))
        let check = try SQLiteConnection(path: file)
        defer { check.close() }
        let version = try check.prepare("SELECT value FROM meta WHERE key = 'schema_version'")
        defer { version.reset() }
        #expect(try version.step() && version.int64(at: 0) == SQLiteSchema.version)
    }

    /// A point-in-time view pinned before `collectVersions` keeps reading the versions it
    /// saw, also when its first query builds an index: `repin` must not move it past the
    /// collection (which is not a commit, but removes what the view reads).
    @Test func pointInTimeViewIsNotRepinnedPastCollection() throws {
        let store = try SQLiteDocumentStore(inMemory: ())
        defer { store.close() }
        let first = Document(path: path("c/a"), fields: ["n": .integer(1)], createTime: ts(1), updateTime: ts(1))
        let replaced = Document(path: path("c/a"), fields: ["n": .integer(2)], createTime: ts(1), updateTime: ts(2))
        try store.commit([.put(first)], in: testDB, commitTime: ts(1))
        try store.commit([.put(replaced)], in: testDB, commitTime: ts(2))
        let past = try #require(try store.snapshot(at: ts(1)) as? SQLiteSnapshot)
        defer { past.close() }
        #expect(try store.collectVersions(endedBefore: ts(3), limit: 1000) == 1)
        let target = QueryTarget(parent: .root, query: StructuredQuery(collectionID: "c", filter: .field(Self.n, .equal, .integer(1))))
        #expect(try past.runQuery(target, in: testDB).documents.map(\.fields) == [["n": .integer(1)]])
        #expect(try past.document(path("c/a"), in: testDB)?.fields == ["n": .integer(1)])
    }

    /// A store that kept no versions (`--version-retention 0`) has no past; reopened keeping
    /// them, its history starts at the last commit made without them.
    @Test func historyStartsWhenVersionsStartBeingKept() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let file = dir.file("toggle.sqlite")
        var store = try SQLiteDocumentStore(path: file, keepsVersions: false)
        try store.commit([.put(doc("c/a", ["v": .integer(1)]))], in: testDB, commitTime: ts(1))
        try store.commit([.put(Document(path: path("c/a"), fields: ["v": .integer(2)], createTime: ts(1), updateTime: ts(3)))], in: testDB, commitTime: ts(3))
        #expect(try store.historyHorizon(in: testDB) == ts(3))
        store.close()
        store = try SQLiteDocumentStore(path: file)
        #expect(try store.historyHorizon(in: testDB) == ts(3))
        try store.commit([.put(Document(path: path("c/a"), fields: ["v": .integer(3)], createTime: ts(1), updateTime: ts(5)))], in: testDB, commitTime: ts(5))
        let at4 = try store.snapshot(at: ts(4))
        #expect(try at4.document(path("c/a"), in: testDB)?.fields == ["v": .integer(2)])
        at4.close()
        store.close()
        // Kept from then on: reopening does not move the horizon.
        store = try SQLiteDocumentStore(path: file)
        defer { store.close() }
        #expect(try store.historyHorizon(in: testDB) == ts(3))
    }

    /// What `kill -9` leaves: the files as they are, WAL not checkpointed. A copy taken while
    /// the store is still open must contain every acknowledged commit.
    @Test func acknowledgedCommitsAreInTheFilesBeforeClose() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let store = try SQLiteDocumentStore(path: dir.file("live.sqlite"), durability: .full)
        try store.commit(Self.numbered(5), in: testDB, commitTime: ts(9))
        for suffix in ["", "-wal"] {
            try FileManager.default.copyItem(atPath: dir.file("live.sqlite") + suffix, toPath: dir.file("crashed.sqlite") + suffix)
        }
        let recovered = try SQLiteDocumentStore(path: dir.file("crashed.sqlite"))
        defer {
            recovered.close()
            store.close()
        }
        #expect(try recovered.lastCommitTime() == ts(9))
        let snap = try recovered.snapshot()
        defer { snap.close() }
        #expect(try snap.listDocuments(in: path("c"), database: testDB, startAfter: nil, limit: nil).count == 5)
    }

    @Test func firstQueryBuildsTheIndexAndLaterQueriesReadOnlyTheRange() throws {
        let store = try SQLiteDocumentStore(inMemory: ())
        defer { store.close() }
        try store.commit(Self.numbered(20_000), in: testDB, commitTime: ts(1))
        let target = QueryTarget(parent: .root, query: StructuredQuery(
            collectionID: "c", filter: .composite(.and, [.field(Self.n, .greaterThanOrEqual, .integer(5000)), .field(Self.n, .lessThan, .integer(5100))])))

        // No index yet: the query builds it, and (nothing committed since the snapshot) reads it.
        let first = try Self.run(store, target)
        #expect(first.docs.count == 100)
        #expect(first.decoded == 100)

        let second = try Self.run(store, target)
        #expect(second.docs.map(\.path) == first.docs.map(\.path))
        #expect(second.decoded == 100)
        #expect(second.plan?.streamOrder == .indexValue)

        // Ordered by the index with a limit: stops after limit + the rows of one value.
        var limited = target
        limited.query.limit = 10
        limited.query.orderBy = [Order(Self.n, .descending)]
        let third = try Self.run(store, limited)
        #expect(third.docs.map { $0.fields["n"] } == (5090..<5100).reversed().map { Value.integer(Int64($0)) })
        #expect(third.decoded == 10)
    }

    /// A snapshot that predates a commit must not move past it to reach a new index: it scans.
    @Test func firstQueryOnAnOlderSnapshotScansItsOwnView() throws {
        let store = try SQLiteDocumentStore(inMemory: ())
        defer { store.close() }
        try store.commit(Self.numbered(500), in: testDB, commitTime: ts(1))
        let old = try #require(try store.snapshot() as? SQLiteSnapshot)
        defer { old.close() }
        try store.commit([.put(doc("c/late", ["n": .integer(3)]))], in: testDB, commitTime: ts(2))
        let target = QueryTarget(parent: .root, query: StructuredQuery(collectionID: "c", filter: .field(Self.n, .lessThan, .integer(5))))
        let docs = try old.runQuery(target, in: testDB).documents
        #expect(docs.map(\.path.lastSegment) == ["d00000", "d00001", "d00002", "d00003", "d00004"])
        #expect(old.documentsDecoded == 500)
        #expect(old.lastPlan?.description == "documents (-∞, +∞) asc; unordered")
        // The build happened anyway: a new snapshot reads the index, and sees the late document.
        let (fresh, plan, decoded) = try Self.run(store, target)
        #expect(fresh.map(\.path.lastSegment) == ["d00000", "d00001", "d00002", "d00003", "late", "d00004"])
        #expect(decoded == 6)
        #expect(plan?.indexes == [SingleFieldIndex(collectionID: "c", field: Self.n)])
    }

    @Test func equalityWithLimitStopsEarlyInNameOrder() throws {
        let store = try SQLiteDocumentStore(inMemory: ())
        defer { store.close() }
        try store.commit(Self.numbered(5000), in: testDB, commitTime: ts(1))
        let g = FieldPath(["g"])
        let target = QueryTarget(parent: .root, query: StructuredQuery(collectionID: "c", filter: .field(g, .equal, .integer(3)), limit: 5))
        _ = try Self.run(store, target)
        let (docs, plan, decoded) = try Self.run(store, target)
        #expect(docs.map(\.path.lastSegment) == ["d00003", "d00013", "d00023", "d00033", "d00043"])
        #expect(plan?.streamOrder == .path)
        #expect(decoded == 5)
    }

    @Test func collectionGroupAndSubcollectionQueriesUseTheirOwnEntries() throws {
        let store = try SQLiteDocumentStore(inMemory: ())
        defer { store.close() }
        try store.commit(
            Self.numbered(300, under: "rooms/r1/messages") + Self.numbered(300, under: "rooms/r2/messages") + Self.numbered(300, under: "messages"),
            in: testDB, commitTime: ts(1))
        let filter = Filter.field(Self.n, .lessThan, .integer(2))
        let sub = QueryTarget(parent: path("rooms/r2"), query: StructuredQuery(collectionID: "messages", filter: filter))
        let group = QueryTarget(parent: .root, query: StructuredQuery(collectionID: "messages", allDescendants: true, filter: filter))
        let underRoom = QueryTarget(parent: path("rooms/r1"), query: StructuredQuery(collectionID: "messages", allDescendants: true, filter: filter))
        for t in [sub, group, underRoom] { _ = try Self.run(store, t) }

        let s = try Self.run(store, sub)
        #expect(s.docs.map(\.path.relativeString) == ["rooms/r2/messages/d00000", "rooms/r2/messages/d00001"])
        #expect(s.decoded == 2)
        let g = try Self.run(store, group)
        #expect(g.docs.map(\.path.relativeString) == [
            "messages/d00000", "rooms/r1/messages/d00000", "rooms/r2/messages/d00000",
            "messages/d00001", "rooms/r1/messages/d00001", "rooms/r2/messages/d00001",
        ])
        #expect(g.plan?.indexes.map(\.queryScope) == [.collectionGroup])
        #expect(g.decoded == 6)
        let u = try Self.run(store, underRoom)
        #expect(u.docs.map(\.path.relativeString) == ["rooms/r1/messages/d00000", "rooms/r1/messages/d00001"])
        #expect(u.decoded == 2)
    }

    @Test func concurrentReadersSeeWholeCommitsOnly() throws {
        let store = try SQLiteDocumentStore(inMemory: ())
        defer { store.close() }
        // Every commit adds two documents, so a consistent view always holds an even count.
        let writer = Thread {
            for i in 0..<100 {
                try? store.commit([.put(doc("c/a\(i)")), .put(doc("c/b\(i)"))], in: testDB, commitTime: ts(Int64(i + 1)))
            }
        }
        writer.start()
        var odd = 0
        var reads = 0
        var last = 0
        let deadline = ContinuousClock.now + .seconds(20)
        while last < 200 && ContinuousClock.now < deadline {
            let snap = try store.snapshot()
            let count = try snap.listDocuments(in: path("c"), database: testDB, startAfter: nil, limit: nil).count
            let again = try snap.listDocuments(in: path("c"), database: testDB, startAfter: nil, limit: nil).count
            snap.close()
            if count % 2 != 0 || count != again { odd += 1 }
            reads += 1
            last = count
        }
        #expect(odd == 0)
        #expect(reads > 1)
        #expect(last == 200)
    }

    @Test func planner() {
        func plan(_ q: StructuredQuery, parent: ResourcePath = .root) -> QueryPlan { QueryPlanner.plan(QueryTarget(parent: parent, query: q), in: testDB) }
        let a = FieldPath(["a"])
        let b = FieldPath(["b"])
        // No filter, no order: documents by name.
        #expect(plan(StructuredQuery(collectionID: "c")).description == "documents (-∞, +∞) asc; ordered by name")
        // Equality beats a range (whose field then leads the order, so the stream is unordered).
        let eqAndRange = plan(StructuredQuery(collectionID: "c", filter: .composite(.and, [.field(b, .greaterThan, .integer(1)), .field(a, .equal, .boolean(true))])))
        #expect(eqAndRange.description == "index c.a (ordered, collection) [1801, 1801] asc; unordered")
        // A pinned field streams in name order.
        let eq = plan(StructuredQuery(collectionID: "c", filter: .field(a, .equal, .boolean(true)), orderBy: [Order(.documentKey, .descending)]))
        #expect(eq.description == "index c.a (ordered, collection) [1801, 1801] desc; ordered by name")
        // A range on the order field, descending, with the type group as the far bound.
        let range = plan(StructuredQuery(collectionID: "c", filter: .field(a, .lessThan, .string("m")), orderBy: [Order(a, .descending)]))
        #expect(range.description == "index c.a (ordered, collection) [30, 306d0001) desc; ordered by index value")
        // `in` on the order field: one point per distinct key (1 and 1.0 are one), in scan order.
        let inPlan = plan(StructuredQuery(collectionID: "c", filter: .field(a, .in, .array([.integer(1), .double(1), .null])), orderBy: [Order(a)]))
        #expect(inPlan.accesses.count == 1)
        if case .index(_, let ranges, _) = inPlan.accesses[0] { #expect(ranges.count == 2) }
        #expect(inPlan.streamOrder == .indexValue)
        // OR of indexable branches: a union of two indexes.
        let or = plan(StructuredQuery(collectionID: "c", filter: .composite(.or, [.field(a, .equal, .null), .field(b, .arrayContains, .null)])))
        #expect(or.description == "index c.a (ordered, collection) [10, 10] asc ∪ index c.b (array-contains, collection) [10, 10] asc; unordered")
        // OR with a branch that needs everything: scan by the order instead (`!=` orders by b).
        let orScan = plan(StructuredQuery(collectionID: "c", filter: .composite(.or, [.field(a, .equal, .null), .field(b, .notEqual, .null)])))
        #expect(orScan.description == "index c.b (ordered, collection) (-∞, +∞) asc; ordered by index value")
        // `!=` alone: the implicit order on the field reads its whole index in order.
        let ne = plan(StructuredQuery(collectionID: "c", filter: .field(a, .notEqual, .null)))
        #expect(ne.description == "index c.a (ordered, collection) (-∞, +∞) asc; ordered by index value")
        // A range against NaN matches nothing: no ranges at all.
        let nan = plan(StructuredQuery(collectionID: "c", filter: .field(a, .greaterThan, .double(.nan))))
        #expect(nan.description == "index c.a (ordered, collection) (empty) asc; ordered by index value")
        // Collection group under a document uses the group-scope index.
        let group = plan(StructuredQuery(collectionID: "c", allDescendants: true, orderBy: [Order(a)]), parent: path("x/1"))
        #expect(group.indexes == [SingleFieldIndex(collectionID: "c", field: a, queryScope: .collectionGroup)])
        // Cursors on the first order field bound the scan (startAfter one value = exclusive).
        let cursor = plan(StructuredQuery(collectionID: "c", orderBy: [Order(a)], startAt: Cursor(values: [.boolean(false)], before: false), endAt: Cursor(values: [.boolean(true), ref("c/x")], before: true)))
        #expect(cursor.description == "index c.a (ordered, collection) (1800, 1801] asc; ordered by index value")
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["HEARTH_STORE_BENCH"] != nil))
    func measurements() throws {
        let big = Int(ProcessInfo.processInfo.environment["HEARTH_STORE_BENCH"] ?? "") ?? 1_000_000
        for durability in [SQLiteDocumentStore.Durability.full, .normal] {
            print("commit latency \(durability): \(format(try StoreBenchmarks.commitLatency(durability: durability)))")
        }
        for indexed in [0, 1, 10] {
            print("bulk insert: \(try StoreBenchmarks.bulkInsert(documents: 100_000, indexedFields: indexed))")
        }
        print("range query: \(try StoreBenchmarks.rangeQuery(documents: 10_000))")
        print("range query: \(try StoreBenchmarks.rangeQuery(documents: big))")
    }
}
