import FirestoreModel
import Foundation
import GoogleWire
import Hearth
import HearthDemo
import ShoutsBackend
import Testing

/// Shouts & Whispers end to end: Hearth started on the app's `firebase/` directory (its
/// `firestore.rules` in force), driven only through Firebase-standard interfaces — Firestore
/// REST with unsigned ID tokens (`Bearer owner` where a test needs an administrator), the
/// callable endpoint, the FCM outbox and scheduled-run endpoints. Source: docs/app/shouts-and-whispers.md §1,
/// §3, §4, §5, §10.
@Suite struct ShoutsEndToEndTests {
    // MARK: Radii (docs/app/shouts-and-whispers.md §1 rule 3)

    @Test func whisperReachesJustInside150MetresNotJustOutside() async throws {
        try await withShouts { w in
            try await w.heartbeat("inside", at: alexanderplatz.moved(10, 149.9))
            try await w.heartbeat("outside", at: alexanderplatz.moved(200, 150.1))
            try await w.heartbeat("far", at: alexanderplatz.moved(300, 400))
            let m = try await w.sent("sender", .whisper, from: alexanderplatz)
            #expect(m.count == 1)
            let entry = try #require(try await w.feedEntry("inside", m.id))
            #expect(entry.field("distanceM")?.restNumber == 150)  // 149.9 rounds to 150
            #expect(try await w.feedIDs("outside").isEmpty)
            #expect(try await w.feedIDs("far").isEmpty)
        }
    }

    @Test func shoutReachesJustInside1500MetresNotJustOutside() async throws {
        try await withShouts { w in
            try await w.heartbeat("near", at: alexanderplatz.moved(45, 149.9))
            try await w.heartbeat("whisperOut", at: alexanderplatz.moved(90, 150.1))
            try await w.heartbeat("inside", at: alexanderplatz.moved(135, 1499.9))
            try await w.heartbeat("outside", at: alexanderplatz.moved(315, 1500.1))
            let m = try await w.sent("sender", .shout, from: alexanderplatz)
            #expect(m.count == 3)
            #expect(try await w.feedIDs("near") == [m.id])
            #expect(try await w.feedIDs("whisperOut") == [m.id])
            let entry = try #require(try await w.feedEntry("inside", m.id))
            #expect(entry.field("distanceM")?.restNumber == 1500)
            #expect(entry.field("kind")?.restString == "shout")
            #expect(try await w.feedIDs("outside").isEmpty)
        }
    }

    // MARK: Geometry edges (geofire-common bounds, docs/reference/firestore-wire.md §5.2)

    @Test func neighboursAcrossTheAntimeridianReachEachOther() async throws {
        try await withShouts { w in
            let east = Spot(-16.8, 179.9995)  // Taveuni, Fiji
            let west = Spot(-16.8, -179.9995)
            let onPlus180 = Spot(-16.75, 180)
            let onMinus180 = Spot(-16.85, -180)
            #expect(east.geohash.first != west.geohash.first)  // opposite ends of the geohash space
            try await w.heartbeat("east", at: east)
            try await w.heartbeat("west", at: west)
            try await w.heartbeat("plus180", at: onPlus180)
            try await w.heartbeat("minus180", at: onMinus180)
            try await w.heartbeat("farWest", at: Spot(-16.8, -179.99))  // ≈ 1 km from `east`

            let fromEast = try await w.sent("east", .whisper, from: east)
            #expect(fromEast.count == 1)  // the ±180 users are ≈ 5.6 km north/south
            let copy = try #require(try await w.feedEntry("west", fromEast.id))
            #expect(copy.field("distanceM")?.restNumber == 106)
            #expect(try await w.feedIDs("farWest").isEmpty)

            let fromWest = try await w.sent("west", .shout, from: west)
            #expect(fromWest.count == 2)  // east (106 m) and farWest (≈ 1 km)
            #expect(try await w.feedEntry("east", fromWest.id) != nil)
            #expect(try await w.feedEntry("farWest", fromWest.id) != nil)

            // On the ±180 meridian itself: the same place, hashed at either end of the space.
            let fromPlus = try await w.sent("plus180", .whisper, from: Spot(-16.8499, 180))
            #expect(fromPlus.count == 1)
            let minus = try #require(try await w.feedEntry("minus180", fromPlus.id))
            #expect(minus.field("distanceM")?.restNumber == 11)
        }
    }

