import Dispatch
import DocumentStore
import FirestoreModel
import Glibc
import Synchronization
import Testing

@testable import FirestoreEngine

/// Group commit (`FirestoreEngine.groupCommit`): concurrent commits share one store
/// transaction, each checked over the state its predecessors in the group left.
@Suite struct GroupCommitTests {
    enum StoreKind: CaseIterable { case memory, sqlite }

    static func engine(_ kind: StoreKind) throws -> FirestoreEngine {
        let store: any DocumentStore = kind == .memory ? InMemoryDocumentStore() : try SQLiteDocumentStore(inMemory: ())
        return try FirestoreEngine(store: store, clock: TestClock().now)
    }

    static func increment(_ p: String) -> Write {
        var w = Write(operation: .update(path: path(p), fields: [:]), updateMask: [])
        w.updateTransforms = [FieldTransform(fieldPath: FieldPath(["n"]), operation: .increment(.integer(1)))]
        return w
    }

    /// Holds the writer lock on another thread until `count` commits were queued, then lets
    /// go: the commits the first drain took wait for the lock as one group, and every later
    /// one joins the next.
    static func whileWriterHeld<T: Sendable>(
        _ e: FirestoreEngine, untilQueued count: Int, _ body: @Sendable @escaping () async throws -> T
    ) async throws -> T {
        let held = Atomic<Bool>(false)
        let release = Atomic<Bool>(false)
        // A queue of its own (an overcommit thread), not the pool the tasks below run on.
        DispatchQueue(label: "writer-lock-holder").async {
            e.writer.withLock { _ in
                held.store(true, ordering: .sequentiallyConsistent)
                while !release.load(ordering: .sequentiallyConsistent) { usleep(200) }
            }
        }
        while !held.load(ordering: .sequentiallyConsistent) { try await Task.sleep(for: .milliseconds(1)) }
        let work = Task { try await body() }
        while e.groupCommits.commitsQueued.load(ordering: .relaxed) < count { try await Task.sleep(for: .milliseconds(1)) }
        release.store(true, ordering: .sequentiallyConsistent)
        return try await work.value
    }

    @Test(arguments: StoreKind.allCases)
    func concurrentIncrementsShareGroupsAndEachSeesTheOneBefore(_ kind: StoreKind) async throws {
        let e = try Self.engine(kind)
        _ = try e.commit([set("c/counter", ["n": .integer(0)])], in: db, auth: .admin)
        let results = try await Self.whileWriterHeld(e, untilQueued: 64) {
            try await withThrowingTaskGroup(of: (Timestamp, Value).self) { group in
                for _ in 0..<64 {
                    group.addTask {
                        let r = try await e.groupCommit([Self.increment("c/counter")], in: db, auth: .admin)
                        return (r.commitTime, r.writeResults[0].transformResults[0])
                    }
                }
                var all: [(Timestamp, Value)] = []
                for try await r in group { all.append(r) }
                return all
            }
        }
        // Two groups at most: what the first drain took, then everything queued behind it.
        #expect(e.groupCommits.groupsCommitted.load(ordering: .relaxed) <= 2)
        #expect(e.groupCommits.commitsGrouped.load(ordering: .relaxed) == 64)
        let all = results.sorted { $0.0 < $1.0 }
        // Every commit has its own time, and the increments are 1…64 in commit-time order.
        #expect(Set(all.map(\.0)).count == 64)
        #expect(all.map(\.1) == (1...64).map { .integer(Int64($0)) })
        #expect(try e.getDocument(path("c/counter"), in: db, auth: .admin).value.fields["n"] == .integer(64))
    }

