import DocumentStore
import FirestoreModel
import Synchronization
import Testing

@testable import FirestoreEngine

/// `where bucket == 3 order by i desc`: production needs the composite (bucket ASC, i DESC).
private let equalityOrder = QueryTarget(
    parent: .root,
    query: StructuredQuery(
        collectionID: "items", filter: .field(FieldPath(["bucket"]), .equal, .integer(3)),
        orderBy: [Order(FieldPath(["i"]), .descending)]))

private let composite = CompositeIndex(
    collectionGroup: "items", fields: [IndexField(FieldPath(["bucket"]), .ascending), IndexField(FieldPath(["i"]), .descending)])

private final class Lines: Sendable {
    let lines = Mutex<[String]>([])
    var sink: @Sendable (String) -> Void { { [self] line in lines.withLock { $0.append(line) } } }
    var all: [String] { lines.withLock { $0 } }
}

private func engine(require: Bool, warnings: Lines) throws -> FirestoreEngine {
    let catalog = IndexCatalog(requireIndexes: require, message: { index, _, database in "needs \(index) in \(database.project)" }, warn: warnings.sink)
    let e = try FirestoreEngine(store: InMemoryDocumentStore(), clock: TestClock().now, indexes: catalog)
    _ = try e.commit((0..<30).map { set("items/d\($0)", ["bucket": .integer(Int64($0 % 10)), "i": .integer(Int64($0))]) }, in: db, auth: .admin)
    return e
}

@Suite struct IndexCatalogTests {
    @Test func requiredIndexRefusesWithProductionsMessageAndWarnsOnce() throws {
        let warnings = Lines()
        let e = try engine(require: true, warnings: warnings)
        for _ in 0..<2 {
            #expect(throws: FirestoreError.failedPrecondition("needs \(MissingIndex.composite(composite)) in demo-test")) {
                _ = try e.runQuery(equalityOrder, in: db, auth: .admin)
            }
        }
        #expect(warnings.all.count == 1)
        #expect(warnings.all.first?.contains("refused") == true)
        #expect(e.indexes.misses() == [IndexCatalog.Miss(index: .composite(composite), project: "demo-test", queries: 2)])
    }

    @Test func lenientCatalogRunsTheQueryAndRemembersTheMiss() throws {
        let warnings = Lines()
        let e = try engine(require: false, warnings: warnings)
        let r = try e.runQuery(equalityOrder, in: db, auth: .admin)
        #expect(r.value.documents.map { $0.fields["i"] } == [.integer(23), .integer(13), .integer(3)])
        #expect(warnings.all.count == 1)
        #expect(warnings.all.first?.contains("ran") == true)
        #expect(e.indexes.misses().map(\.index) == [.composite(composite)])
        e.indexes.clearMisses()
        #expect(e.indexes.misses().isEmpty)
    }

    @Test func definedCompositeServesTheQuery() throws {
        let warnings = Lines()
        let e = try engine(require: true, warnings: warnings)
        try e.setIndexConfiguration(IndexConfiguration(indexes: [composite]))
        let r = try e.runQuery(equalityOrder, in: db, auth: .admin)
        #expect(r.value.documents.count == 3)
        #expect(warnings.all.isEmpty)
        // A project with its own configuration (the Admin API) no longer sees the file's.
        try e.setIndexConfiguration(IndexConfiguration(), forProject: "demo-test")
        #expect(throws: FirestoreError.self) { _ = try e.runQuery(equalityOrder, in: db, auth: .admin) }
    }

    @Test func aggregationIsCheckedOnTheClientsQuery() throws {
        let e = try engine(require: true, warnings: Lines())
        #expect(throws: FirestoreError.self) {
            _ = try e.runAggregation(equalityOrder, aggregations: [Aggregation(alias: "n", kind: .count(upTo: nil))], in: db, auth: .admin)
        }
        // count over a single equality needs no composite.
        let plain = QueryTarget(parent: .root, query: StructuredQuery(collectionID: "items", filter: .field(FieldPath(["bucket"]), .equal, .integer(3))))
        let r = try e.runAggregation(plain, aggregations: [Aggregation(alias: "n", kind: .count(upTo: nil))], in: db, auth: .admin)
        #expect(r.value["n"] == .integer(3))
    }

    @Test func listenTargetLackingAnIndexIsRemovedWithFailedPrecondition() throws {
        let e = try engine(require: true, warnings: Lines())
        let sink = EventSink()
        let s = e.openListenSession(database: db, auth: .admin, send: sink.send)
        s.addTarget(ListenTargetSpec(id: 5, kind: .query(equalityOrder)))
        let events = sink.take().flatMap { $0 }.map(\.summary)
        #expect(events.contains("remove[5] FAILED_PRECONDITION"))
        s.close()
    }
}
