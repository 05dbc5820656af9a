import DocumentStore
import FirestoreModel
import Synchronization
import Testing

@testable import FirestoreEngine

@Suite struct CommitTests {
    @Test func createThenGetReturnsFieldsAndTimes() throws {
        let e = try makeEngine()
        let r = try e.commit([set("rooms/r1", ["n": .integer(1)])], in: db, auth: .admin)
        let d = try e.getDocument(path("rooms/r1"), in: db, auth: .admin).value
        #expect(d.fields == ["n": .integer(1)])
        #expect(d.createTime == r.commitTime)
        #expect(d.updateTime == r.commitTime)
    }

    @Test func unchangedWriteKeepsUpdateTime() throws {
        let e = try makeEngine()
        let first = try e.commit([set("rooms/r1", ["n": .integer(1)])], in: db, auth: .admin)
        let second = try e.commit([set("rooms/r1", ["n": .integer(1)])], in: db, auth: .admin)
        #expect(second.commitTime > first.commitTime)
        #expect(second.writeResults[0].updateTime == first.commitTime)
        let third = try e.commit([set("rooms/r1", ["n": .double(1)])], in: db, auth: .admin)
        #expect(third.writeResults[0].updateTime == third.commitTime)
    }

    @Test func preconditionsFailWithTheirCodes() throws {
        let e = try makeEngine()
        var w = set("rooms/r1", ["n": .integer(1)])
        w.currentDocument = .exists(true)
        #expect(throws: FirestoreError(.notFound, "No document to update: projects/demo-test/databases/(default)/documents/rooms/r1")) {
            try e.commit([w], in: db, auth: .admin)
        }
        _ = try e.commit([set("rooms/r1", [:])], in: db, auth: .admin)
        w.currentDocument = .exists(false)
        do {
            _ = try e.commit([w], in: db, auth: .admin)
            Issue.record("expected ALREADY_EXISTS")
        } catch {
            #expect(error.code == .alreadyExists)
        }
    }

    @Test func failedWriteInBatchChangesNothing() throws {
        let e = try makeEngine()
        var bad = set("rooms/missing", ["x": .integer(1)])
        bad.currentDocument = .exists(true)
        #expect(throws: FirestoreError.self) {
            try e.commit([set("rooms/a", ["x": .integer(1)]), bad], in: db, auth: .admin)
        }
        #expect(throws: FirestoreError.self) { try e.getDocument(path("rooms/a"), in: db, auth: .admin) }
    }

    @Test func transformsReportResultsAndServerTimeEqualsCommitTime() throws {
        let e = try makeEngine()
        _ = try e.commit([set("c/d", ["n": .integer(5)])], in: db, auth: .admin)
        var w = Write(operation: .update(path: path("c/d"), fields: [:]), updateMask: [])
        w.updateTransforms = [
            FieldTransform(fieldPath: FieldPath(["n"]), operation: .increment(.integer(2))),
            FieldTransform(fieldPath: FieldPath(["t"]), operation: .serverTimestamp),
        ]
        let r = try e.commit([w], in: db, auth: .admin)
        #expect(r.writeResults[0].transformResults == [.integer(7), .timestamp(r.commitTime)])
        let d = try e.getDocument(path("c/d"), in: db, auth: .admin).value
        #expect(d.fields == ["n": .integer(7), "t": .timestamp(r.commitTime)])
    }

    @Test func commitTimesIncreaseAndFollowReadTimes() throws {
        let e = try makeEngine()
        var last = Timestamp(seconds: 0, nanos: 0)
        for i in 0..<20 {
            let r = try e.commit([set("c/d\(i)", [:])], in: db, auth: .admin)
            #expect(r.commitTime > last)
            let read = try e.getDocument(path("c/d\(i)"), in: db, auth: .admin)
            #expect(read.readTime >= r.commitTime)
            last = read.readTime
        }
    }
}

