import DeterministicRandom
import FirestoreModel
import Testing

@testable import ShoutsBackend

@Suite("RecipientSelection.selectRecipients (docs/app/shouts-and-whispers.md §4 step 5)")
struct RecipientSelectionTests {
    typealias Candidate = RecipientSelection.PresenceCandidate

    let now = Timestamp(seconds: 1_750_000_000, nanos: 250_000_000)
    let center: GeoLocation
    let whisper = ShoutsConstants.whisperRadiusMeters

    init() throws { center = try point(37.7749, -122.4194) }

    /// Degrees of latitude per metre on geofire-common's sphere (6371 km).
    static let degreesPerMeter = 180 / (Double.pi * 6_371_000)

    /// A fresh candidate `meters` due north of `center`.
    func north(_ uid: String, _ meters: Double, updatedAt: Timestamp? = nil, token: String? = nil) -> Candidate {
        Candidate(
            uid: uid, lat: center.latitude + meters * Self.degreesPerMeter, lng: center.longitude,
            updatedAt: updatedAt ?? now, fcmToken: token)
    }

    func select(_ candidates: [Candidate], sender: String = "me", radius: Double? = nil)
        -> [RecipientSelection.Recipient]
    {
        RecipientSelection.selectRecipients(
            senderUID: sender, center: center, radiusMeters: radius ?? whisper, now: now, candidates: candidates)
    }

