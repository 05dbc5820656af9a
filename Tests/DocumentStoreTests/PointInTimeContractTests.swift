import DeterministicRandom
import Foundation
import Testing

@testable import DocumentStore
@testable import FirestoreModel

/// Point-in-time reads (`snapshot(at:)`) and version collection: the contract both stores meet.
/// Source: Firestore v1 `read_time`; issue 10 §2 ("reads at time T see exactly the database as
/// of T: documents deleted by T absent, created later absent").
@Suite struct PointInTimeContractTests {
    /// A document whose update time is its commit time, as the engine writes them.
    func version(_ p: String, _ fields: FieldMap, created: Int64, updated: Int64) -> Document {
        Document(path: path(p), fields: fields, createTime: ts(created), updateTime: ts(updated))
    }

    func read(_ store: any DocumentStore, _ p: String, at t: Timestamp) throws -> Document? {
        let snap = try store.snapshot(at: t)
        defer { snap.close() }
        return try snap.document(path(p), in: testDB)
    }

    @Test(arguments: StoreKind.allCases)
    func eachVersionIsSeenExactlyInItsInterval(kind: StoreKind) throws {
        let store = try kind.make()
        defer { store.close() }
        let v1 = version("c/d", ["v": .integer(1)], created: 10, updated: 10)
        let v2 = version("c/d", ["v": .integer(2)], created: 10, updated: 20)
        let v3 = version("c/d", ["v": .integer(3)], created: 40, updated: 40)
        try store.commit([.put(v1)], in: testDB, commitTime: ts(10))
        try store.commit([.put(v2)], in: testDB, commitTime: ts(20))
        try store.commit([.delete(path("c/d"))], in: testDB, commitTime: ts(30))
        try store.commit([.put(v3)], in: testDB, commitTime: ts(40))

        #expect(try read(store, "c/d", at: ts(9, 999_999_000)) == nil)
        #expect(try read(store, "c/d", at: ts(10)) == v1)
        #expect(try read(store, "c/d", at: ts(19, 999_999_000)) == v1)
        #expect(try read(store, "c/d", at: ts(20)) == v2)
        #expect(try read(store, "c/d", at: ts(29)) == v2)
        #expect(try read(store, "c/d", at: ts(30)) == nil)
        #expect(try read(store, "c/d", at: ts(39)) == nil)
        // Re-created: a new create time.
        #expect(try read(store, "c/d", at: ts(40)) == v3)
        #expect(try read(store, "c/d", at: ts(1000)) == v3)
        // The latest view is unchanged by history.
        let now = try store.snapshot()
        defer { now.close() }
        #expect(try now.document(path("c/d"), in: testDB) == v3)
    }

    @Test(arguments: StoreKind.allCases)
    func unchangedWriteEndsNoVersion(kind: StoreKind) throws {
        let store = try kind.make()
        defer { store.close() }
        let v1 = version("c/d", ["v": .integer(1)], created: 10, updated: 10)
        try store.commit([.put(v1)], in: testDB, commitTime: ts(10))
        // A write that left the document as it was keeps its update time (docs/reference/firestore-wire.md §1.4).
        try store.commit([.put(v1)], in: testDB, commitTime: ts(20))
        #expect(try read(store, "c/d", at: ts(15)) == v1)
        #expect(try read(store, "c/d", at: ts(25)) == v1)
        #expect(try store.collectVersions(endedBefore: ts(1000), limit: 100) == 0)
    }