@Suite struct TransactionTests {
    @Test func conflictingReadWriteTransactionAborts() throws {
        let e = try makeEngine()
        _ = try e.commit([set("acct/a", ["v": .integer(1)])], in: db, auth: .admin)
        let t1 = try e.beginTransaction(in: db, mode: .readWrite(retryTransaction: nil))
        let t2 = try e.beginTransaction(in: db, mode: .readWrite(retryTransaction: nil))
        _ = try e.getDocument(path("acct/a"), in: db, consistency: .transaction(t1), auth: .admin)
        _ = try e.getDocument(path("acct/a"), in: db, consistency: .transaction(t2), auth: .admin)
        _ = try e.commit([set("acct/a", ["v": .integer(2)])], in: db, transaction: t1, auth: .admin)
        do {
            _ = try e.commit([set("acct/a", ["v": .integer(3)])], in: db, transaction: t2, auth: .admin)
            Issue.record("expected ABORTED")
        } catch {
            #expect(error.code == .aborted)
        }
        // The retry path: a new transaction retrying t2 reads the new value and commits.
        let t3 = try e.beginTransaction(in: db, mode: .readWrite(retryTransaction: t2))
        let v = try e.getDocument(path("acct/a"), in: db, consistency: .transaction(t3), auth: .admin).value
        #expect(v.fields["v"] == .integer(2))
        _ = try e.commit([set("acct/a", ["v": .integer(3)])], in: db, transaction: t3, auth: .admin)
        #expect(try e.getDocument(path("acct/a"), in: db, auth: .admin).value.fields["v"] == .integer(3))
    }

    @Test func readOfMissingDocumentConflictsWithItsCreation() throws {
        let e = try makeEngine()
        let t = try e.beginTransaction(in: db, mode: .readWrite(retryTransaction: nil))
        _ = try e.batchGet([path("c/x")], in: db, consistency: .transaction(t), auth: .admin)
        _ = try e.commit([set("c/x", [:])], in: db, auth: .admin)
        #expect(throws: FirestoreError.self) { try e.commit([], in: db, transaction: t, auth: .admin) }
    }

    @Test func readOnlyTransactionSeesOneSnapshot() throws {
        let e = try makeEngine()
        _ = try e.commit([set("c/a", ["v": .integer(1)])], in: db, auth: .admin)
        let t = try e.beginTransaction(in: db, mode: .readOnly(readTime: nil))
        _ = try e.commit([set("c/a", ["v": .integer(2)]), set("c/b", [:])], in: db, auth: .admin)
        let a = try e.getDocument(path("c/a"), in: db, consistency: .transaction(t), auth: .admin).value
        #expect(a.fields["v"] == .integer(1))
        let q = try e.runQuery(
            QueryTarget(parent: .root, query: StructuredQuery(collectionID: "c")), in: db, consistency: .transaction(t),
            auth: .admin)
        #expect(q.value.documents.map(\.path) == [path("c/a")])
        #expect(throws: FirestoreError.self) { try e.commit([set("c/z", [:])], in: db, transaction: t, auth: .admin) }
    }

    @Test func unknownTransactionIsInvalidArgument() throws {
        let e = try makeEngine()
        do {
            _ = try e.commit([], in: db, transaction: [1, 2, 3], auth: .admin)
            Issue.record("expected INVALID_ARGUMENT")
        } catch {
            #expect(error.code == .invalidArgument)
        }
    }
}

