import FirestoreModel
import Foundation
import Functions
import Testing

@testable import ShoutsBackend

@Suite("sendMessage: audience, writes, rate limit and push (docs/app/shouts-and-whispers.md §4 steps 3–7)")
struct SendMessageTests {
    let f: ShoutsFixture

    init() throws { f = try ShoutsFixture() }

    @Test("whisper reaches 150 m, shout 1,500 m; distances rounded to metres; the count excludes the sender")
    func whisperVersusShout() async throws {
        try f.seedPresence("near", metersNorth: 100)
        try f.seedPresence("mid", metersNorth: 1000)
        try f.seedPresence("far", metersNorth: 2000)
        let whisper = try result(try await f.send(from: "me", kind: "whisper"))
        #expect(whisper.recipientCount == 1)
        #expect(try f.holders(of: whisper.messageId) == ["me", "near"])
        #expect(try f.feed("near").first?.get("distanceM") == .integer(100))

        f.clock.advance(seconds: 5)
        let shout = try result(try await f.send(from: "me", kind: "shout"))
        #expect(shout.recipientCount == 2)
        #expect(try f.holders(of: shout.messageId) == ["me", "near", "mid"])
        let midCopy = try f.db.document("users/mid/feed/\(shout.messageId)").get()
        #expect(midCopy.get("distanceM") == .integer(1000))
        #expect(midCopy.get("isOwn") == .boolean(false))
    }

    @Test("presence exactly 5 minutes old is fresh; one second older is stale")
    func freshness() async throws {
        try f.seedPresence("fresh", metersNorth: 50, updatedAt: f.clock.ago(seconds: 300))
        try f.seedPresence("stale", metersNorth: 50, updatedAt: f.clock.ago(seconds: 301))
        let r = try result(try await f.send(from: "me"))
        #expect(try f.holders(of: r.messageId) == ["me", "fresh"])
    }

    @Test("a pair across the antimeridian, 111 m apart, is within a whisper")
    func antimeridian() async throws {
        try f.seedPresence("east", metersNorth: 0, lat: 0, lng: -179.9995)
        let r = try result(try await f.send(from: "west", lat: 0, lng: 179.9995))
        #expect(r.recipientCount == 1)
        #expect(try f.feed("east").first?.get("distanceM") == .integer(111))
    }

    @Test("the sender always gets an own copy (isOwn, distance 0), even with stale or no presence")
    func ownCopy() async throws {
        try f.seedPresence("stale-me", metersNorth: 5000, updatedAt: f.clock.ago(seconds: 86_400))
        for (sender, lat) in [("stale-me", f.center.lat), ("new-me", 10.0)] {
            let r = try result(try await f.send(from: sender, lat: lat))
            #expect(r.recipientCount == 0)
            let own = try f.db.document("users/\(sender)/feed/\(r.messageId)").get()
            #expect(own.get("isOwn") == .boolean(true))
            #expect(own.get("distanceM") == .integer(0))
        }
    }