    @Test(arguments: StoreKind.allCases)
    func queriesAndListingsSeeTheirReadTime(kind: StoreKind) throws {
        let store = try kind.make()
        defer { store.close() }
        try store.commit(
            [
                .put(version("c/a", ["x": .integer(1)], created: 10, updated: 10)),
                .put(version("c/b", ["x": .integer(3)], created: 10, updated: 10)),
                .put(version("c/b/sub/s", ["x": .integer(9)], created: 10, updated: 10)),
            ], in: testDB, commitTime: ts(10))
        try store.commit(
            [.put(version("c/a", ["x": .integer(5)], created: 10, updated: 20)), .delete(path("c/b"))],
            in: testDB, commitTime: ts(20))
        try store.commit(
            [.put(version("c/c", ["x": .integer(4)], created: 30, updated: 30)), .delete(path("c/b/sub/s"))],
            in: testDB, commitTime: ts(30))

        func ids(_ q: StructuredQuery, at t: Int64, parent: ResourcePath = .root) throws -> [String] {
            let snap = try store.snapshot(at: ts(t))
            defer { snap.close() }
            return try snap.runQuery(QueryTarget(parent: parent, query: q), in: testDB).documents.map(\.path.lastSegment)
        }
        let x = FieldPath(["x"])
        let atLeast2 = StructuredQuery(collectionID: "c", filter: .field(x, .greaterThanOrEqual, .integer(2)), orderBy: [Order(x)])
        #expect(try ids(atLeast2, at: 15) == ["b"])
        #expect(try ids(atLeast2, at: 25) == ["a"])
        #expect(try ids(atLeast2, at: 35) == ["c", "a"])
        // A limit over an index stream: the answer merges latest and archived versions.
        let first = StructuredQuery(collectionID: "c", orderBy: [Order(x)], limit: 1)
        #expect(try ids(first, at: 15) == ["a"])
        #expect(try ids(first, at: 25) == ["a"])
        let byName = StructuredQuery(collectionID: "c", orderBy: [Order(.documentKey, .descending)], limit: 2)
        #expect(try ids(byName, at: 15) == ["b", "a"])
        #expect(try ids(byName, at: 35) == ["c", "a"])
        let group = StructuredQuery(collectionID: "sub", allDescendants: true)
        #expect(try ids(group, at: 25) == ["s"])
        #expect(try ids(group, at: 35) == [])
        #expect(try ids(StructuredQuery(collectionID: "", allDescendants: true), at: 25, parent: path("c/b")) == ["s"])

        func listing(at t: Int64) throws -> (docs: [String], missing: [String], collections: [String]) {
            let snap = try store.snapshot(at: ts(t))
            defer { snap.close() }
            return (
                try snap.listDocuments(in: path("c"), database: testDB, startAfter: nil, limit: nil).map(\.path.lastSegment),
                try snap.missingDocuments(in: path("c"), database: testDB).map(\.lastSegment),
                try snap.collectionIDs(under: path("c/b"), in: testDB)
            )
        }
        #expect(try listing(at: 5) == ([], [], []))
        #expect(try listing(at: 15) == (["a", "b"], [], ["sub"]))
        #expect(try listing(at: 25) == (["a"], ["b"], ["sub"]))
        #expect(try listing(at: 35) == (["a", "c"], [], []))
        let paged = try store.snapshot(at: ts(15))
        defer { paged.close() }
        #expect(try paged.listDocuments(in: path("c"), database: testDB, startAfter: path("c/a"), limit: 1).map(\.path.lastSegment) == ["b"])
    }

