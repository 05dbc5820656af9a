import DocumentStore
import FirestoreModel
import Synchronization
import Testing

@testable import FirestoreEngine

/// `commitBatches` (several batches, one store transaction) and `exclusiveTransaction` (reads
/// and writes under the writer).
@Suite struct BatchesAndExclusiveTests {
    enum StoreKind: CaseIterable { case memory, sqlite }

    static func engine(_ kind: StoreKind) throws -> FirestoreEngine {
        let store: any DocumentStore = kind == .memory ? InMemoryDocumentStore() : try SQLiteDocumentStore(inMemory: ())
        return try FirestoreEngine(store: store, clock: TestClock().now)
    }

    static func snapshot(_ e: FirestoreEngine, _ paths: [String]) throws -> [Document?] {
        try paths.map { p in
            guard case .found(let d)? = try e.batchGet([path(p)], in: db, auth: .admin).value.first else { return nil }
            return d
        }
    }

    /// Same documents, times and notifications (one per batch, in order) as committing the
    /// batches one by one; a later batch sees an earlier one's write.
    @Test(arguments: StoreKind.allCases)
    func batchesActAsSequentialCommits(_ kind: StoreKind) throws {
        let batches: [[Write]] = [
            [set("c/a", ["n": .integer(1)]), set("c/b", ["n": .integer(2)])],
            [GroupCommitTests.increment("c/a")],
            [set("c/b", ["n": .integer(3)]), set("c/d", [:])],
        ]
        let together = try Self.engine(kind)
        let oneByOne = try Self.engine(kind)
        defer {
            together.close()
            oneByOne.close()
        }
        let heard = Mutex<[[ResourcePath]]>([])
        _ = together.addObserver { change in heard.withLock { $0.append(change.changes.map(\.path)) } }
        let outcomes = try together.commitBatches(batches, in: db, auth: .admin)
        let expected = try batches.map { try oneByOne.commit($0, in: db, auth: .admin) }
        #expect(outcomes.map(\.commitTime) == expected.map(\.commitTime))
        #expect(outcomes.map(\.documents) == expected.map(\.documents))
        #expect(heard.withLock { $0 } == [[path("c/a"), path("c/b")], [path("c/a")], [path("c/b"), path("c/d")]])
        let paths = ["c/a", "c/b", "c/d"]
        #expect(try Self.snapshot(together, paths) == (try Self.snapshot(oneByOne, paths)))
        #expect(try Self.snapshot(together, ["c/a"]).first??.fields["n"] == .integer(2))
    }

    /// A batch failing its checks stops the run: the batches before it are stored, the error
    /// is the batch's own, the ones after it are not attempted.
    @Test(arguments: StoreKind.allCases)
    func aFailingBatchStopsTheRun(_ kind: StoreKind) throws {
        let e = try Self.engine(kind)
        defer { e.close() }
        var create = set("c/x", ["n": .integer(1)])
        create.currentDocument = .exists(false)
        #expect(throws: FirestoreError.self) {
            try e.commitBatches([[set("c/first", [:])], [create], [create], [set("c/after", [:])]], in: db, auth: .admin)
        }
        let found = try Self.snapshot(e, ["c/first", "c/x", "c/after"]).map { $0 != nil }
        #expect(found == [true, true, false])
    }

    /// The body reads the latest state; its writes are committed at a time after the reads;
    /// a throwing body writes nothing.
    @Test(arguments: StoreKind.allCases)
    func exclusiveTransactionReadsThenWrites(_ kind: StoreKind) throws {
        let e = try Self.engine(kind)
        defer { e.close() }
        _ = try e.commit([set("c/a", ["n": .integer(1)])], in: db, auth: .admin)
        let (value, outcome) = try e.exclusiveTransaction(in: db) { reads -> (writes: [Write], value: Value?) in
            let n = try reads.document(path("c/a"))?.fields["n"]
            return ([set("c/b", ["copy": n ?? .null])], n)
        }
        #expect(value == .integer(1))
        #expect(try Self.snapshot(e, ["c/b"]).first??.fields["copy"] == .integer(1))
        #expect(try Self.snapshot(e, ["c/b"]).first??.updateTime == outcome.commitTime)
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            _ = try e.exclusiveTransaction(in: db) { _ -> (writes: [Write], value: Int) in throw Refused() }
        }
        #expect(throws: FirestoreError.self) {
            _ = try e.exclusiveTransaction(in: db) { reads -> (writes: [Write], value: Int) in
                _ = try reads.document(path("c"))
                return ([], 0)
            }
        }
    }
}