@Suite struct AccessTests {
    @Test func deniedWriteFailsWholeCommitAndGetAfterSeesBatch() throws {
        let policy = ClosurePolicy { requests, lookup in
            // Allow writing `c/a` only when `c/b` exists after the batch.
            for r in requests where r.path == path("c/a") {
                if (try? lookup.after(path("c/b"))) == nil || (try? lookup.after(path("c/b"))) == .some(nil) {
                    return .permissionDenied("c/b must be written with c/a")
                }
            }
            return nil
        }
        let e = try makeEngine(policy: policy)
        #expect(throws: FirestoreError.permissionDenied("c/b must be written with c/a")) {
            try e.commit([set("c/a", [:])], in: db, auth: alice)
        }
        #expect(throws: FirestoreError.self) { try e.getDocument(path("c/a"), in: db, auth: .admin) }
        _ = try e.commit([set("c/a", [:]), set("c/b", [:])], in: db, auth: alice)
        #expect(try e.getDocument(path("c/a"), in: db, auth: .admin).value.path == path("c/a"))
    }

    @Test func adminBypassesPolicyAndMethodsAreClassified() throws {
        let seen = Mutex<[AccessMethod]>([])
        let policy = ClosurePolicy { requests, _ in
            seen.withLock { $0 += requests.map(\.method) }
            return nil
        }
        let e = try makeEngine(policy: policy)
        _ = try e.commit([set("c/a", [:])], in: db, auth: .admin)
        #expect(seen.withLock { $0 }.isEmpty)
        _ = try e.commit([set("c/b", [:]), set("c/a", ["x": .integer(1)]), Write(operation: .delete(path("c/zz")))], in: db, auth: alice)
        _ = try e.getDocument(path("c/a"), in: db, auth: alice)
        _ = try e.runQuery(QueryTarget(parent: .root, query: StructuredQuery(collectionID: "c")), in: db, auth: alice)
        #expect(seen.withLock { $0 } == [.create, .update, .delete, .get, .list])
    }

    /// The emulator decides rules before preconditions (rules corpus write.p1–p4).
    @Test func rulesAreDecidedBeforePreconditions() throws {
        let seen = Mutex<[AccessRequest]>([])
        let allow = Atomic<Bool>(false)
        let policy = ClosurePolicy { requests, _ in
            seen.withLock { $0 += requests }
            return allow.load(ordering: .relaxed) ? nil : .permissionDenied("denied")
        }
        let e = try makeEngine(policy: policy)
        _ = try e.commit([set("c/e", ["v": .integer(1)])], in: db, auth: .admin)

        // exists: false on a stored document: a create, resource the stored document,
        // request.resource the result; denied → PERMISSION_DENIED, not ALREADY_EXISTS.
        var create = set("c/e", ["v": .integer(2)])
        create.currentDocument = .exists(false)
        #expect(throws: FirestoreError.permissionDenied("denied")) { try e.commit([create], in: db, auth: alice) }
        let r = try #require(seen.withLock { $0.last })
        #expect(r.method == .create)
        #expect(r.resource?.fields == ["v": .integer(1)])
        #expect(r.requestResource?.fields == ["v": .integer(2)])

        // exists: true on a missing document: an update of nothing; denied → PERMISSION_DENIED.
        var update = set("c/none", ["v": .integer(3)])
        update.currentDocument = .exists(true)
        #expect(throws: FirestoreError.permissionDenied("denied")) { try e.commit([update], in: db, auth: alice) }
        let u = try #require(seen.withLock { $0.last })
        #expect(u.method == .update)
        #expect(u.resource == nil)
        #expect(u.requestResource?.fields == ["v": .integer(3)])

        // A later write's precondition does not pre-empt an earlier write's denial either.
        #expect(throws: FirestoreError.permissionDenied("denied")) {
            try e.commit([set("c/x", [:]), update], in: db, auth: alice)
        }

        // Once the rules allow, the first failing precondition answers, and nothing is written.
        allow.store(true, ordering: .relaxed)
        do {
            _ = try e.commit([set("c/y", [:]), create, update], in: db, auth: alice)
            Issue.record("expected ALREADY_EXISTS")
        } catch {
            #expect(error.code == .alreadyExists)
        }
        #expect(throws: FirestoreError.self) { try e.getDocument(path("c/y"), in: db, auth: .admin) }
        #expect(try e.getDocument(path("c/e"), in: db, auth: .admin).value.fields == ["v": .integer(1)])
        #expect(throws: FirestoreError(.notFound, "No document to update: projects/demo-test/databases/(default)/documents/c/none")) {
            try e.commit([update], in: db, auth: alice)
        }
    }

    @Test func metadataOperationsRequireAdmin() throws {
        let e = try makeEngine()
        #expect(throws: FirestoreError.permissionDenied("Metadata operations require admin authentication.")) {
            try e.listCollectionIDs(under: .root, in: db, auth: alice)
        }
        #expect(throws: FirestoreError.permissionDenied("Batch writes require admin authentication.")) {
            try e.batchWrite([], in: db, auth: alice)
        }
    }
}