    @Test("the sender comes first with isOwn, distance 0 and no token; others are pushed with their tokens")
    func senderAndOthers() {
        let result = select([north("me", 40, token: "my-token"), north("ann", 100, token: "ann-token")])
        #expect(result == [
            .init(uid: "me", distanceM: 0, isOwn: true, fcmToken: nil),
            .init(uid: "ann", distanceM: 100, isOwn: false, fcmToken: "ann-token"),
        ])
    }

    @Test("the sender gets an own copy when absent from presence, stale, or far away")
    func senderAlwaysIncluded() {
        let stale = Timestamp(seconds: now.seconds - 3600, nanos: 0)
        for candidates in [[], [north("me", 10, updatedAt: stale)], [north("me", 5000)]] {
            #expect(select(candidates) == [.init(uid: "me", distanceM: 0, isOwn: true, fcmToken: nil)])
        }
    }

    @Test("exactly at the radius is in; the next representable latitude beyond it is out")
    func radiusBoundaryExact() throws {
        // Largest latitude whose computed distance is ≤ 150 m, found by bisection on doubles.
        var inside = center.latitude
        var outside = center.latitude + 0.01
        while inside.nextUp < outside {
            let mid = inside + (outside - inside) / 2
            let d = GeoDistance.between(center, try point(mid, center.longitude)) * 1000
            if d <= whisper { inside = mid } else { outside = mid }
        }
        let dInside = GeoDistance.between(center, try point(inside, center.longitude)) * 1000
        let dOutside = GeoDistance.between(center, try point(outside, center.longitude)) * 1000
        #expect(dInside <= 150 && abs(dInside - 150) < 1e-9)
        #expect(dOutside > 150 && abs(dOutside - 150) < 1e-9)

        let result = select([
            Candidate(uid: "edge", lat: inside, lng: center.longitude, updatedAt: now),
            Candidate(uid: "beyond", lat: outside, lng: center.longitude, updatedAt: now),
        ])
        #expect(result.map(\.uid) == ["me", "edge"])
        #expect(result.last?.distanceM == 150)
        // With the radius set to the edge point's computed distance, "≤" keeps it.
        let atRadius = select(
            [Candidate(uid: "edge", lat: inside, lng: center.longitude, updatedAt: now)], radius: dInside)
        #expect(atRadius.map(\.uid) == ["me", "edge"])
    }

    @Test("150.4 m is out although it would round to 150; the filter uses the unrounded distance")
    func radiusBoundaryRounded() {
        let result = select([north("a", 150.4), north("b", 149.6), north("c", 149.4), north("d", 0.4)])
        #expect(result.map(\.uid) == ["me", "b", "c", "d"])
        #expect(result.map(\.distanceM) == [0, 150, 149, 0])
    }

    @Test("shout radius 1500 m: 1499.9 in, 1500.1 out")
    func shoutRadius() {
        let result = select([north("near", 1499.9), north("far", 1500.1)], radius: ShoutsConstants.shoutRadiusMeters)
        #expect(result.map(\.uid) == ["me", "near"])
        #expect(result.last?.distanceM == 1500)
    }

    @Test("fresh means updatedAt ≥ now − 5 min: exactly 5 min old is in, 1 ms older is out")
    func freshnessBoundary() {
        let cutoff = Timestamp(seconds: now.seconds - 300, nanos: now.nanos)
        let oneMillisecondOlder = Timestamp(seconds: now.seconds - 300, nanos: now.nanos - 1_000_000)
        let future = Timestamp(seconds: now.seconds + 10, nanos: 0)
        let result = select([
            north("onTime", 10, updatedAt: cutoff), north("late", 10, updatedAt: oneMillisecondOlder),
            north("clockSkew", 10, updatedAt: future),
        ])
        #expect(result.map(\.uid) == ["me", "onTime", "clockSkew"])
    }

    @Test("the cut-off borrows a second when now's nanos are smaller than the TTL's")
    func cutoffArithmetic() {
        let t = Timestamp(seconds: 100, nanos: 500)
        #expect(RecipientSelection.subtracting(.milliseconds(1), from: t) == Timestamp(seconds: 99, nanos: 999_000_500))
        #expect(RecipientSelection.subtracting(.seconds(300), from: t) == Timestamp(seconds: -200, nanos: 500))
        #expect(RecipientSelection.subtracting(.zero, from: t) == t)
        #expect(RecipientSelection.subtracting(.nanoseconds(-600), from: t) == Timestamp(seconds: 100, nanos: 1100))
    }

    @Test("a custom TTL replaces the 5-minute default")
    func customTTL() {
        let tenSecondsOld = Timestamp(seconds: now.seconds - 10, nanos: now.nanos)
        let result = RecipientSelection.selectRecipients(
            senderUID: "me", center: center, radiusMeters: whisper, now: now,
            candidates: [north("a", 10, updatedAt: tenSecondsOld)], presenceTTL: .seconds(5))
        #expect(result.map(\.uid) == ["me"])
    }

    @Test("a user returned by several bounds is delivered once, in first-appearance order")
    func deduplication() {
        let result = select([north("b", 20), north("a", 30), north("b", 20), north("me", 1), north("a", 30)])
        #expect(result.map(\.uid) == ["me", "b", "a"])
    }

    @Test("duplicates with different positions: the latest heartbeat decides, the first on a tie")
    func duplicatesLatestWins() {
        let older = Timestamp(seconds: now.seconds - 60, nanos: 0)
        // Newer position is out of range: not delivered although an older one was in range.
        #expect(select([north("a", 50, updatedAt: older), north("a", 900)]).map(\.uid) == ["me"])
        // Newer position is in range: delivered, with the newer distance and token.
        let oldest = Timestamp(seconds: now.seconds - 120, nanos: 0)
        let moved = select([
            north("a", 900, updatedAt: older), north("a", 50, updatedAt: oldest), north("a", 60, token: "t2"),
        ])
        #expect(moved.last == .init(uid: "a", distanceM: 60, isOwn: false, fcmToken: "t2"))
        // Same updatedAt: the first listed stands.
        #expect(select([north("a", 70), north("a", 80)]).last?.distanceM == 70)
    }

    @Test("candidates with invalid coordinates are skipped, never trapped on")
    func invalidCoordinates() {
        let bad = [
            Candidate(uid: "nan", lat: .nan, lng: center.longitude, updatedAt: now),
            Candidate(uid: "lat", lat: 91, lng: center.longitude, updatedAt: now),
            Candidate(uid: "lng", lat: center.latitude, lng: -180.5, updatedAt: now),
            Candidate(uid: "inf", lat: center.latitude, lng: .infinity, updatedAt: now),
        ]
        #expect(select(bad + [north("ok", 10)]).map(\.uid) == ["me", "ok"])
    }

    @Test("antimeridian: neighbours at lng 179.9995 and −179.9995 find each other via bounds and distance")
    func antimeridian() throws {
        let east = try point(0, 179.9995)
        let westPresence = Candidate(uid: "west", lat: 0, lng: -179.9995, updatedAt: now, fcmToken: "w")
        let stored = Geohash.forLocation(
            try point(westPresence.lat, westPresence.lng), precision: ShoutsConstants.presenceGeohashPrecision)
        let bounds = Geohash.queryBounds(center: east, radiusMeters: whisper)
        // What one presence query per bound would return, duplicates included.
        let fetched = bounds.filter { $0.contains(stored) }.map { _ in westPresence }
        #expect(!fetched.isEmpty)
        let result = RecipientSelection.selectRecipients(
            senderUID: "east", center: east, radiusMeters: whisper, now: now, candidates: fetched)
        #expect(result == [
            .init(uid: "east", distanceM: 0, isOwn: true, fcmToken: nil),
            .init(uid: "west", distanceM: 111, isOwn: false, fcmToken: "w"),
        ])
    }

    @Test("end to end over a simulated presence collection: bounds, range queries, post-filter")
    func simulatedQueries() throws {
        var rng = SplitMix64(seed: 42)
        var presence: [(hash: String, candidate: Candidate)] = []
        for i in 0..<400 {
            let c = Candidate(
                uid: "u\(i)", lat: center.latitude + Double.random(in: -0.03...0.03, using: &rng),
                lng: center.longitude + Double.random(in: -0.03...0.03, using: &rng),
                updatedAt: Timestamp(seconds: now.seconds - Int64.random(in: 0...600, using: &rng), nanos: 0))
            presence.append((Geohash.forLocation(try point(c.lat, c.lng), precision: 9), c))
        }
        for radius in [ShoutsConstants.whisperRadiusMeters, ShoutsConstants.shoutRadiusMeters] {
            let bounds = Geohash.queryBounds(center: center, radiusMeters: radius)
            let fetched = bounds.flatMap { range in presence.filter { range.contains($0.hash) }.map(\.candidate) }
            let selected = Set(select(fetched, radius: radius).dropFirst().map(\.uid))
            // Brute force over the whole collection must agree: the bounds lost no one.
            var expected: Set<String> = []
            for c in presence.map(\.candidate) where c.updatedAt.seconds >= now.seconds - 300 {
                if GeoDistance.between(center, try point(c.lat, c.lng)) * 1000 <= radius { expected.insert(c.uid) }
            }
            #expect(selected == expected)
            #expect(radius < 1000 || expected.count > 10)
        }
    }

    @Test("distanceM rounds like JavaScript Math.round: halves toward +∞, exactly", arguments: [
        (0.0, 0), (0.4, 0), (0.5, 1), (149.5, 150), (150.49999999999997, 150), (2.5, 3), (-2.5, -2),
        (-0.5, 0), (-0.6, -1), (0.49999999999999994, 0), (4_503_599_627_370_495.5, 4_503_599_627_370_496),
    ])
    func roundHalfUp(value: Double, expected: Int) {
        #expect(RecipientSelection.roundHalfUp(value) == expected)
    }

    @Test("dropping the candidates `recipient` refuses changes nothing when each user comes once per version")
    func prefilterKeepsTheSelection() {
        var rng = SplitMix64(seed: 0x9E1EC7)
        let freshSince = RecipientSelection.subtracting(ShoutsConstants.presenceTTL, from: now)
        for _ in 0..<50 {
            // One version per user, listed once or twice (a document in two geohash bounds).
            var candidates: [Candidate] = []
            for i in 0..<60 {
                let age = Int64(rng.next() % 420)
                var c = north("u\(i)", Double(rng.next() % 300), updatedAt: Timestamp(seconds: now.seconds - age, nanos: now.nanos))
                if rng.next() % 10 == 0 { c.lat = .nan }
                candidates.append(c)
                if rng.next() % 4 == 0 { candidates.append(c) }
            }
            candidates.append(north("me", 10))
            let kept = candidates.filter {
                RecipientSelection.recipient($0, center: center, radiusMeters: whisper, freshSince: freshSince) != nil
            }
            #expect(select(kept) == select(candidates))
            #expect(select(kept).count > 1)
        }
    }
}
