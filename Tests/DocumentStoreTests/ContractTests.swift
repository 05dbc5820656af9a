import Foundation
import Testing

@testable import DocumentStore
@testable import FirestoreModel

/// The one contract both stores must meet (docs/ARCHITECTURE.md rule 6, docs/STYLE.md principle 10).
@Suite struct ContractTests {
    @Test(arguments: StoreKind.allCases)
    func putGetDelete(kind: StoreKind) throws {
        let store = try kind.make()
        defer { store.close() }
        let d = doc("rooms/r1", ["name": .string("lobby"), "n": .integer(3)])
        try store.commit([.put(d)], in: testDB, commitTime: ts(10))
        var snap = try store.snapshot()
        #expect(try snap.document(path("rooms/r1"), in: testDB) == d)
        #expect(try snap.document(path("rooms/r2"), in: testDB) == nil)
        #expect(try snap.document(path("rooms/r1"), in: otherDB) == nil)
        snap.close()

        let replaced = doc("rooms/r1", ["name": .string("hall")], time: 2)
        try store.commit([.put(replaced)], in: testDB, commitTime: ts(11))
        snap = try store.snapshot()
        #expect(try snap.document(path("rooms/r1"), in: testDB) == replaced)
        snap.close()

        try store.commit([.delete(path("rooms/r1")), .delete(path("rooms/never"))], in: testDB, commitTime: ts(12))
        snap = try store.snapshot()
        #expect(try snap.document(path("rooms/r1"), in: testDB) == nil)
        snap.close()
    }

    @Test(arguments: StoreKind.allCases)
    func valuesRoundTripBitForBit(kind: StoreKind) throws {
        let store = try kind.make()
        defer { store.close() }
        let d = Document(
            path: path("c/ключ 😀"), fields: FieldsCodecTests.edgeFields,
            createTime: ts(-62_135_596_800, 1), updateTime: ts(253_402_300_799, 999_999_999))
        try store.commit([.put(d)], in: testDB, commitTime: ts(1))
        let snap = try store.snapshot()
        defer { snap.close() }
        let back = try #require(try snap.document(d.path, in: testDB))
        #expect(bitIdentical(back.fields, d.fields))
        #expect(back.createTime == d.createTime && back.updateTime == d.updateTime && back.path == d.path)
    }

    @Test(arguments: StoreKind.allCases)
    func multiMutationCommitIsAtomicAndOrdered(kind: StoreKind) throws {
        let store = try kind.make()
        defer { store.close() }
        try store.commit([.put(doc("c/gone"))], in: testDB, commitTime: ts(1))
        let before = try store.snapshot()
        try store.commit(
            [.put(doc("c/a", ["v": .integer(1)])), .put(doc("c/b")), .delete(path("c/gone")), .put(doc("c/a", ["v": .integer(2)]))],
            in: testDB, commitTime: ts(2))
        // The earlier snapshot sees none of it; a new one sees all of it, last write winning.
        #expect(try before.document(path("c/a"), in: testDB) == nil)
        #expect(try before.document(path("c/gone"), in: testDB) != nil)
        before.close()
        let after = try store.snapshot()
        defer { after.close() }
        #expect(try after.document(path("c/a"), in: testDB)?.fields == ["v": .integer(2)])
        #expect(try after.document(path("c/b"), in: testDB) != nil)
        #expect(try after.document(path("c/gone"), in: testDB) == nil)
    }

    @Test(arguments: StoreKind.allCases)
    func snapshotIsolation(kind: StoreKind) throws {
        let store = try kind.make()
        defer { store.close() }
        try store.commit([.put(doc("c/a", ["v": .integer(1)]))], in: testDB, commitTime: ts(1))
        let old = try store.snapshot()
        try store.commit([.put(doc("c/a", ["v": .integer(2)])), .put(doc("c/b", ["v": .integer(2)]))], in: testDB, commitTime: ts(2))
        try store.deleteAll(in: otherDB, at: ts(1_000))
        let query = QueryTarget(parent: .root, query: StructuredQuery(collectionID: "c", filter: .field(FieldPath(["v"]), .greaterThan, .integer(0))))
        #expect(try old.document(path("c/a"), in: testDB)?.fields["v"] == .integer(1))
        #expect(try old.runQuery(query, in: testDB).documents.map(\.path) == [path("c/a")])
        #expect(try old.listDocuments(in: path("c"), database: testDB, startAfter: nil, limit: nil).count == 1)
        let new = try store.snapshot()
        #expect(try new.runQuery(query, in: testDB).documents.map(\.path) == [path("c/a"), path("c/b")])
        // The old view is still intact after other snapshots come and go.
        #expect(try old.document(path("c/b"), in: testDB) == nil)
        old.close()
        new.close()
    }

