/// Collection ids of the Shouts & Whispers data model (docs/app/shouts-and-whispers.md §3).
public enum ShoutsCollections {
    /// `presence/{uid}`: last known position, push token, `lastSentAt`.
    public static let presence = "presence"
    /// `messages/{messageId}`: the canonical archive.
    public static let messages = "messages"
    /// `messages/{messageId}/audience/{chunk}`: the recipients chosen at send time (see
    /// `AudienceRecord`); a Hearth addition that lets an idempotent retry finish delivery.
    public static let audience = "audience"
    /// `users/{uid}`.
    public static let users = "users"
    /// `users/{uid}/feed/{messageId}`: the per-user inbox.
    public static let feed = "feed"
}
