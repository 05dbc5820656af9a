/// The product constants of Shouts & Whispers, in one place.
///
/// Names carry their units; times are `Duration`s. Each entry names the app design's constant it
/// stands for. Source: docs/app/shouts-and-whispers.md §10 (table), §3 (geohash length), §4 (batch and push
/// chunk sizes, cooldown), §4 "cleanupPresence" (cleanup age).
public enum ShoutsConstants {
    /// Whisper radius, 150 metres (`WHISPER_RADIUS_M`, docs/app/shouts-and-whispers.md §1 rule 3, §10).
    public static let whisperRadiusMeters: Double = 150

    /// Shout radius, 1,500 metres (`SHOUT_RADIUS_M`, docs/app/shouts-and-whispers.md §1 rule 3, §10).
    public static let shoutRadiusMeters: Double = 1500

    /// How long a presence heartbeat counts as "known to be near": 5 minutes
    /// (`PRESENCE_TTL`, docs/app/shouts-and-whispers.md §1 rule 2, §10). A candidate is fresh when
    /// `updatedAt ≥ now − presenceTTL`.
    public static let presenceTTL: Duration = .seconds(5 * 60)

    /// Longest message text, 500 characters after trimming (`MAX_TEXT_LEN`, docs/app/shouts-and-whispers.md §4 step 2,
    /// §10). The app's design does not say which unit a "char" is; the reference functions are TypeScript,
    /// whose `String.length` counts UTF-16 code units (inferred).
    public static let maxTextLength = 500

    /// Minimum time between two sends by one user: 5 seconds (`SEND_COOLDOWN`, docs/app/shouts-and-whispers.md §4 step 3,
    /// §8, §10).
    public static let sendCooldown: Duration = .seconds(5)

    /// Length of the geohash stored in `presence/{uid}.geohash`: 9 characters (docs/app/shouts-and-whispers.md §3).
    public static let presenceGeohashPrecision = 9

    /// Most writes in one feed fan-out batch: 450 (docs/app/shouts-and-whispers.md §4 step 6).
    public static let feedBatchMaxWrites = 450

    /// Most tokens in one FCM `sendEachForMulticast` call: 500 (docs/app/shouts-and-whispers.md §4 step 7; the Admin SDK
    /// limit, docs/reference/firestore-wire.md §6).
    public static let fcmMulticastMaxTokens = 500

    /// Age after which `cleanupPresence` deletes a presence document: 30 days, measured on
    /// `updatedAt` (docs/app/shouts-and-whispers.md §4 "cleanupPresence").
    public static let presenceCleanupAge: Duration = .seconds(30 * 24 * 60 * 60)
}