    @Test(arguments: StoreKind.allCases)
    func collectionDropsOnlyVersionsEndedBeforeTheHorizon(kind: StoreKind) throws {
        let store = try kind.make()
        defer { store.close() }
        for t in Int64(1)...10 {
            try store.commit([.put(version("c/d", ["v": .integer(t)], created: 1, updated: t))], in: testDB, commitTime: ts(t))
        }
        // Versions 1…9 ended at 2…10. Horizon 6 drops those that ended at 2…5 (versions 1…4).
        #expect(try store.collectVersions(endedBefore: ts(6), limit: 3) == 3)
        #expect(try store.collectVersions(endedBefore: ts(6), limit: 3) == 1)
        #expect(try store.collectVersions(endedBefore: ts(6), limit: 3) == 0)
        for t in Int64(5)...10 { #expect(try read(store, "c/d", at: ts(t))?.fields["v"] == .integer(t)) }
        // The collected past reads as absent (the engine refuses such read times).
        #expect(try read(store, "c/d", at: ts(2)) == nil)
    }

    @Test(arguments: StoreKind.allCases)
    func clearForgetsHistory(kind: StoreKind) throws {
        let store = try kind.make()
        defer { store.close() }
        try store.commit([.put(version("c/d", [:], created: 1, updated: 1))], in: testDB, commitTime: ts(1))
        try store.commit([.put(version("c/d", [:], created: 1, updated: 2))], in: otherDB, commitTime: ts(2))
        try store.commit([.delete(path("c/d"))], in: testDB, commitTime: ts(3))
        try store.commit([.delete(path("c/d"))], in: otherDB, commitTime: ts(4))
        #expect(try store.historyHorizon(in: testDB) == nil)
        try store.deleteAll(in: testDB, at: ts(5))
        #expect(try read(store, "c/d", at: ts(2)) == nil)
        // Reads before the clear can no longer be answered: the horizon says so.
        #expect(try store.historyHorizon(in: testDB) == ts(5))
        #expect(try store.historyHorizon(in: otherDB) == nil)
        let other = try store.snapshot(at: ts(3))
        defer { other.close() }
        #expect(try other.document(path("c/d"), in: otherDB) != nil)
    }

    /// Random histories: every read at every time equals the recorded state of that time.
    @Test(arguments: StoreKind.allCases)
    func randomHistoriesReadBackExactly(kind: StoreKind) throws {
        var rng = SplitMix64(seed: 10)
        let store = try kind.make()
        defer { store.close() }
        let paths = ["c/a", "c/b", "c/c", "c/a/s/x", "c/b/s/y", "d/e", "d/e/s/z"]
        var states: [(time: Int64, docs: [ResourcePath: Document])] = [(0, [:])]
        var current: [ResourcePath: Document] = [:]
        for step in Int64(1)...60 {
            let t = step * 10
            var mutations: [Mutation] = []
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                let p = path(paths[Int.random(in: 0..<paths.count, using: &rng)])
                if Bool.random(using: &rng), current[p] != nil {
                    mutations.append(.delete(p))
                    current[p] = nil
                } else {
                    let d = Document(
                        path: p, fields: ["n": .integer(Int64.random(in: 0..<5, using: &rng))],
                        createTime: current[p]?.createTime ?? ts(t), updateTime: ts(t))
                    mutations.append(.put(d))
                    current[p] = d
                }
            }
            try store.commit(mutations, in: testDB, commitTime: ts(t))
            states.append((t, current))
        }
        let n = FieldPath(["n"])
        let queries = [
            QueryTarget(parent: .root, query: StructuredQuery(collectionID: "c")),
            QueryTarget(parent: .root, query: StructuredQuery(collectionID: "c", filter: .field(n, .greaterThan, .integer(1)), orderBy: [Order(n, .descending)], limit: 2)),
            QueryTarget(parent: .root, query: StructuredQuery(collectionID: "s", allDescendants: true, orderBy: [Order(n)], limit: 1)),
            QueryTarget(parent: path("c/a"), query: StructuredQuery(collectionID: "s")),
        ]
        for (i, state) in states.enumerated() {
            // Read at the commit time itself and just before the next one.
            for t in [ts(state.time), ts(state.time + 9, 999_999_000)] {
                let snap = try store.snapshot(at: t)
                defer { snap.close() }
                for p in paths {
                    #expect(try snap.document(path(p), in: testDB) == state.docs[path(p)], "\(p) at state \(i)")
                }
                let reference = InMemorySnapshot(databases: [testDB: state.docs])
                for q in queries {
                    #expect(try snap.runQuery(q, in: testDB).documents == reference.runQuery(q, in: testDB).documents, "query at state \(i)")
                }
                for c in ["c", "d"] {
                    #expect(
                        try snap.listDocuments(in: path(c), database: testDB, startAfter: nil, limit: nil)
                            == reference.listDocuments(in: path(c), database: testDB, startAfter: nil, limit: nil))
                    #expect(try snap.missingDocuments(in: path(c), database: testDB) == reference.missingDocuments(in: path(c), database: testDB))
                }
                #expect(try snap.collectionIDs(under: .root, in: testDB) == reference.collectionIDs(under: .root, in: testDB))
                #expect(try snap.collectionIDs(under: path("c/a"), in: testDB) == reference.collectionIDs(under: path("c/a"), in: testDB))
            }
        }
    }
}