    @Test func nullIslandCornerReachesAllFourQuadrants() async throws {
        try await withShouts { w in
            let corner = Spot(0, 0)  // on the edge of every geohash cell: hashes as 7zzzzzzzz
            let quadrants = [
                ("ne", Spot(0.0003, 0.0003)), ("nw", Spot(0.0003, -0.0003)), ("se", Spot(-0.0003, 0.0003)),
                ("sw", Spot(-0.0003, -0.0003)), ("onEquator", Spot(0, 0.0004)), ("onMeridian", Spot(0.0004, 0)),
            ]
            #expect(corner.geohash == "7zzzzzzzz")
            #expect(Set(quadrants.prefix(4).map { $0.1.geohash.prefix(1) }) == ["s", "e", "k", "7"])
            for (uid, spot) in quadrants { try await w.heartbeat(uid, at: spot) }
            try await w.heartbeat("outside", at: Spot(0.001, 0.001))  // 157 m
            let m = try await w.sent("sender", .whisper, from: corner)
            #expect(m.count == quadrants.count)
            for (uid, _) in quadrants {
                #expect(try await w.feedIDs(uid) == [m.id], "\(uid)")
            }
            #expect(try await w.feedIDs("outside").isEmpty)
        }
    }

    @Test func neighboursAcrossGeohashCellEdgesNearBerlin() async throws {
        try await withShouts { w in
            // A longitude edge of 6-character cells (so also of the 9-character presence cells and
            // of the ≈ 33-bit cells a 150 m query uses), just east of the World Clock.
            let lngStep = 360.0 / Double(1 << 15)
            let edgeLng = ((alexanderplatz.lng + 180) / lngStep).rounded(.up) * lngStep - 180
            let onEdge = Spot(alexanderplatz.lat, edgeLng)
            let west = onEdge.moved(270, 1)
            let east = onEdge.moved(90, 1)
            #expect(onEdge.geohash.prefix(6) == west.geohash.prefix(6))  // an edge point hashes west/south
            #expect(east.geohash.prefix(6) != west.geohash.prefix(6))
            try await w.heartbeat("onEdge", at: onEdge)
            try await w.heartbeat("east", at: east)
            try await w.heartbeat("east140", at: onEdge.moved(90, 140))
            try await w.heartbeat("east152", at: onEdge.moved(90, 152))
            let fromWest = try await w.sent("west", .whisper, from: west)
            #expect(fromWest.count == 3)
            for uid in ["onEdge", "east", "east140"] { #expect(try await w.feedIDs(uid) == [fromWest.id], "\(uid)") }
            #expect(try await w.feedIDs("east152").isEmpty)

            // A latitude edge of 6-character cells, just north.
            let latStep = 180.0 / Double(1 << 15)
            let edgeLat = ((alexanderplatz.lat + 90) / latStep).rounded(.up) * latStep - 90
            let latEdge = Spot(edgeLat, alexanderplatz.lng)
            let south = latEdge.moved(180, 1)
            let north = latEdge.moved(0, 1)
            #expect(north.geohash.prefix(6) != south.geohash.prefix(6))
            try await w.heartbeat("latEdge", at: latEdge)
            try await w.heartbeat("south", at: south)
            try await w.heartbeat("south145", at: latEdge.moved(180, 145))
            let fromNorth = try await w.sent("north", .whisper, from: north)
            #expect(fromNorth.count == 3)
            for uid in ["latEdge", "south", "south145"] {
                #expect(try await w.feedIDs(uid) == [fromNorth.id], "\(uid)")
            }
        }
    }

    // MARK: Presence freshness (docs/app/shouts-and-whispers.md §1 rule 2)

    @Test func onlyPresenceFresherThanFiveMinutesCounts() async throws {
        try await withShouts { w in
            try await w.heartbeat("justNow", at: alexanderplatz.moved(0, 40))
            try await w.ownerPresence("fourMinutes", at: alexanderplatz.moved(90, 40), updatedAt: wallClock(offsetSeconds: -240))
            try await w.ownerPresence("sixMinutes", at: alexanderplatz.moved(180, 40), updatedAt: wallClock(offsetSeconds: -360))
            try await w.ownerPresence("noTime", at: alexanderplatz.moved(270, 40), updatedAt: nil)
            let m = try await w.sent("sender", .whisper, from: alexanderplatz)
            #expect(m.count == 2)
            #expect(try await w.feedIDs("justNow") == [m.id])
            #expect(try await w.feedIDs("fourMinutes") == [m.id])
            #expect(try await w.feedIDs("sixMinutes").isEmpty)
            #expect(try await w.feedIDs("noTime").isEmpty)
        }
    }

    @Test func lateArrivalDoesNotReceiveEarlierMessages() async throws {
        try await withShouts { w in
            try await w.heartbeat("early", at: alexanderplatz.moved(0, 50))
            let first = try await w.sent("sender", .shout, from: alexanderplatz)
            try await w.heartbeat("late", at: alexanderplatz.moved(90, 50))
            #expect(first.count == 1)
            #expect(try await w.feedIDs("late").isEmpty)
            let second = try await w.sent("other", .shout, from: alexanderplatz)
            #expect(try await w.feedIDs("late") == [second.id])
            #expect(try await w.feedIDs("early") == [second.id, first.id])  // newest first
        }
    }

    // MARK: Own copy, rate limit, push (docs/app/shouts-and-whispers.md §1 rule 5, §4 steps 3 and 7)

    @Test func senderGetsOwnCopyAtZeroMetresWithTokenIdentity() async throws {
        try await withShouts { w in
            try await w.heartbeat("friend", at: alexanderplatz.moved(0, 80))
            // The sender never wrote presence: the own copy does not depend on it.
            let reply = try await w.send(
                "sender", .whisper, from: alexanderplatz, text: "  hi there  ", name: "Ada Lovelace",
                picture: "https://photos.example/ada.jpg")
            let id = try #require(reply.messageID)
            let own = try #require(try await w.feedEntry("sender", id))
            #expect(own.field("isOwn")?.restBool == true)
            #expect(own.field("distanceM")?.restNumber == 0)
            #expect(own.field("senderName")?.restString == "Ada Lovelace")
            #expect(own.field("senderPhotoUrl")?.restString == "https://photos.example/ada.jpg")
            #expect(own.field("text")?.restString == "hi there")
            let theirs = try #require(try await w.feedEntry("friend", id))
            #expect(theirs.field("isOwn")?.restBool == false)
            #expect(theirs.field("distanceM")?.restNumber == 80)
            #expect(theirs.field("sentAt") == own.field("sentAt"))
            #expect(reply.recipientCount == 1)  // the sender is not counted
        }
    }

    @Test func secondSendWithinFiveSecondsIsResourceExhausted() async throws {
        try await withShouts { w in
            try await w.heartbeat("friend", at: alexanderplatz.moved(0, 20))
            let first = try await w.sent("sender", .whisper, from: alexanderplatz)
            let second = try await w.send("sender", .whisper, from: alexanderplatz, text: "again")
            #expect(second.status == 429)
            #expect(second.errorStatus == "RESOURCE_EXHAUSTED")
            #expect(second.messageID == nil)
            #expect(try await w.feedIDs("friend") == [first.id])
            #expect(try await w.feedIDs("sender") == [first.id])
            // Another user is not slowed down by it.
            #expect(try await w.send("friend", .whisper, from: alexanderplatz).status == 200)
        }
    }

    @Test func unregisteredTokenIsClearedAndTheSendStillSucceeds() async throws {
        try await withShouts { w in
            try await w.heartbeat("stale", at: alexanderplatz.moved(0, 60))
            #expect(try await w.saveToken("stale", ShoutsWorld.string("unregistered-abc")).status == 200)
            try await w.heartbeat("fine", at: alexanderplatz.moved(180, 60))
            #expect(try await w.saveToken("fine", ShoutsWorld.string("fcm-fine")).status == 200)
            let m = try await w.sent("sender", .whisper, from: alexanderplatz)
            #expect(m.count == 2)
            #expect(try await w.pushedTokens(m.id) == ["fcm-fine"])
            let stale = try #require(try await w.presence("stale"))
            #expect(stale.field("fcmToken")?["nullValue"] != nil)
            #expect(stale.field("lat") != nil)  // only the token was cleared
            let fine = try #require(try await w.presence("fine"))
            #expect(fine.field("fcmToken")?.restString == "fcm-fine")
            #expect(try await w.feedIDs("stale") == [m.id])
        }
    }

    @Test func senderIsNeverPushed() async throws {
        try await withShouts { w in
            try await w.heartbeat("a", at: alexanderplatz)
            #expect(try await w.saveToken("a", ShoutsWorld.string("fcm-a")).status == 200)
            try await w.heartbeat("b", at: alexanderplatz.moved(90, 30))
            #expect(try await w.saveToken("b", ShoutsWorld.string("fcm-b")).status == 200)
            let fromA = try await w.sent("a", .whisper, from: alexanderplatz)
            #expect(try await w.pushedTokens(fromA.id) == ["fcm-b"])
            let fromB = try await w.sent("b", .whisper, from: alexanderplatz.moved(90, 30))
            #expect(try await w.pushedTokens(fromB.id) == ["fcm-a"])
            let titles = try await w.outbox().compactMap { $0["notification"]?["title"]?.e2eString }
            #expect(titles == ["New whisper nearby", "New whisper nearby"])  // tokens carry no name claim
        }
    }

    @Test func retryWithTheSameIdempotencyKeyDeliversOnce() async throws {
        try await withShouts { w in
            try await w.heartbeat("friend", at: alexanderplatz.moved(0, 20))
            #expect(try await w.saveToken("friend", ShoutsWorld.string("fcm-friend")).status == 200)
            let first = try await w.sent("sender", .whisper, from: alexanderplatz, idempotencyKey: "k-1")
            let retry = try await w.sent("sender", .whisper, from: alexanderplatz, idempotencyKey: "k-1")
            #expect(retry.id == first.id)
            #expect(retry.count == first.count)
            #expect(try await w.feedIDs("friend") == [first.id])
            #expect(try await w.feedIDs("sender") == [first.id])
            #expect(try await w.pushedTokens(first.id) == ["fcm-friend"])
            // A new key is a new message, and within 5 s of the first it is rate-limited.
            let other = try await w.send("sender", .whisper, from: alexanderplatz, idempotencyKey: "k-2")
            #expect(other.status == 429)
        }
    }

    // MARK: Security rules (docs/app/shouts-and-whispers.md §5)

    @Test func feedIsReadableAndDeletableOnlyByItsOwner() async throws {
        try await withShouts { w in
            try await w.heartbeat("reader", at: alexanderplatz.moved(0, 20))
            let m = try await w.sent("sender", .whisper, from: alexanderplatz)
            let path = w.documents + "/users/reader/feed/\(m.id)"
            #expect(try await w.request("GET", port: w.firestore, path, bearer: w.token("reader")).status == 200)
            #expect(try await w.request("GET", port: w.firestore, path, bearer: w.token("sender")).status == 403)
            #expect(try await w.request("GET", port: w.firestore, path).status == 403)
            #expect(try await w.feedQuery("reader", as: w.token("sender")).status == 403)
            let forged = JSONValue.object(["fields": .object(["text": ShoutsWorld.string("fake")])])
            let create = try await w.request(
                "PATCH", port: w.firestore, w.documents + "/users/reader/feed/forged", json: forged,
                bearer: w.token("reader"))
            #expect(create.status == 403)
            let update = try await w.request("PATCH", port: w.firestore, path, json: forged, bearer: w.token("reader"))
            #expect(update.status == 403)
            #expect(try await w.request("DELETE", port: w.firestore, path, bearer: w.token("sender")).status == 403)
            #expect(try await w.request("DELETE", port: w.firestore, path, bearer: w.token("reader")).status == 200)
            #expect(try await w.feedIDs("reader").isEmpty)
        }
    }

    @Test func messagesAreNotAccessibleToClients() async throws {
        try await withShouts { w in
            let m = try await w.sent("sender", .shout, from: alexanderplatz)
            let path = w.documents + "/messages/\(m.id)"
            #expect(try await w.request("GET", port: w.firestore, path, bearer: w.token("sender")).status == 403)
            #expect(try await w.request("GET", port: w.firestore, w.documents + "/messages", bearer: w.token("sender")).status == 403)
            let write = JSONValue.object(["fields": .object(["text": ShoutsWorld.string("edited")])])
            #expect(try await w.request("PATCH", port: w.firestore, path, json: write, bearer: w.token("sender")).status == 403)
            #expect(try await w.request("DELETE", port: w.firestore, path, bearer: w.token("sender")).status == 403)
            let admin = try await w.request("GET", port: w.firestore, path, bearer: "owner")
            #expect(admin.status == 200)  // it exists; the rules alone kept the sender out
            #expect(admin.json.field("senderId")?.restString == "sender")
        }
    }

    @Test func presenceIsNotReadableByAnyClient() async throws {
        try await withShouts { w in
            try await w.heartbeat("me", at: alexanderplatz)
            let path = w.documents + "/presence/me"
            #expect(try await w.request("GET", port: w.firestore, path, bearer: w.token("me")).status == 403)
            #expect(try await w.request("GET", port: w.firestore, path, bearer: w.token("other")).status == 403)
            #expect(try await w.request("GET", port: w.firestore, w.documents + "/presence", bearer: w.token("me")).status == 403)
            #expect(try await w.request("GET", port: w.firestore, path, bearer: "owner").status == 200)
        }
    }

    @Test func heartbeatMayNotWriteLastSentAtOrFakeItsTime() async throws {
        try await withShouts { w in
            let spot = alexanderplatz
            let position: [JSONValue.Member] = [
                .init("lat", ShoutsWorld.double(spot.lat)), .init("lng", ShoutsWorld.double(spot.lng)),
                .init("geohash", ShoutsWorld.string(spot.geohash)),
            ]
            let token = w.token("me")
            let withServerLastSentAt = w.presenceWrite("me", position, serverTimeFields: ["updatedAt", "lastSentAt"])
            #expect(try await w.commit([withServerLastSentAt], bearer: token).status == 403)
            let withLastSentAt = w.presenceWrite(
                "me", position + [.init("lastSentAt", ShoutsWorld.timestamp(wallClock(offsetSeconds: -60)))],
                serverTimeFields: ["updatedAt"])
            #expect(try await w.commit([withLastSentAt], bearer: token).status == 403)
            let clientTime = w.presenceWrite(
                "me", position + [.init("updatedAt", ShoutsWorld.timestamp(wallClock(offsetSeconds: 0)))])
            #expect(try await w.commit([clientTime], bearer: token).status == 403)
            let noTime = w.presenceWrite("me", position)
            #expect(try await w.commit([noTime], bearer: token).status == 403)
            #expect(try await w.presence("me") == nil)
            let otherUser = try await w.commit([w.presenceWrite("me", position, serverTimeFields: ["updatedAt"])], bearer: w.token("you"))
            #expect(otherUser.status == 403)

            // The app's heartbeat passes; after a send (server-written lastSentAt) it still
            // does, but removing lastSentAt does not.
            try await w.heartbeat("me", at: spot)
            _ = try await w.sent("me", .whisper, from: spot)
            #expect(try await w.presence("me")?.field("lastSentAt")?["timestampValue"] != nil)
            try await w.heartbeat("me", at: spot.moved(0, 30))
            let removeLastSentAt = w.presenceWrite("me", [], mask: ["lastSentAt"])
            #expect(try await w.commit([removeLastSentAt], bearer: token).status == 403)
        }
    }

    @Test func tokenOnlySaveIsAcceptedAndLeavesUpdatedAtAlone() async throws {
        try await withShouts { w in
            // As the document's create.
            #expect(try await w.saveToken("me", ShoutsWorld.string("fcm-1")).status == 200)
            let created = try #require(try await w.presence("me"))
            #expect(created.field("fcmToken")?.restString == "fcm-1")
            #expect(created.field("updatedAt") == nil)

            try await w.heartbeat("me", at: alexanderplatz)
            let stamped = try #require(try await w.presence("me")?.field("updatedAt"))
            #expect(try await w.saveToken("me", ShoutsWorld.string("fcm-2")).status == 200)
            let afterSave = try #require(try await w.presence("me"))
            #expect(afterSave.field("fcmToken")?.restString == "fcm-2")
            #expect(afterSave.field("updatedAt") == stamped)
            #expect(try await w.saveToken("me", .object(["nullValue": .null])).status == 200)  // signing out

            // After a send wrote lastSentAt, a token save is still an allowed update.
            _ = try await w.sent("me", .whisper, from: alexanderplatz)
            #expect(try await w.saveToken("me", ShoutsWorld.string("fcm-3")).status == 200)
            // Shape validation still applies: at most 4,096 characters.
            let long = String(repeating: "t", count: 4097)
            #expect(try await w.saveToken("me", ShoutsWorld.string(long)).status == 403)
            #expect(try await w.saveToken("someoneElse", ShoutsWorld.string("x")).status == 200)
            let foreign = try await w.commit(
                [w.presenceWrite("me", [.init("fcmToken", ShoutsWorld.string("stolen"))])], bearer: w.token("someoneElse"))
            #expect(foreign.status == 403)
        }
    }

    // MARK: cleanupPresence (docs/app/shouts-and-whispers.md §4)

    @Test func cleanupPresenceRunOnDemandDeletesPresenceOlderThanThirtyDays() async throws {
        try await withShouts { w in
            let day: Int64 = 24 * 60 * 60
            try await w.ownerPresence("old", at: alexanderplatz, updatedAt: wallClock(offsetSeconds: -31 * day))
            try await w.ownerPresence("recent", at: alexanderplatz, updatedAt: wallClock(offsetSeconds: -29 * day))
            try await w.heartbeat("now", at: alexanderplatz)
            #expect(try await w.saveToken("tokenOnly", ShoutsWorld.string("fcm-t")).status == 200)
            let run = try await w.request(
                "POST", port: w.functions, "/emulator/v1/projects/\(w.project)/functions/cleanupPresence:run")
            #expect(run.status == 200, "\(run.text)")
            #expect(run.json["result"]?["deleted"]?.e2eNumber == 1)
            #expect(try await w.presence("old") == nil)
            #expect(try await w.presence("recent") != nil)
            #expect(try await w.presence("now") != nil)
            #expect(try await w.presence("tokenOnly") != nil)
        }
    }

    // MARK: hearth demo

    @Test func demoScenarioTellsTheWholeStory() async throws {
        try await withShouts { w in
            let report = try await DemoScenario(host: "127.0.0.1", ports: w.ports, project: w.project).play()
            #expect(report.surprises.isEmpty, "\(report.surprises)")
            #expect(report.members.count == DemoCast.everybody.count)
            #expect(report.feeds["grace"]?.isEmpty == true)
            #expect(report.feeds["hiro"]?.map(\.senderName) == ["Bruno Schulz"])
            #expect(report.feeds["ada"]?.map(\.isOwn) == [false, false, true])
            #expect(report.unregisteredToken?.after == "null")
            #expect(report.outbox.count == 8)
            #expect(report.text.contains("HTTP 429 RESOURCE_EXHAUSTED"))
            #expect(report.text.contains("Every expectation held"))
        }
    }
}
