import DeterministicRandom
import DocumentStore
import FirestoreModel
import Foundation
import Functions
import Testing

@testable import ShoutsBackend

/// `sendMessage` on the SQLite store — whose audience read is the pass over stored bytes
/// (`RangeScan`) — must do exactly what it does on the in-memory store, which answers the same
/// read by the general geohash queries: same response, same documents written (fields, create
/// and update times), same pushes. Random presence: fresh and stale, inside and outside the
/// radius and around its edge, geohashes that disagree with the coordinates, malformed fields.
@Suite("sendMessage: the SQLite fast path writes what the general path writes")
struct SendMessageStoreEquivalenceTests {
    /// Seeds the same random presence into `fixtures`.
    static func seed(_ fixtures: [ShoutsFixture], seed: UInt64, count: Int) throws {
        var rng = SplitMix64(seed: seed)
        let clock = fixtures[0].clock
        for i in 0..<count {
            let meters = Double(rng.next() % 2200)
            let bearing = Double(rng.next() % 360) * Double.pi / 180
            let lat = fixtures[0].center.lat + meters * cos(bearing) * ShoutsFixture.degreesPerMeter
            let lng =
                fixtures[0].center.lng
                + meters * sin(bearing) * ShoutsFixture.degreesPerMeter / cos(fixtures[0].center.lat * Double.pi / 180)
            let location = try GeoLocation(latitude: lat, longitude: lng)
            var fields: [String: FieldValue] = [
                "lat": .double(lat), "lng": .double(lng),
                "geohash": .string(Geohash.forLocation(location, precision: 9)),
                "updatedAt": .timestamp(clock.ago(seconds: Int64(rng.next() % 420))),
            ]
            switch rng.next() % 12 {
            case 0: fields["geohash"] = .string(Geohash.forLocation(try GeoLocation(latitude: 0, longitude: 0), precision: 9))
            case 1: fields["lat"] = .string("north")
            case 2: fields["updatedAt"] = .integer(5)
            case 3: fields["geohash"] = .integer(9)
            case 4: fields["lng"] = .integer(Int64(lng))
            default: break
            }
            if rng.next() % 4 != 0 { fields["fcmToken"] = .string("token-\(i)") }
            for f in fixtures { try f.db.collection("presence").document("u\(i)").set(fields) }
        }
    }

    /// Every document of the collections `sendMessage` writes, in name order.
    static func written(_ f: ShoutsFixture) throws -> [Document] {
        var out: [Document] = []
        for group in ["feed", "audience", "messages", "presence"] {
            out += try f.db.collectionGroup(group).get().documents.compactMap(\.document)
        }
        return out
    }

    @Test(arguments: 0..<4)
    func sameWritesOnBothStores(seed: Int) async throws {
        let memory = try ShoutsFixture()
        let sqlite = try ShoutsFixture(store: SQLiteDocumentStore(inMemory: ()))
        defer { sqlite.engine.close() }
        try Self.seed([memory, sqlite], seed: UInt64(seed) &+ 0xFA17, count: 400)
        for (i, kind) in ["shout", "whisper", "shout"].enumerated() {
            var answers: [String] = []
            for f in [memory, sqlite] {
                let r = try await f.send(from: "sender", text: "hi \(i)", kind: kind, idempotencyKey: "k\(i)")
                answers.append(String(decoding: r.body, as: UTF8.self))
                f.clock.advance(seconds: 6)
            }
            #expect(answers[0] == answers[1])
            // A retry of the same idempotent send: delivers only what is missing.
            for f in [memory, sqlite] {
                _ = try result(try await f.send(from: "sender", text: "hi \(i)", kind: kind, idempotencyKey: "k\(i)"))
            }
        }
        let expected = try Self.written(memory)
        #expect(expected.count > 400)
        #expect(try Self.written(sqlite) == expected)
        let pushes = { (f: ShoutsFixture) in
            f.host.outbox.messages.map { m in
                "\(m.token) \(m.notification?.title ?? "") \(m.notification?.body ?? "") \(m.data.sorted { $0.key < $1.key })"
            }
        }
        #expect(pushes(sqlite) == pushes(memory), "\(pushes(sqlite).count) pushes against \(pushes(memory).count)")
        #expect(!pushes(memory).isEmpty)
        #expect(sqlite.errors.values == memory.errors.values)
    }
}
