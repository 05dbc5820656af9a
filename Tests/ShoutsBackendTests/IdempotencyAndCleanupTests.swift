import DocumentStore
import FirestoreEngine
import FirestoreModel
import Foundation
import Functions
import HTTPServer
import ShoutsWorkloads
import Testing

@testable import ShoutsBackend

@Suite("sendMessage idempotency (docs/app/shouts-and-whispers.md §7) and cleanupPresence (docs/app/shouts-and-whispers.md §4)")
struct IdempotencyAndCleanupTests {
    let f: ShoutsFixture

    init() throws { f = try ShoutsFixture() }

    @Test("a retry with the same key returns the same message, is not rate-limited, and delivers once")
    func retryDeliversOnce() async throws {
        try f.seedPresence("bob", metersNorth: 50, token: "tok-bob")
        let first = try result(try await f.send(from: "me", idempotencyKey: "k-1"))
        #expect(first.messageId == MessageID.derived(senderUID: "me", idempotencyKey: "k-1"))
        try f.seedPresence("late", metersNorth: 60, token: "tok-late")  // arrives after the send
        try f.db.document("users/bob/feed/\(first.messageId)").delete()  // as if its batch had failed
        f.clock.advance(seconds: 1)
        let retry = try result(try await f.send(from: "me", idempotencyKey: "k-1"))
        #expect(retry.messageId == first.messageId)
        #expect(retry.recipientCount == 1)
        #expect(try f.holders(of: first.messageId) == ["me", "bob"])
        #expect(f.host.outbox.messages.map(\.token) == ["tok-bob"])
        #expect(try f.db.collection("messages").get().count == 1)
        let third = try result(try await f.send(from: "me", idempotencyKey: "k-1"))
        #expect(third.messageId == first.messageId)
        #expect(f.host.outbox.messages.count == 1)
    }

    @Test("another key, or another sender with the same key, is a new message")
    func keysAreScopedBySender() async throws {
        let a = try result(try await f.send(from: "me", idempotencyKey: "k"))
        f.clock.advance(seconds: 5)
        let b = try result(try await f.send(from: "me", idempotencyKey: "k2"))
        let c = try result(try await f.send(from: "you", idempotencyKey: "k"))
        #expect(Set([a.messageId, b.messageId, c.messageId]).count == 3)
    }

    @Test("unit: derived ids are stable, 32 hex digits, and length-prefixed")
    func derivedIDs() {
        let id = MessageID.derived(senderUID: "ab", idempotencyKey: "c")
        #expect(id == MessageID.derived(senderUID: "ab", idempotencyKey: "c"))
        #expect(id.count == 32 && id.allSatisfy(\.isHexDigit))
        #expect(id != MessageID.derived(senderUID: "a", idempotencyKey: "bc"))
    }

    @Test("unit: SHA-256 matches the FIPS 180-4 examples")
    func sha256() {
        #expect(SHA256.hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex(Array(repeating: UInt8(ascii: "a"), count: 1_000)).hasPrefix("41edece42d63e8d9bf515a9ba6932e1c"))
    }

    @Test("unit: audience records hold 1,000 entries per chunk and skip the sender")
    func audienceChunks() {
        let recipients = [RecipientSelection.Recipient(uid: "me", distanceM: 0, isOwn: true, fcmToken: nil)]
            + (0..<2500).map { RecipientSelection.Recipient(uid: "u\($0)", distanceM: $0 % 150, isOwn: false, fcmToken: nil) }
        let chunks = AudienceRecord.chunks(recipients)
        #expect(chunks.map(\.id) == ["000000", "000001", "000002"])
        let sizes = chunks.map { chunk -> Int in
            if case .value(.array(let a))? = chunk.fields["entries"] { return a.count }
            return -1
        }
        #expect(sizes == [1000, 1000, 500])
    }

    @Test("cleanupPresence deletes only presence older than 30 days, via the run endpoint")
    func cleanup() async throws {
        let day: Int64 = 86_400
        try f.seedPresence("old", metersNorth: 0, updatedAt: f.clock.ago(seconds: 31 * day))
        try f.seedPresence("just-over", metersNorth: 0, updatedAt: f.clock.ago(seconds: 30 * day + 1))
        try f.seedPresence("exactly", metersNorth: 0, updatedAt: f.clock.ago(seconds: 30 * day))
        try f.seedPresence("recent", metersNorth: 0, updatedAt: f.clock.ago(seconds: 29 * day))
        try f.db.document("presence/token-only").set(["fcmToken": "t"])
        for i in 0..<500 {
            try f.db.document("presence/bulk-\(i)").set(["updatedAt": .timestamp(f.clock.ago(seconds: 40 * day))])
        }
        let r = await f.handler.handle(HTTPRequest(
            method: "POST", target: "/emulator/v1/projects/\(ShoutsFixture.project)/functions/cleanupPresence:run"))
        #expect(r.status == 200)
        #expect(String(decoding: r.body, as: UTF8.self) == #"{"result":{"deleted":502}}"#)
        let left = Set(try f.db.collection("presence").get().documents.map(\.documentID))
        #expect(left == ["exactly", "recent", "token-only"])
        #expect(f.commitSizes.values.suffix(2) == [450, 52])
    }

    @Test("cleanupPresence is registered daily")
    func registered() {
        #expect(f.host.functions.scheduled["cleanupPresence"]?.schedule.interval == .seconds(86_400))
        #expect(f.host.functions.callable(named: "sendMessage", region: "us-central1") != nil)
    }

    @Test("the benchmark helper seeds, sends, and reaches exactly its recipients")
    func benchmark() async throws {
        let engine = try FirestoreEngine(store: InMemoryDocumentStore())
        let elapsed = try await ShoutsBenchmarks.sendMessage(recipients: 40, presence: 100, engine: engine)
        #expect(elapsed > .zero)
        let db = AdminClient(engine: engine, database: DatabaseID(project: ShoutsBenchmarks.project))
        #expect(try db.collectionGroup("feed").get().count == 41)
    }
}