    @Test(arguments: StoreKind.allCases)
    func listDocumentsPages(kind: StoreKind) throws {
        let store = try kind.make()
        defer { store.close() }
        let ids = ["b", "a", "__id9__", "__id10__", "a-", "c", "é"]
        try store.commit(
            ids.map { .put(doc("c/\($0)")) } + [.put(doc("c/a/sub/x")), .put(doc("d/a")), .put(doc("p/1/c/z"))],
            in: testDB, commitTime: ts(1))
        try store.commit([.put(doc("c/other-db"))], in: otherDB, commitTime: ts(2))
        let snap = try store.snapshot()
        defer { snap.close() }
        let all = try snap.listDocuments(in: path("c"), database: testDB, startAfter: nil, limit: nil).map(\.path.lastSegment)
        #expect(all == ["__id9__", "__id10__", "a", "a-", "b", "c", "é"])
        var pages: [[String]] = []
        var after: ResourcePath?
        while true {
            let page = try snap.listDocuments(in: path("c"), database: testDB, startAfter: after, limit: 3)
            if page.isEmpty { break }
            pages.append(page.map(\.path.lastSegment))
            after = page.last?.path
        }
        #expect(pages == [["__id9__", "__id10__", "a"], ["a-", "b", "c"], ["é"]])
        #expect(try snap.listDocuments(in: path("c"), database: testDB, startAfter: nil, limit: 0).isEmpty)
        #expect(try snap.listDocuments(in: path("p/1/c"), database: testDB, startAfter: nil, limit: nil).map(\.path) == [path("p/1/c/z")])
        #expect(try snap.listDocuments(in: path("nothing"), database: testDB, startAfter: nil, limit: nil).isEmpty)
    }