@Suite struct AggregationTests {
    @Test func countSumAvgFollowFirestoreTypes() throws {
        let e = try makeEngine()
        _ = try e.commit(
            [
                set("n/a", ["v": .integer(2)]), set("n/b", ["v": .integer(3)]), set("n/c", ["v": .string("x")]),
                set("n/d", [:]),
            ], in: db, auth: .admin)
        let target = QueryTarget(parent: .root, query: StructuredQuery(collectionID: "n"))
        let r = try e.runAggregation(
            target,
            aggregations: [
                Aggregation(alias: "c", kind: .count(upTo: nil)), Aggregation(alias: "s", kind: .sum(FieldPath(["v"]))),
                Aggregation(alias: "a", kind: .avg(FieldPath(["v"]))), Aggregation(alias: "u", kind: .count(upTo: 2)),
            ], in: db, auth: .admin)
        // n/d lacks v, so the sum's scan leaves it out of the count beside it too.
        #expect(r.value == ["c": .integer(3), "s": .integer(5), "a": .double(2.5), "u": .integer(2)])
        let none = try e.runAggregation(
            target, aggregations: [Aggregation(alias: "none", kind: .avg(FieldPath(["missing"])))], in: db, auth: .admin)
        #expect(none.value == ["none": .null])
        let all = try e.runAggregation(target, aggregations: [Aggregation(alias: "c", kind: .count(upTo: nil))], in: db, auth: .admin)
        #expect(all.value == ["c": .integer(4)])
    }

    /// google-cloud-firestore `test_sum_query_get_with_limit` (run against production too):
    /// over a·b for a, b in 0…4, `limit(12).sum` is 5 and `limit(12).avg` 5/12 — the limit
    /// takes the 12 smallest products, whatever the document names.
    @Test func limitAppliesInTheSummedFieldsOrder() throws {
        let e = try makeEngine()
        var writes: [Write] = []
        for a in 0..<5 {
            for b in 0..<5 {
                writes.append(set("g/d\(24 - a * 5 - b)", ["a": .integer(Int64(a)), "stats": .map(["product": .integer(Int64(a * b))])]))
            }
        }
        _ = try e.commit(writes, in: db, auth: .admin)
        let product = FieldPath(["stats", "product"])
        var q = StructuredQuery(collectionID: "g")
        let whole = try e.runAggregation(QueryTarget(parent: .root, query: q), aggregations: [Aggregation(alias: "t", kind: .sum(product))], in: db, auth: .admin)
        #expect(whole.value == ["t": .integer(100)])
        q.limit = 12
        let r = try e.runAggregation(
            QueryTarget(parent: .root, query: q),
            aggregations: [
                Aggregation(alias: "s", kind: .sum(product)), Aggregation(alias: "a", kind: .avg(product)),
                Aggregation(alias: "c", kind: .count(upTo: nil)),
            ], in: db, auth: .admin)
        #expect(r.value == ["s": .integer(5), "a": .double(5.0 / 12), "c": .integer(12)])
        // A descending explicit order puts the summed field after it, descending too.
        q.orderBy = [Order(FieldPath(["a"]), .descending)]
        q.limit = 3
        let top = try e.runAggregation(
            QueryTarget(parent: .root, query: q), aggregations: [Aggregation(alias: "s", kind: .sum(product))], in: db, auth: .admin)
        #expect(top.value == ["s": .integer(16 + 12 + 8)])
    }

