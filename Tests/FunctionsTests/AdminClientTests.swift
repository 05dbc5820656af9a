import FirestoreModel
import Testing

@testable import Functions

@Suite("AdminClient: Firestore-ish writes, reads, queries, batches and transactions over the engine")
struct AdminClientTests {
    let fixture: Fixture
    var db: AdminClient { fixture.host.admin }

    init() throws { fixture = try Fixture() }

    @Test("set replaces; set with merge keeps fields not given; serverTimestamp is the commit time")
    func setAndMerge() throws {
        let ref = db.collection("presence").document("u1")
        try ref.set(["lat": 1.5, "lng": 2, "fcmToken": "tok", "nested": ["a": 1, "b": 2]])
        try ref.set(["lat": 3.0, "nested": ["a": 9], "updatedAt": .serverTimestamp], merge: true)
        let snap = try ref.get()
        #expect(snap.exists)
        #expect(snap.get("lat") == .double(3))
        #expect(snap.get("lng") == .integer(2))
        #expect(snap.get("fcmToken") == .string("tok"))
        #expect(snap.get("nested.a") == .integer(9))
        #expect(snap.get("nested.b") == .integer(2))
        #expect(snap.get("updatedAt") == .timestamp(try #require(snap.updateTime)))
        try ref.set(["only": true])
        #expect(try ref.get().data == ["only": .boolean(true)])
    }

    @Test("merge with only sentinels changes only the transformed fields")
    func mergeOnlySentinels() throws {
        let ref = db.document("c/d")
        try ref.set(["keep": 1])
        try ref.set(["n": .increment(.integer(2)), "at": .serverTimestamp], merge: true)
        let data = try #require(try ref.get().data)
        #expect(data["keep"] == .integer(1))
        #expect(data["n"] == .integer(2))
        #expect(data["at"] != nil)
    }

    @Test("delete sentinel: removes in merge and update, rejected in a plain set")
    func deleteSentinel() throws {
        let ref = db.document("c/d")
        try ref.set(["a": 1, "b": 2, "m": ["x": 1, "y": 2]])
        try ref.set(["a": .delete], merge: true)
        try ref.update(["m.x": .delete])
        #expect(try ref.get().data == ["b": .integer(2), "m": .map(["y": .integer(2)])])
        #expect(throws: FirestoreError.self) { try ref.set(["b": .delete]) }
    }

    @Test("update needs the document; create needs it absent; delete of a missing document succeeds")
    func preconditions() throws {
        let ref = db.document("c/missing")
        #expect(throws: FirestoreError.self) { try ref.update(["a": 1]) }
        #expect(try ref.get().exists == false)
        try ref.create(["a": 1])
        let again = Result { () throws(FirestoreError) in try ref.create(["a": 2]) }
        #expect(throws: FirestoreError.self) { try again.get() }
        if case .failure(let e) = again { #expect(e.code == .alreadyExists) }
        try ref.update(["a": .null, "b.c": "x"])
        #expect(try ref.get().data == ["a": .null, "b": .map(["c": .string("x")])])
        try ref.delete()
        try ref.delete()
        #expect(try ref.get().exists == false)
    }

    @Test("ids with a slash are rejected, never split into a path; odd paths are rejected")
    func badIDs() {
        #expect(throws: FirestoreError.self) { try db.collection("presence").document("a/b").set(["x": 1]) }
        #expect(throws: FirestoreError.self) { try db.document("presence").get() }
        #expect(throws: FirestoreError.self) { try db.collection("a/b").get() }
    }

    @Test("queries: where, orderBy, startAt/endAt inclusive, startAfter/endBefore exclusive, limit")
    func queries() throws {
        var batch = db.batch()
        for (id, hash) in [("a", "9q8yy0"), ("b", "9q8yyh"), ("c", "9q8yys"), ("d", "9q8yz0"), ("e", "dr5re")] {
            batch.set(db.collection("presence").document(id), ["geohash": .string(hash), "n": .integer(Int64(hash.count))])
        }
        try batch.commit()
        let presence = db.collection("presence")
        func ids(_ q: Query) throws -> [String] { try q.get().documents.map(\.documentID) }
        #expect(try ids(presence.order(by: "geohash").start(at: [.string("9q8yyh")]).end(at: [.string("9q8yys")])) == ["b", "c"])
        #expect(try ids(presence.order(by: "geohash").start(after: [.string("9q8yyh")]).end(before: [.string("9q8yz0")])) == ["c"])
        #expect(try ids(presence.order(by: "geohash").start(at: [.string("9q8yy")]).end(at: [.string("9q8yy~")])) == ["a", "b", "c"])
        #expect(try ids(presence.whereField("n", .lessThan, .integer(6))) == ["e"])
        #expect(try ids(presence.order(by: "geohash", descending: true).limit(to: 2)) == ["e", "d"])
        #expect(try ids(presence.whereField("n", .equal, .integer(6)).whereField("geohash", .greaterThan, .string("9q8yyh"))) == ["c", "d"])
        #expect(throws: FirestoreError.self) { try presence.whereField("", .equal, .null).get() }
    }

    @Test("a batch commits atomically: one failing precondition writes nothing")
    func batchAtomic() throws {
        var batch = db.batch()
        batch.set(db.document("c/one"), ["x": 1])
        batch.update(db.document("c/absent"), ["x": 1])
        #expect(throws: FirestoreError.self) { try batch.commit() }
        #expect(try db.document("c/one").get().exists == false)
    }

    @Test("getAll answers in request order, missing ones included")
    func getAll() throws {
        try db.document("c/b").set(["v": 2])
        let snaps = try db.getAll([db.document("c/a"), db.document("c/b"), db.document("c/a")])
        #expect(snaps.map(\.exists) == [false, true, false])
        #expect(snaps.map(\.documentID) == ["a", "b", "a"])
    }

    @Test("a transaction whose read document changes before commit is retried and sees the new state")
    func transactionRetry() throws {
        let ref = db.document("counters/c")
        try ref.set(["n": 0])
        var attempts = 0
        let result = try db.runTransaction { tx -> Int64 in
            attempts += 1
            guard case .integer(let n)? = try tx.get(ref).get("n") else { throw TestFailure("no n") }
            if attempts == 1 { try ref.set(["n": 10]) }  // a concurrent writer
            tx.set(ref, ["n": .integer(n + 1)])
            return n + 1
        }
        #expect(attempts == 2)
        #expect(result == 11)
        #expect(try ref.get().get("n") == .integer(11))
    }

    @Test("an error thrown by the transaction body is rethrown and nothing is written")
    func transactionBodyError() throws {
        let ref = db.document("c/t")
        #expect(throws: TestFailure.self) {
            try db.runTransaction { tx -> Void in
                tx.set(ref, ["x": 1])
                throw TestFailure("stop")
            }
        }
        #expect(try ref.get().exists == false)
    }

    @Test("reads after writes in a transaction are rejected")
    func transactionReadAfterWrite() {
        #expect(throws: FirestoreError.self) {
            try db.runTransaction { tx -> Void in
                tx.set(db.document("c/x"), ["x": 1])
                _ = try tx.get(db.document("c/y"))
            }
        }
    }

    @Test("auto ids are 20 characters of [A-Za-z0-9]")
    func autoIDs() {
        let id = db.collection("c").document().documentID
        #expect(id.count == 20)
        #expect(id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) })
    }
}