    /// Pages of every size over a collection written in a scrambled order agree with one
    /// full listing (the in-memory store keeps only a page's names in order, no full sort).
    @Test(arguments: StoreKind.allCases)
    func listDocumentsPagesOfEverySizeAgreeWithTheFullListing(kind: StoreKind) throws {
        let store = try kind.make()
        defer { store.close() }
        let ids = (0..<60).map { i in String(format: "k%02d", (i * 37) % 60) } + ["a", "z", "__id3__", "é"]
        try store.commit(ids.map { .put(doc("c/\($0)")) } + [.put(doc("c/k05/sub/x")), .put(doc("cc/a"))], in: testDB, commitTime: ts(1))
        let snap = try store.snapshot()
        defer { snap.close() }
        let all = try snap.listDocuments(in: path("c"), database: testDB, startAfter: nil, limit: nil).map(\.path)
        #expect(all.count == ids.count)
        #expect(all == all.sorted())
        for size in [1, 2, 7, 63, 64, 100] {
            var seen: [ResourcePath] = []
            var after: ResourcePath?
            while true {
                let page = try snap.listDocuments(in: path("c"), database: testDB, startAfter: after, limit: size).map(\.path)
                #expect(page.count <= size)
                if page.isEmpty { break }
                seen += page
                after = page.last
            }
            #expect(seen == all, "pages of \(size)")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func missingDocumentsAtAnyDepth(kind: StoreKind) throws {
        let store = try kind.make()
        defer { store.close() }
        try store.commit(
            [
                .put(doc("c/a/sub/x")),  // c/a missing
                .put(doc("c/b")), .put(doc("c/b/sub/y")),  // c/b exists
                .put(doc("c/e/s/f/t/g")),  // c/e missing, deep
                .put(doc("c/e/s2/h")),
                .put(doc("c/f")),
                .put(doc("c/a-/s/z")),  // c/a- missing; shares a byte prefix with c/a
                .put(doc("x/q/c/r")),  // another tree
            ], in: testDB, commitTime: ts(1))
        try store.commit([.put(doc("c/zz/s/t"))], in: otherDB, commitTime: ts(2))
        let snap = try store.snapshot()
        defer { snap.close() }
        #expect(try snap.missingDocuments(in: path("c"), database: testDB) == [path("c/a"), path("c/a-"), path("c/e")])
        #expect(try snap.missingDocuments(in: path("c/e/s"), database: testDB) == [path("c/e/s/f")])
        #expect(try snap.missingDocuments(in: path("x"), database: testDB) == [path("x/q")])
        #expect(try snap.missingDocuments(in: path("c/b/sub"), database: testDB).isEmpty)
        #expect(try snap.missingDocuments(in: path("c"), database: otherDB) == [path("c/zz")])
    }

    @Test(arguments: StoreKind.allCases)
    func collectionIDsAtAnyDepth(kind: StoreKind) throws {
        let store = try kind.make()
        defer { store.close() }
        try store.commit(
            [
                .put(doc("b/1")), .put(doc("a/1/deep/2/deeper/3")), .put(doc("a/2")), .put(doc("é/1")),
                .put(doc("a/1/s1/x")), .put(doc("a/1/s0/y/z/w")), .put(doc("a-/1")),
            ], in: testDB, commitTime: ts(1))
        let snap = try store.snapshot()
        defer { snap.close() }
        #expect(try snap.collectionIDs(under: .root, in: testDB) == ["a", "a-", "b", "é"])
        #expect(try snap.collectionIDs(under: path("a/1"), in: testDB) == ["deep", "s0", "s1"])
        #expect(try snap.collectionIDs(under: path("a/1/s0/y"), in: testDB) == ["z"])
        #expect(try snap.collectionIDs(under: path("a/2"), in: testDB).isEmpty)
        #expect(try snap.collectionIDs(under: .root, in: otherDB).isEmpty)
    }

    @Test(arguments: StoreKind.allCases)
    func deleteAllClearsOneDatabaseOnly(kind: StoreKind) throws {
        let store = try kind.make()
        defer { store.close() }
        let rows: [Mutation] = (0..<20).map { .put(doc("c/\($0)", ["n": .integer(Int64($0))])) }
        try store.commit(rows, in: testDB, commitTime: ts(1))
        try store.commit(rows, in: otherDB, commitTime: ts(2))
        let query = QueryTarget(parent: .root, query: StructuredQuery(collectionID: "c", filter: .field(FieldPath(["n"]), .lessThan, .integer(5))))
        var snap = try store.snapshot()
        #expect(try snap.runQuery(query, in: testDB).documents.count == 5)  // builds the index on SQLite
        snap.close()
        try store.deleteAll(in: testDB, at: ts(1_000))
        snap = try store.snapshot()
        #expect(try snap.runQuery(query, in: testDB).documents.isEmpty)
        #expect(try snap.listDocuments(in: path("c"), database: testDB, startAfter: nil, limit: nil).isEmpty)
        #expect(try snap.runQuery(query, in: otherDB).documents.count == 5)
        #expect(try snap.listDocuments(in: path("c"), database: otherDB, startAfter: nil, limit: nil).count == 20)
        snap.close()
        // Writes after a clear are indexed again.
        try store.commit([.put(doc("c/new", ["n": .integer(1)]))], in: testDB, commitTime: ts(3))
        snap = try store.snapshot()
        #expect(try snap.runQuery(query, in: testDB).documents.map(\.path) == [path("c/new")])
        snap.close()
    }

    @Test(arguments: StoreKind.allCases)
    func lastCommitTimeIsTheGreatest(kind: StoreKind) throws {
        let store = try kind.make()
        defer { store.close() }
        #expect(try store.lastCommitTime() == nil)
        try store.commit([], in: testDB, commitTime: ts(5, 7))
        try store.commit([.put(doc("c/a"))], in: otherDB, commitTime: ts(3))
        #expect(try store.lastCommitTime() == ts(5, 7))
        try store.commit([], in: testDB, commitTime: ts(5, 8))
        #expect(try store.lastCommitTime() == ts(5, 8))
    }

    @Test(arguments: StoreKind.allCases)
    func closedStoreThrows(kind: StoreKind) throws {
        let store = try kind.make()
        store.close()
        #expect(throws: FirestoreError.self) { try store.snapshot() }
        #expect(throws: FirestoreError.self) { try store.commit([], in: testDB, commitTime: ts(1)) }
    }

    @Test(arguments: StoreKind.allCases)
    func invalidQueriesThrowInvalidArgument(kind: StoreKind) throws {
        let store = try kind.make()
        defer { store.close() }
        let snap = try store.snapshot()
        defer { snap.close() }
        let bad = QueryTarget(parent: .root, query: StructuredQuery(collectionID: "c", offset: -1))
        #expect(throws: FirestoreError.invalidArgument("offset is negative")) { try snap.runQuery(bad, in: testDB) }
        // An offset + limit past Int.max is not a trap.
        let huge = QueryTarget(parent: .root, query: StructuredQuery(collectionID: "c", offset: .max, limit: .max))
        #expect(try snap.runQuery(huge, in: testDB).documents.isEmpty)
    }
}
