import Testing

@testable import DocumentStore
@testable import FirestoreModel

/// `commit(_ batches:)` (group commit) leaves exactly the state the same batches committed one
/// by one leave: documents, indexes, last commit time and the superseded versions that
/// point-in-time reads see, including a database the group itself creates twice over.
@Suite struct GroupCommitContractTests {
    static func batches() -> [CommitBatch] {
        func at(_ p: String, _ n: Int64, time: Int64) -> Mutation {
            .put(Document(path: path(p), fields: ["n": .integer(n)], createTime: ts(time), updateTime: ts(time)))
        }
        return [
            CommitBatch(mutations: [at("c/a", 1, time: 10), at("c/b", 2, time: 10)], database: testDB, commitTime: ts(10)),
            CommitBatch(mutations: [at("c/x", 7, time: 11)], database: otherDB, commitTime: ts(11)),
            CommitBatch(mutations: [at("c/a", 3, time: 12), .delete(path("c/b"))], database: testDB, commitTime: ts(12)),
            CommitBatch(mutations: [at("c/y", 8, time: 13)], database: otherDB, commitTime: ts(13)),
        ]
    }

    static func state(_ store: any DocumentStore) throws -> [String] {
        var lines: [String] = []
        for database in [testDB, otherDB] {
            for snapshot in [try store.snapshot(), try store.snapshot(at: ts(11))] {
                defer { snapshot.close() }
                let query = QueryTarget(parent: .root, query: StructuredQuery(collectionID: "c", filter: .field(FieldPath(["n"]), .greaterThan, .integer(0))))
                let found = try snapshot.runQuery(query, in: database).documents
                lines.append("\(database.database): " + found.map { "\($0.path.lastSegment)=\($0.fields["n"]!) @\($0.updateTime.seconds)" }.joined(separator: ", "))
            }
        }
        lines.append("last \(String(describing: try store.lastCommitTime()))")
        return lines
    }

    @Test(arguments: StoreKind.allCases)
    func oneGroupEqualsTheBatchesOneByOne(_ kind: StoreKind) throws {
        let grouped = try kind.make()
        defer { grouped.close() }
        try grouped.commit(Self.batches())
        let single = try kind.make()
        defer { single.close() }
        for b in Self.batches() { try single.commit(b.mutations, in: b.database, commitTime: b.commitTime) }
        let expected = try Self.state(single)
        #expect(try Self.state(grouped) == expected)
        #expect(expected == [
            "(default): a=integer(3) @12",
            "(default): a=integer(1) @10, b=integer(2) @10",
            "other: x=integer(7) @11, y=integer(8) @13",
            "other: x=integer(7) @11",
            "last Optional(1970-01-01T00:00:13Z)",
        ])
    }
}
