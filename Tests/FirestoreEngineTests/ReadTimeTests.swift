import DocumentStore
import FirestoreModel
import Synchronization
import Testing

@testable import FirestoreEngine

/// `read_time` reads through the engine: every read method, read-only transactions, the
/// validity window and version collection. Errors as emulator 1.19.9 answers them
/// ("The requested 'read_time' cannot be in the future." INVALID_ARGUMENT; "… is too old."
/// FAILED_PRECONDITION); the window is production's hour unless configured.
@Suite struct ReadTimeTests {
    /// A clock the test moves by hand.
    final class ManualClock: Sendable {
        let micros = Atomic<Int64>(1_700_000_000_000_000)
        var now: @Sendable () -> Timestamp { { [self] in Timestamp(microseconds: micros.load(ordering: .relaxed)) } }
        func advance(seconds: Int64) { micros.add(seconds * 1_000_000, ordering: .relaxed) }
    }

    func engine(_ clock: ManualClock, store: any DocumentStore = InMemoryDocumentStore(), retention: Duration = .seconds(3600))
        throws -> FirestoreEngine
    {
        try FirestoreEngine(store: store, clock: clock.now, versionRetention: retention)
    }

    /// Rules judge a read at a past read time at the time the request arrives (`request.time`),
    /// not at the read time: directly and in a read-only transaction begun at that time.
    @Test func accessPolicySeesTheRequestTimeNotThePastReadTime() throws {
        let clock = ManualClock()
        let seen = Mutex<[Timestamp]>([])
        let e = try engine(clock)
        let t1 = try e.commit([set("c/a", ["v": .integer(1)])], in: db, auth: .admin).commitTime
        clock.advance(seconds: 60)
        e.setDefaultPolicy(ClosurePolicy { requests, _ in
            seen.withLock { $0 += requests.map(\.time) }
            return nil
        })
        let now = clock.now()
        let got = try e.getDocument(path("c/a"), in: db, consistency: .readTime(t1), auth: .unauthenticated)
        #expect(got.readTime == t1)
        _ = try e.runQuery(
            QueryTarget(parent: .root, query: StructuredQuery(collectionID: "c")), in: db, consistency: .readTime(t1),
            auth: .unauthenticated)
        let tx = try e.beginTransaction(in: db, mode: .readOnly(readTime: t1))
        _ = try e.batchGet([path("c/a")], in: db, consistency: .transaction(tx), auth: .unauthenticated)
        #expect(seen.withLock { $0 } == [now, now, now])
    }

    @Test func everyReadMethodSeesTheDatabaseAsOfItsReadTime() throws {
        let clock = ManualClock()
        let e = try engine(clock)
        let t1 = try e.commit([set("c/a", ["v": .integer(1)]), set("c/a/sub/x", [:])], in: db, auth: .admin).commitTime
        clock.advance(seconds: 1)
        let t2 = try e.commit(
            [set("c/a", ["v": .integer(2)]), Write(operation: .delete(path("c/a/sub/x"))), set("d/b", [:])], in: db,
            auth: .admin
        ).commitTime
        clock.advance(seconds: 1)

        #expect(try e.getDocument(path("c/a"), in: db, consistency: .readTime(t1), auth: .admin).value.fields == ["v": .integer(1)])
        #expect(try e.getDocument(path("c/a"), in: db, consistency: .readTime(t2), auth: .admin).value.fields == ["v": .integer(2)])
        let got = try e.getDocument(path("c/a"), in: db, consistency: .readTime(t1), auth: .admin)
        #expect(got.readTime == t1)
        #expect(throws: FirestoreError.self) { try e.getDocument(path("d/b"), in: db, consistency: .readTime(t1), auth: .admin) }

        let batch = try e.batchGet([path("c/a"), path("d/b")], in: db, consistency: .readTime(t1), auth: .admin)
        #expect(batch.value == [.found(try e.getDocument(path("c/a"), in: db, consistency: .readTime(t1), auth: .admin).value), .missing(path("d/b"))])

        let q = QueryTarget(parent: .root, query: StructuredQuery(collectionID: "sub", allDescendants: true))
        #expect(try e.runQuery(q, in: db, consistency: .readTime(t1), auth: .admin).value.documents.count == 1)
        #expect(try e.runQuery(q, in: db, consistency: .readTime(t2), auth: .admin).value.documents.isEmpty)
        let count = try e.runAggregation(
            QueryTarget(parent: .root, query: StructuredQuery(collectionID: "c")),
            aggregations: [Aggregation(alias: "s", kind: .sum(FieldPath(["v"])))], in: db, consistency: .readTime(t1),
            auth: .admin)
        #expect(count.value["s"] == .integer(1))

        #expect(try e.listCollectionIDs(under: .root, in: db, readTime: t1, auth: .admin) == ["c"])
        #expect(try e.listCollectionIDs(under: .root, in: db, readTime: t2, auth: .admin) == ["c", "d"])
        #expect(try e.listCollectionIDs(under: path("c/a"), in: db, readTime: t2, auth: .admin) == [])
        let listed = try e.listDocuments(
            in: path("c"), database: db, pageSize: nil, after: nil, showMissing: false, consistency: .readTime(t1), auth: .admin)
        #expect(listed.value.documents.map(\.path) == [path("c/a")])
    }

