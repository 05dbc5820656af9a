import FirestoreModel

/// The audience of one message: the pure post-filter of `sendMessage` (docs/app/shouts-and-whispers.md §4 step 5).
///
/// The caller runs one presence query per `Geohash.queryBounds(center:radiusMeters:)` range
/// and hands every document it got, duplicates and false positives included, to
/// `selectRecipients`. Source: docs/app/shouts-and-whispers.md §1 rules 1, 2, 5; §4 step 5; §8 (distance rounded
/// to metres).
public enum RecipientSelection {
    /// One `presence/{uid}` document as read at send time (docs/app/shouts-and-whispers.md §3), not yet validated.
    public struct PresenceCandidate: Sendable, Hashable {
        /// The user id: the presence document's id.
        public var uid: String
        /// Field `lat`, degrees; a candidate outside −90…90 (or NaN) is never selected.
        public var lat: Double
        /// Field `lng`, degrees; a candidate outside −180…180 (or NaN) is never selected.
        public var lng: Double
        /// Field `updatedAt`: when the device last reported this position.
        public var updatedAt: Timestamp
        /// Field `fcmToken`: the device's push token, if it saved one.
        public var fcmToken: String?

        /// Creates a candidate from presence fields.
        public init(uid: String, lat: Double, lng: Double, updatedAt: Timestamp, fcmToken: String? = nil) {
            self.uid = uid
            self.lat = lat
            self.lng = lng
            self.updatedAt = updatedAt
            self.fcmToken = fcmToken
        }
    }

    /// One user who receives a feed copy (`users/{uid}/feed/{messageId}`, docs/app/shouts-and-whispers.md §3).
    public struct Recipient: Sendable, Hashable {
        /// The recipient's user id.
        public var uid: String
        /// Feed field `distanceM`: haversine distance from the send centre in whole metres,
        /// rounded half up (JavaScript `Math.round`); 0 on the sender's own copy.
        public var distanceM: Int
        /// Feed field `isOwn`: true only on the sender's own copy.
        public var isOwn: Bool
        /// Where to push (docs/app/shouts-and-whispers.md §4 step 7); always nil on the sender's copy, which is never pushed.
        public var fcmToken: String?

        /// Creates a recipient.
        public init(uid: String, distanceM: Int, isOwn: Bool, fcmToken: String?) {
            self.uid = uid
            self.distanceM = distanceM
            self.isOwn = isOwn
            self.fcmToken = fcmToken
        }
    }

    /// The recipients of a message sent by `senderUID` from `center` at `now`.
    ///
    /// Rules, in order:
    /// 1. The sender always comes first: `isOwn` true, `distanceM` 0, no token — whether or not
    ///    they are among the candidates and however stale their presence (docs/app/shouts-and-whispers.md §1 rule 5).
    /// 2. Other candidates are grouped by `uid` (one user may come back from several ranges, or
    ///    twice with different positions when a heartbeat lands between two queries); the one
    ///    with the latest `updatedAt` stands for the user, the earliest listed on a tie.
    /// 3. That candidate is selected when its coordinates are valid, `updatedAt ≥ now −
    ///    presenceTTL` (so exactly `presenceTTL` old is still fresh), and its unrounded
    ///    haversine distance `GeoDistance.between × 1000 ≤ radiusMeters` metres.
    /// 4. Selected users keep the order of their first appearance in `candidates`.
    ///
    /// Complexity O(n) in the number of candidates.
    /// - Parameters:
    ///   - senderUID: the authenticated sender.
    ///   - center: where the message was sent from.
    ///   - radiusMeters: the message radius in metres (`ShoutsConstants.whisperRadiusMeters` or
    ///     `.shoutRadiusMeters`).
    ///   - now: the send time.
    ///   - candidates: presence documents returned by the bound queries, in query order.
    ///   - presenceTTL: how old a heartbeat may be; `ShoutsConstants.presenceTTL` by default.
    /// - Returns: the sender's own copy followed by the other recipients; `count − 1` is the
    ///   `recipientCount` of the response.
    /// - Precondition: `radiusMeters` is not NaN.
    public static func selectRecipients(
        senderUID: String,
        center: GeoLocation,
        radiusMeters: Double,
        now: Timestamp,
        candidates: [PresenceCandidate],
        presenceTTL: Duration = ShoutsConstants.presenceTTL
    ) -> [Recipient] {
        precondition(!radiusMeters.isNaN, "radius must be a number")
        let freshSince = subtracting(presenceTTL, from: now)

        var order: [String] = []
        var latest: [String: PresenceCandidate] = [:]
        for candidate in candidates where candidate.uid != senderUID {
            if let seen = latest[candidate.uid] {
                if candidate.updatedAt > seen.updatedAt { latest[candidate.uid] = candidate }
            } else {
                order.append(candidate.uid)
                latest[candidate.uid] = candidate
            }
        }

        var recipients = [Recipient(uid: senderUID, distanceM: 0, isOwn: true, fcmToken: nil)]
        for uid in order {
            guard let candidate = latest[uid],
                let recipient = recipient(candidate, center: center, radiusMeters: radiusMeters, freshSince: freshSince)
            else { continue }
            recipients.append(recipient)
        }
        return recipients
    }

    /// Rule 3 of `selectRecipients` for one candidate: its recipient when its coordinates are
    /// valid, `updatedAt ≥ freshSince` and its unrounded distance is at most `radiusMeters`;
    /// nil otherwise. Depends on nothing but the candidate, so a reader may drop the
    /// candidates it refuses before `selectRecipients` (when each user has one candidate,
    /// as in a read at one moment, the selection is the same).
    public static func recipient(
        _ candidate: PresenceCandidate, center: GeoLocation, radiusMeters: Double, freshSince: Timestamp
    ) -> Recipient? {
        guard candidate.updatedAt >= freshSince,
            let location = try? GeoLocation(latitude: candidate.lat, longitude: candidate.lng)
        else { return nil }
        let distanceMeters = GeoDistance.between(center, location) * 1000
        guard distanceMeters <= radiusMeters else { return nil }
        return Recipient(
            uid: candidate.uid, distanceM: roundHalfUp(distanceMeters), isOwn: false, fcmToken: candidate.fcmToken)
    }

    /// JavaScript `Math.round`: the nearest integer, halves toward +∞ (2.5 → 3, −2.5 → −2),
    /// exact for every finite double (no `x + 0.5` rounding error).
    /// - Precondition: `value` is finite and fits in `Int`.
    static func roundHalfUp(_ value: Double) -> Int {
        let floor = value.rounded(.down)
        return Int(value - floor >= 0.5 ? floor + 1 : floor)
    }

    /// `time − duration`, normalised so that nanos stay in 0…999,999,999 (e.g. 10 minutes
    /// before `2026-01-01T00:00:00.5Z` is `2025-12-31T23:50:00.5Z`). Sub-nanosecond parts of
    /// `duration` are dropped.
    public static func subtracting(_ duration: Duration, from time: Timestamp) -> Timestamp {
        let (seconds, attoseconds) = duration.components
        let totalNanos = Int64(time.nanos) - attoseconds / 1_000_000_000
        var resultSeconds = time.seconds - seconds + totalNanos / 1_000_000_000
        var resultNanos = totalNanos % 1_000_000_000
        if resultNanos < 0 {
            resultNanos += 1_000_000_000
            resultSeconds -= 1
        }
        return Timestamp(seconds: resultSeconds, nanos: Int32(resultNanos))
    }
}
