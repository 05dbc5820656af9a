/// Collection ids of the Shouts & Whispers data model (DESIGN §3).
enum ShoutsCollections {
    /// `presence/{uid}`: last known position, push token, `lastSentAt`.
    static let presence = "presence"
    /// `messages/{messageId}`: the canonical archive.
    static let messages = "messages"
    /// `messages/{messageId}/audience/{chunk}`: the recipients chosen at send time (see
    /// `AudienceRecord`); a Hearth addition that lets an idempotent retry finish delivery.
    static let audience = "audience"
    /// `users/{uid}`.
    static let users = "users"
    /// `users/{uid}/feed/{messageId}`: the per-user inbox.
    static let feed = "feed"
}