    @Test("messages and feed documents carry docs/app/shouts-and-whispers.md §3 fields; name and photo only from the token")
    func documents() async throws {
        try f.seedPresence("bob", metersNorth: 20)
        let r = try result(try await f.send(from: "me", text: "hi all", kind: "whisper", name: "Ann", picture: "https://p/ann.png"))
        let message = try #require(try f.db.document("messages/\(r.messageId)").get().data)
        let sentAt = try #require(message["sentAt"])
        guard case .timestamp = sentAt else { throw ShoutsTestFailure("sentAt is not a timestamp") }
        #expect(message["senderId"] == .string("me"))
        #expect(message["senderName"] == .string("Ann"))
        #expect(message["senderPhotoUrl"] == .string("https://p/ann.png"))
        #expect(message["text"] == .string("hi all"))
        #expect(message["kind"] == .string("whisper"))
        #expect(message["lat"] == .double(f.center.lat))
        #expect(message["lng"] == .double(f.center.lng))
        #expect(message["geohash"] == .string("9q8yyk8yt"))
        #expect(message["recipientCount"] == .integer(1))
        let copy = try #require(try f.db.document("users/bob/feed/\(r.messageId)").get().data)
        #expect(copy == [
            "messageId": .string(r.messageId), "senderId": .string("me"), "senderName": .string("Ann"),
            "senderPhotoUrl": .string("https://p/ann.png"), "text": .string("hi all"), "kind": .string("whisper"),
            "lat": .double(f.center.lat), "lng": .double(f.center.lng), "sentAt": sentAt, "distanceM": .integer(20),
            "isOwn": .boolean(false),
        ])
        f.clock.advance(seconds: 5)
        let anonymous = try result(try await f.send(from: "me", name: nil))
        let anon = try f.db.document("messages/\(anonymous.messageId)").get()
        #expect(anon.get("senderName") == .null)
        #expect(anon.get("senderPhotoUrl") == .null)
    }

    @Test("a second send within 5 s is RESOURCE_EXHAUSTED (429); at 5 s it passes")
    func rateLimit() async throws {
        #expect(try await f.send(from: "me").status == 200)
        f.clock.advance(seconds: 4)
        let limited = try await f.send(from: "me")
        #expect(limited.status == 429)
        #expect(errorStatus(limited) == "RESOURCE_EXHAUSTED")
        #expect(try f.db.collection("messages").get().count == 1)
        f.clock.advance(seconds: 1)
        #expect(try await f.send(from: "me").status == 200)
        #expect(try await f.send(from: "other").status == 200)
    }

    @Test("the sender's presence is refreshed by merge: position, 9-char geohash, stamps; fcmToken kept")
    func presenceRefresh() async throws {
        try f.seedPresence("me", metersNorth: 3000, updatedAt: f.clock.ago(seconds: 3600), token: "tok-me")
        f.clock.advance(seconds: 1)
        _ = try result(try await f.send(from: "me"))
        let p = try #require(try f.db.document("presence/me").get().data)
        #expect(p["fcmToken"] == .string("tok-me"))
        #expect(p["lat"] == .double(f.center.lat))
        #expect(p["lng"] == .double(f.center.lng))
        #expect(p["geohash"] == .string("9q8yyk8yt"))
        guard case .timestamp(let updatedAt)? = p["updatedAt"], case .timestamp(let lastSentAt)? = p["lastSentAt"] else {
            throw ShoutsTestFailure("stamps missing: \(p)")
        }
        #expect(updatedAt == lastSentAt)
        #expect(updatedAt >= f.clock.read())
        #expect(p.count == 6)
    }

    @Test("1,000 recipients: 1,001 feed copies written in commits of at most 450, 1,000 pushes in two chunks")
    func largeFanOut() async throws {
        var batch = f.db.batch()
        for i in 0..<1000 {
            let meters = Double(i % 140)
            let location = try GeoLocation(latitude: f.center.lat + meters * ShoutsFixture.degreesPerMeter, longitude: f.center.lng)
            batch.set(f.db.collection("presence").document("u\(i)"), [
                "lat": .double(location.latitude), "lng": .double(location.longitude),
                "geohash": .string(Geohash.forLocation(location, precision: 9)), "updatedAt": .timestamp(f.clock.read()),
                "fcmToken": .string("tok-\(i)"),
            ])
            if batch.count == 400 {
                try batch.commit()
                batch = f.db.batch()
            }
        }
        try batch.commit()
        let sizesBefore = f.commitSizes.values.count
        let r = try result(try await f.send(from: "me", kind: "whisper"))
        #expect(r.recipientCount == 1000)
        #expect(try f.db.collectionGroup("feed").get().count == 1001)
        let sendCommits = Array(f.commitSizes.values.dropFirst(sizesBefore))
        #expect(sendCommits.max() ?? 0 <= 450)
        #expect(sendCommits.reduce(0, +) == 1001 + 3)  // feed copies + presence, message, audience record
        #expect(f.host.outbox.messages.count == 1000)
        #expect(Set(f.host.outbox.messages.map(\.token)).count == 1000)
    }

    @Test("pushes go to recipients' tokens, never the sender's, with title, body and data")
    func pushContent() async throws {
        try f.seedPresence("me", metersNorth: 0, token: "tok-me")
        try f.seedPresence("bob", metersNorth: 500, token: "tok-bob")
        try f.seedPresence("no-token", metersNorth: 600)
        let r = try result(try await f.send(from: "me", text: "party", kind: "shout", name: "Ann"))
        let pushes = f.host.outbox.messages
        #expect(pushes.map(\.token) == ["tok-bob"])
        #expect(pushes.first?.notification == PushNotification(title: "Shout from Ann", body: "party"))
        #expect(pushes.first?.data == ["messageId": r.messageId, "kind": "shout"])
        f.clock.advance(seconds: 5)
        _ = try result(try await f.send(from: "me", kind: "whisper", name: nil))
        #expect(f.host.outbox.messages.isEmpty == false)
        #expect(try #require(f.host.outbox.messages.last).notification?.title != nil)
    }

    @Test("an UNREGISTERED token is cleared from presence; invalid and valid tokens are kept; the send succeeds")
    func unregisteredTokenCleared() async throws {
        try f.seedPresence("gone", metersNorth: 10, token: "unregistered-abc")
        try f.seedPresence("bad", metersNorth: 20, token: "invalid-xyz")
        try f.seedPresence("ok", metersNorth: 30, token: "tok-ok")
        let r = try result(try await f.send(from: "me"))
        #expect(r.recipientCount == 3)
        #expect(try f.db.document("presence/gone").get().get("fcmToken") == .null)
        #expect(try f.db.document("presence/bad").get().get("fcmToken") == .string("invalid-xyz"))
        #expect(try f.db.document("presence/ok").get().get("fcmToken") == .string("tok-ok"))
        #expect(f.host.outbox.messages.map(\.token) == ["tok-ok"])
        #expect(try f.holders(of: r.messageId) == ["me", "gone", "bad", "ok"])
    }
}