    @Test(arguments: StoreKind.allCases)
    func aFailedPreconditionFailsAloneInItsGroup(_ kind: StoreKind) async throws {
        let e = try Self.engine(kind)
        let all = try await Self.whileWriterHeld(e, untilQueued: 20) {
            await withTaskGroup(of: Result<Timestamp, FirestoreError>.self) { group in
                for i in 0..<20 {
                    group.addTask {
                        var create = set("c/once", ["by": .integer(Int64(i))])
                        create.currentDocument = .exists(false)
                        do throws(FirestoreError) {
                            return .success(try await e.groupCommit([create, set("c/other\(i)", [:])], in: db, auth: .admin).commitTime)
                        } catch {
                            return .failure(error)
                        }
                    }
                }
                var all: [Result<Timestamp, FirestoreError>] = []
                for await r in group { all.append(r) }
                return all
            }
        }
        #expect(all.filter { if case .success = $0 { true } else { false } }.count == 1)
        #expect(all.filter { if case .failure(let f) = $0 { f.code == .alreadyExists } else { false } }.count == 19)
        // The failed commits stored nothing, not even their other write.
        let others = try e.batchGet((0..<20).map { path("c/other\($0)") }, in: db, auth: .admin).value
        #expect(others.filter { if case .found = $0 { true } else { false } }.count == 1)
    }

    @Test(arguments: StoreKind.allCases)
    func aTransactionSeesAnEarlierCommitOfItsGroup(_ kind: StoreKind) async throws {
        let e = try Self.engine(kind)
        _ = try e.commit([set("acct/a", ["v": .integer(1)])], in: db, auth: .admin)
        let t = try e.beginTransaction(in: db, mode: .readWrite(retryTransaction: nil))
        _ = try e.getDocument(path("acct/a"), in: db, consistency: .transaction(t), auth: .admin)
        let transactional = try await Self.whileWriterHeld(e, untilQueued: 3) { () async throws -> FirestoreError? in
            // The plain write queues before the transaction; both wait behind the held lock.
            async let blocker = e.groupCommit([set("c/first", [:])], in: db, auth: .admin)
            try await Task.sleep(for: .milliseconds(20))
            async let plain = e.groupCommit([set("acct/a", ["v": .integer(2)])], in: db, auth: .admin)
            try await Task.sleep(for: .milliseconds(20))
            var failure: FirestoreError?
            do throws(FirestoreError) {
                _ = try await e.groupCommit([set("acct/a", ["v": .integer(3)])], in: db, transaction: t, auth: .admin)
            } catch {
                failure = error
            }
            _ = try await (blocker, plain)
            return failure
        }
        #expect(transactional?.code == .aborted)
        #expect(try e.getDocument(path("acct/a"), in: db, auth: .admin).value.fields["v"] == .integer(2))
    }
}

/// `FirestoreEngine.offPool`: reads of unbounded length run on the store's reader threads.
@Suite struct OffPoolTests {
    final class StartedCount: Sendable { let value = Atomic<Int>(0) }

    /// As many blocked readers as the cooperative pool has threads (one per core): were they
    /// on the pool, the task below could not run until they were released, and they are
    /// released only after it ran.
    @Test(.timeLimit(.minutes(1))) func blockedReadersLeaveTheCooperativePoolFree() async throws {
        let e = try FirestoreEngine(store: InMemoryDocumentStore(), clock: TestClock().now)
        let release = DispatchSemaphore(value: 0)
        let started = StartedCount()
        let cores = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        let readers = (0..<cores).map { _ in
            Task {
                try await e.offPool { () throws(FirestoreError) -> Int in
                    started.value.add(1, ordering: .relaxed)
                    release.wait()
                    return 1
                }
            }
        }
        while started.value.load(ordering: .relaxed) < cores { try await Task.sleep(for: .milliseconds(1)) }
        let unblocked = await Task { 42 }.value
        #expect(unblocked == 42)
        for _ in 0..<cores { release.signal() }
        var total = 0
        for r in readers { total += try await r.value }
        #expect(total == cores)
    }

    @Test func errorsComeBackTyped() async throws {
        let e = try FirestoreEngine(store: InMemoryDocumentStore(), clock: TestClock().now)
        do {
            _ = try await e.offPool { () throws(FirestoreError) -> Int in throw .notFound("nothing") }
            Issue.record("expected NOT_FOUND")
        } catch {
            #expect(error.code == .notFound)
        }
    }
}
