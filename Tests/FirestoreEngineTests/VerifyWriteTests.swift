import FirestoreModel
import Testing

@testable import FirestoreEngine

/// How a request combines verifies with other writes (emulator 1.19.9, recorded in
/// Tests/Conformance/transforms.json → `requests`), on every commit path of the engine.
@Suite struct VerifyWriteTests {
    static func verify(_ p: String, _ precondition: Precondition = .exists(true)) -> Write {
        Write(operation: .verify(path(p)), currentDocument: precondition)
    }

    static let refusals: [(String, [Write], String)] = [
        ("no precondition", [verify("rooms/r1", .none)], "a verify must contain a precondition"),
        ("twice", [verify("rooms/r1"), verify("rooms/r1")],
         "the same document cannot be verified more than once in a single request"),
        ("written, then verified", [set("rooms/r1", [:]), verify("rooms/r1")],
         "the same document cannot be written and then verified in a single request"),
        ("deleted, then verified", [Write(operation: .delete(path("rooms/r1"))), verify("rooms/r1")],
         "the same document cannot be written and then verified in a single request"),
        ("verified, then written", [verify("rooms/r1"), set("rooms/r1", [:])],
         "the same document cannot be verified and then written in a single request"),
        // The combination is checked over the whole request before each write's own checks.
        ("twice, without preconditions", [verify("rooms/r1", .none), verify("rooms/r1", .none)],
         "the same document cannot be verified more than once in a single request"),
        ("verify, verify, write", [verify("rooms/r1"), verify("rooms/r1"), set("rooms/r1", [:])],
         "the same document cannot be verified more than once in a single request"),
    ]

    @Test func commitRefusesWhatTheEmulatorRefuses() throws {
        let e = try makeEngine()
        _ = try e.commit([set("rooms/r1", ["n": .integer(1)])], in: db, auth: .admin)
        for (note, writes, message) in Self.refusals {
            #expect(throws: FirestoreError(.invalidArgument, message), "\(note)") {
                try e.commit(writes, in: db, auth: .admin)
            }
        }
    }

    @Test func groupCommitRefusesThemToo() async throws {
        let e = try makeEngine()
        _ = try e.commit([set("rooms/r1", ["n": .integer(1)])], in: db, auth: .admin)
        for (note, writes, message) in Self.refusals {
            await #expect(throws: FirestoreError(.invalidArgument, message), "\(note)") {
                try await e.groupCommit(writes, in: db, auth: .admin)
            }
        }
    }

    @Test func aRefusedCommitLeavesItsTransactionUsable() throws {
        let e = try makeEngine()
        _ = try e.commit([set("rooms/r1", ["n": .integer(1)])], in: db, auth: .admin)
        let tx = try e.beginTransaction(in: db, mode: .readWrite(retryTransaction: nil))
        #expect(throws: FirestoreError.self) {
            try e.commit([Self.verify("rooms/r1"), Self.verify("rooms/r1")], in: db, transaction: tx, auth: .admin)
        }
        _ = try e.commit([], in: db, transaction: tx, auth: .admin)
    }

    @Test func writingOneDocumentTwiceIsAllowed() throws {
        let e = try makeEngine()
        let twice = [set("rooms/r1", ["n": .integer(1)]), set("rooms/r1", ["n": .integer(2)])]
        let r = try e.commit(twice, in: db, auth: .admin)
        #expect(r.writeResults.map(\.updateTime) == [r.commitTime, r.commitTime])
        let other = try e.commit([Self.verify("rooms/r1"), set("rooms/r2", [:])], in: db, auth: .admin)
        #expect(other.writeResults.map(\.updateTime) == [r.commitTime, other.commitTime])
    }

    @Test func aDocumentVerifiedMissingReportsTheCommitTime() throws {
        let e = try makeEngine()
        let r = try e.commit([Self.verify("rooms/none", .exists(false))], in: db, auth: .admin)
        #expect(r.writeResults == [WriteResult(updateTime: r.commitTime)])
    }

    @Test func theWriteStreamPathChecksEachWriteOnly() async throws {
        let e = try makeEngine()
        let first = try e.commit([set("rooms/r1", ["n": .integer(1)])], in: db, auth: .admin)
        // The emulator's Write stream takes these; it still wants a verify's precondition.
        let writes = [set("rooms/r1", ["n": .integer(1)]), Self.verify("rooms/r1"), Self.verify("rooms/r1")]
        let r = try await e.groupCommit(writes, in: db, auth: .admin, checksVerifyCombinations: false)
        #expect(r.writeResults.map(\.updateTime) == [first.commitTime, first.commitTime, first.commitTime])
        await #expect(throws: FirestoreError(.invalidArgument, "a verify must contain a precondition")) {
            try await e.groupCommit(
                [Self.verify("rooms/r1", .none)], in: db, auth: .admin, checksVerifyCombinations: false)
        }
    }

    @Test func batchWriteRefusesRepeatsAndVerifiesWithoutPreconditionsAsAWhole() throws {
        let e = try makeEngine()
        let repeated = "the same document cannot be written more than once in a single request"
        #expect(throws: FirestoreError(.invalidArgument, repeated)) {
            try e.batchWrite([Self.verify("rooms/r1"), Self.verify("rooms/r1")], in: db, auth: .admin)
        }
        #expect(throws: FirestoreError(.invalidArgument, repeated)) {
            let writes = [Self.verify("rooms/r1", .none), set("rooms/r2", [:]), set("rooms/r2", [:])]
            return try e.batchWrite(writes, in: db, auth: .admin)
        }
        #expect(throws: FirestoreError(.invalidArgument, "a verify must contain a precondition")) {
            try e.batchWrite([set("rooms/r2", [:]), Self.verify("rooms/r1", .none)], in: db, auth: .admin)
        }
        let writes = [Self.verify("rooms/r1", .exists(false)), Self.verify("rooms/r3")]
        let results = try e.batchWrite(writes, in: db, auth: .admin)
        #expect((try? results[0].get().updateTime) != nil)
        #expect(results[1].failure?.code == .notFound)
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let f) = self { return f }
        return nil
    }
}
