/// The user-visible part of a push (FCM `notification`): title and body text.
/// Source: docs/reference/firestore-wire.md §6 (FCM HTTP v1 `message.notification`).
public struct PushNotification: Sendable, Hashable {
    /// Title line, e.g. `Shout from Ann`.
    public var title: String?
    /// Body text.
    public var body: String?
    /// Optional image URL.
    public var imageURL: String?

    /// Creates a notification.
    public init(title: String? = nil, body: String? = nil, imageURL: String? = nil) {
        self.title = title
        self.body = body
        self.imageURL = imageURL
    }
}
