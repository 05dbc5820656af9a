import Testing

@testable import DocumentStore
@testable import FirestoreModel

/// `allDescendants` with an empty collection id spans every collection under the parent — the
/// query the clients' `recursive()` / `recursive_delete()` send (bug: it used to match nothing).
@Suite struct AllCollectionsQueryTests {
    @Test(arguments: StoreKind.allCases)
    func everyDocumentUnderTheParentInNameOrder(kind: StoreKind) throws {
        let store = try kind.make()
        defer { store.close() }
        let docs = ["rooms/a", "rooms/a/msgs/m1", "rooms/a/msgs/m1/likes/l1", "rooms/b", "roomsx/z", "other/o"].map {
            doc($0, ["n": .integer(1)])
        }
        try store.commit(docs.map(Mutation.put), in: testDB, commitTime: ts(10))
        let snap = try store.snapshot()
        defer { snap.close() }

        let all = QueryTarget(parent: .root, query: StructuredQuery(collectionID: "", allDescendants: true))
        #expect(try snap.runQuery(all, in: testDB).documents.map(\.path.relativeString) == [
            "other/o", "rooms/a", "rooms/a/msgs/m1", "rooms/a/msgs/m1/likes/l1", "rooms/b", "roomsx/z",
        ])

        let under = QueryTarget(parent: path("rooms/a"), query: StructuredQuery(collectionID: "", allDescendants: true))
        #expect(try snap.runQuery(under, in: testDB).documents.map(\.path.relativeString) == [
            "rooms/a/msgs/m1", "rooms/a/msgs/m1/likes/l1",
        ])

        // With a filter the store still answers exactly (no cross-collection index exists).
        var filtered = all
        filtered.query.filter = .field(FieldPath(["n"]), .equal, .integer(1))
        #expect(try snap.runQuery(filtered, in: testDB).documents.count == 6)
    }
}