    @Test func aggregationListsAreCheckedWithTheEmulatorsMessages() throws {
        let e = try makeEngine()
        let target = QueryTarget(parent: .root, query: StructuredQuery(collectionID: "n"))
        let count = Aggregation.Kind.count(upTo: nil)
        #expect(throws: FirestoreError.invalidArgument("Aggregations can not be empty.")) {
            try e.runAggregation(target, aggregations: [], in: db, auth: .admin)
        }
        #expect(throws: FirestoreError.invalidArgument("Aggregation aliases contain duplicate alias: total.")) {
            try e.runAggregation(
                target, aggregations: [Aggregation(alias: "total", kind: count), Aggregation(alias: "total", kind: count)], in: db,
                auth: .admin)
        }
        #expect(throws: FirestoreError.invalidArgument("Too many aggregations: 6; a query may hold at most 5.")) {
            try e.runAggregation(
                target, aggregations: (0..<6).map { Aggregation(alias: "a\($0)", kind: count) }, in: db, auth: .admin)
        }
        #expect(throws: FirestoreError.invalidArgument("Aggregations are not supported for the property: __key__")) {
            try e.runAggregation(target, aggregations: [Aggregation(alias: "s", kind: .sum(.documentKey))], in: db, auth: .admin)
        }
    }

    @Test func sumOverflowBecomesDouble() {
        let docs = [Int64.max, 1].enumerated().map {
            Document(
                path: path("n/\($0.offset)"), fields: ["v": .integer($0.element)], createTime: Timestamp(seconds: 0, nanos: 0),
                updateTime: Timestamp(seconds: 0, nanos: 0))
        }
        #expect(FirestoreEngine.aggregate(.sum(FieldPath(["v"])), over: docs) == .double(Double(Int64.max) + 1))
    }
}

@Suite struct WriteValidationTests {
    @Test func overlappingTransformsAreRejectedButRepeatsAreNot() throws {
        let e = try makeEngine()
        var w = Write(operation: .update(path: path("c/d"), fields: [:]), updateMask: [])
        w.updateTransforms = [
            FieldTransform(fieldPath: FieldPath(["n"]), operation: .increment(.integer(1))),
            FieldTransform(fieldPath: FieldPath(["n"]), operation: .increment(.integer(2))),
        ]
        let r = try e.commit([w], in: db, auth: .admin)
        #expect(r.writeResults[0].transformResults == [.integer(1), .integer(3)])
        w.updateTransforms = [
            FieldTransform(fieldPath: FieldPath(["m"]), operation: .serverTimestamp),
            FieldTransform(fieldPath: FieldPath(["m", "x"]), operation: .increment(.integer(1))),
        ]
        #expect(throws: FirestoreError.self) { try e.commit([w], in: db, auth: .admin) }
    }
}

@Suite struct TransactionRetryTests {
    @Test func rollbackAfterAFailedCommitSucceeds() throws {
        let e = try makeEngine()
        let t = try e.beginTransaction(in: db, mode: .readWrite(retryTransaction: nil))
        var w = set("c/missing", [:])
        w.currentDocument = .exists(true)
        #expect(throws: FirestoreError.self) { try e.commit([w], in: db, transaction: t, auth: .admin) }
        // The client rolls back after every failed commit; the commit's own error must stand.
        try e.rollback(t, in: db)
        try e.rollback(t, in: db)
        // An id never issued is refused, as the emulator answers ("Invalid transaction.").
        #expect(throws: FirestoreError.invalidArgument("Invalid transaction.")) { try e.rollback([9, 9, 9], in: db) }
    }