    @Test func readOnlyTransactionAtAReadTimeReadsThatTime() throws {
        let clock = ManualClock()
        let e = try engine(clock)
        let t1 = try e.commit([set("c/a", ["v": .integer(1)])], in: db, auth: .admin).commitTime
        clock.advance(seconds: 1)
        _ = try e.commit([set("c/a", ["v": .integer(2)])], in: db, auth: .admin)
        let tx = try e.beginTransaction(in: db, mode: .readOnly(readTime: t1))
        let r = try e.getDocument(path("c/a"), in: db, consistency: .transaction(tx), auth: .admin)
        #expect(r.value.fields == ["v": .integer(1)])
        #expect(r.readTime == t1)
        let q = try e.runQuery(
            QueryTarget(parent: .root, query: StructuredQuery(collectionID: "c")), in: db, consistency: .transaction(tx),
            auth: .admin)
        #expect(q.value.documents.map(\.fields) == [["v": .integer(1)]])
    }

    @Test func readTimesOutsideTheWindowAreRefusedAsProductionRefusesThem() throws {
        let clock = ManualClock()
        let e = try engine(clock, retention: .seconds(60))
        let t1 = try e.commit([set("c/a", [:])], in: db, auth: .admin).commitTime
        let future = Timestamp(microseconds: clock.now().microseconds + 10_000_000)
        #expect(throws: FirestoreError.invalidArgument("The requested 'read_time' cannot be in the future.")) {
            try e.getDocument(path("c/a"), in: db, consistency: .readTime(future), auth: .admin)
        }
        #expect(throws: FirestoreError.invalidArgument("The requested 'read_time' cannot be in the future.")) {
            try e.checkReadTime(future, in: db)
        }
        clock.advance(seconds: 60)
        #expect(try e.getDocument(path("c/a"), in: db, consistency: .readTime(t1), auth: .admin).value.path == path("c/a"))
        clock.advance(seconds: 1)
        #expect(throws: FirestoreError.failedPrecondition("The requested 'read_time' is too old.")) {
            try e.getDocument(path("c/a"), in: db, consistency: .readTime(t1), auth: .admin)
        }
        #expect(throws: FirestoreError.failedPrecondition("The requested 'read_time' is too old.")) {
            try e.beginTransaction(in: db, mode: .readOnly(readTime: t1))
        }
        #expect(throws: FirestoreError.failedPrecondition("The requested 'read_time' is too old.")) {
            try e.listCollectionIDs(under: .root, in: db, readTime: t1, auth: .admin)
        }
    }

    /// As the emulator answers them (asked 2026-12-01, gRPC and REST): sub-microsecond read
    /// times and read times at or before the epoch are INVALID_ARGUMENT, before the window check.
    @Test func subMicrosecondAndPreEpochReadTimesAreInvalid() throws {
        let clock = ManualClock()
        let e = try engine(clock)
        let t1 = try e.commit([set("c/a", [:])], in: db, auth: .admin).commitTime
        let precision = FirestoreError.invalidArgument("timestamp cannot have more than microseconds precision")
        #expect(throws: precision) {
            try e.getDocument(path("c/a"), in: db, consistency: .readTime(Timestamp(seconds: t1.seconds, nanos: t1.nanos + 500)), auth: .admin)
        }
        #expect(throws: precision) { try e.checkReadTime(Timestamp(seconds: 253_402_300_799, nanos: 999_999_999), in: db) }
        #expect(throws: precision) { try e.beginTransaction(in: db, mode: .readOnly(readTime: Timestamp(seconds: t1.seconds, nanos: 1))) }
        let epoch = FirestoreError.invalidArgument("Only timestamps past epoch are supported.")
        for t in [Timestamp(seconds: 0, nanos: 0), Timestamp(seconds: -1, nanos: 0), Timestamp(seconds: Timestamp.minSeconds, nanos: 0)] {
            #expect(throws: epoch) { try e.getDocument(path("c/a"), in: db, consistency: .readTime(t), auth: .admin) }
        }
        #expect(throws: FirestoreError.failedPrecondition("The requested 'read_time' is too old.")) {
            try e.checkReadTime(Timestamp(seconds: 1, nanos: 0), in: db)
        }
        #expect(try e.getDocument(path("c/a"), in: db, consistency: .readTime(t1), auth: .admin).readTime == t1)
    }

    @Test func readTimesBeforeAClearAreTooOldAndSubMicrosecondsInvalid() throws {
        let clock = ManualClock()
        let e = try engine(clock)
        let t1 = try e.commit([set("c/a", [:])], in: db, auth: .admin).commitTime
        clock.advance(seconds: 1)
        try e.clear(db)
        clock.advance(seconds: 1)
        #expect(throws: FirestoreError.failedPrecondition("The requested 'read_time' is too old.")) {
            try e.getDocument(path("c/a"), in: db, consistency: .readTime(t1), auth: .admin)
        }
        let other = DatabaseID(project: "demo-other")
        let t2 = try e.commit([set("c/b", [:])], in: other, auth: .admin).commitTime
        #expect(try e.getDocument(path("c/b"), in: other, consistency: .readTime(t2), auth: .admin).value.path == path("c/b"))
        let fine = Timestamp(seconds: t2.seconds, nanos: t2.nanos + 500)
        #expect(throws: FirestoreError.invalidArgument("timestamp cannot have more than microseconds precision")) {
            try e.getDocument(path("c/b"), in: other, consistency: .readTime(fine), auth: .admin)
        }
    }

    @Test func collectionKeepsExactlyTheWindow() throws {
        let clock = ManualClock()
        let store = try SQLiteDocumentStore(inMemory: ())
        let e = try engine(clock, store: store, retention: .seconds(60))
        var times: [Timestamp] = []
        for v in Int64(0)..<5 {
            times.append(try e.commit([set("c/a", ["v": .integer(v)])], in: db, auth: .admin).commitTime)
            clock.advance(seconds: 30)
        }
        // Now = t0 + 150 s: versions that ended before t0 + 90 s (ended at t1 = +30 and t2 = +60) go.
        #expect(try e.collectExpiredVersions(batchSize: 1) == 2)
        #expect(try e.collectExpiredVersions() == 0)
        // t3 (+90) is inside the window and still exact: the version written at t3 ended at t4.
        #expect(
            try e.getDocument(path("c/a"), in: db, consistency: .readTime(times[3]), auth: .admin).value.fields == ["v": .integer(3)])
        #expect(throws: FirestoreError.failedPrecondition("The requested 'read_time' is too old.")) {
            try e.getDocument(path("c/a"), in: db, consistency: .readTime(times[2]), auth: .admin)
        }
    }
}