    @Test func aRetryKeepsItsPlaceInLine() throws {
        let e = try makeEngine()
        _ = try e.commit([set("c/x", ["v": .integer(0)])], in: db, auth: .admin)
        let first = try e.beginTransaction(in: db, mode: .readWrite(retryTransaction: nil))
        _ = try e.getDocument(path("c/x"), in: db, consistency: .transaction(first), auth: .admin)
        _ = try e.commit([set("c/x", ["v": .integer(1)])], in: db, auth: .admin)
        #expect(throws: FirestoreError.self) { try e.commit([set("c/x", [:])], in: db, transaction: first, auth: .admin) }

        let retry = try e.beginTransaction(in: db, mode: .readWrite(retryTransaction: first))
        _ = try e.getDocument(path("c/x"), in: db, consistency: .transaction(retry), auth: .admin)
        let rival = try e.beginTransaction(in: db, mode: .readWrite(retryTransaction: nil))
        _ = try e.getDocument(path("c/x"), in: db, consistency: .transaction(rival), auth: .admin)
        do {
            _ = try e.commit([set("c/x", ["v": .integer(99)])], in: db, transaction: rival, auth: .admin)
            Issue.record("a first attempt must give way to the retry that read the same document")
        } catch {
            #expect(error.code == .aborted)
        }
        _ = try e.commit([set("c/x", ["v": .integer(2)])], in: db, transaction: retry, auth: .admin)
        #expect(try e.getDocument(path("c/x"), in: db, auth: .admin).value.fields["v"] == .integer(2))
    }
}

@Suite struct MissingReadTests {
    @Test func aNotFoundGetInsideATransactionIsStillARead() throws {
        let e = try makeEngine()
        let t = try e.beginTransaction(in: db, mode: .readWrite(retryTransaction: nil))
        #expect(throws: FirestoreError.self) {
            try e.getDocument(path("lost/x"), in: db, consistency: .transaction(t), auth: .admin)
        }
        _ = try e.commit([set("lost/x", ["by": .string("rival")])], in: db, auth: .admin)
        do {
            _ = try e.commit([set("lost/x", ["by": .string("me")])], in: db, transaction: t, auth: .admin)
            Issue.record("the commit must abort: the document read as missing now exists")
        } catch {
            #expect(error.code == .aborted)
        }
    }
}

@Suite struct TransactionLimitTests {
    @Test func readOnlyTransactionsAreCapped() throws {
        let e = try makeEngine()
        for _ in 0..<TransactionRegistry.maxHeldSnapshots {
            _ = try e.beginTransaction(in: db, mode: .readOnly(readTime: nil))
        }
        do {
            _ = try e.beginTransaction(in: db, mode: .readOnly(readTime: nil))
            Issue.record("the cap must refuse one more snapshot")
        } catch {
            #expect(error.code == .resourceExhausted)
        }
        // Read-write transactions hold no snapshot and are still admitted.
        _ = try e.beginTransaction(in: db, mode: .readWrite(retryTransaction: nil))
    }
}

@Suite struct VerifyAccessTests {
    @Test func aVerifyIsDecidedAsAGetSoItCannotProbeForDocuments() throws {
        let seen = Mutex<[AccessMethod]>([])
        let e = try makeEngine(policy: ClosurePolicy { requests, _ in
            seen.withLock { $0 += requests.map(\.method) }
            return requests.contains { $0.method == .get } ? .permissionDenied("no reads") : nil
        })
        _ = try e.commit([set("private/a1", ["s": .string("x")])], in: db, auth: .admin)
        for name in ["private/a1", "private/nope"] {
            let verify = Write(operation: .verify(path(name)), currentDocument: .exists(true))
            do {
                _ = try e.commit([verify], in: db, auth: alice)
                Issue.record("a verify the rules deny as a get must be PERMISSION_DENIED")
            } catch {
                #expect(error.code == .permissionDenied, "\(name): \(error)")
            }
        }
        #expect(seen.withLock { $0 } == [.get, .get])
    }
}
