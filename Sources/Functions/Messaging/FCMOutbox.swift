import FirestoreModel
import Synchronization

/// One push "delivered" by the in-process FCM stand-in.
public struct OutboxMessage: Sendable, Hashable {
    /// `projects/{project}/messages/{id}`, the name FCM would return.
    public var messageID: String
    /// The registration token addressed.
    public var token: String
    /// Title and body, if the message had a notification.
    public var notification: PushNotification?
    /// The data payload (FCM data values are strings).
    public var data: [String: String]
    /// When it was sent, from the host's clock.
    public var sentAt: Timestamp

    /// Creates a record.
    public init(
        messageID: String, token: String, notification: PushNotification?, data: [String: String], sentAt: Timestamp
    ) {
        self.messageID = messageID
        self.token = token
        self.notification = notification
        self.data = data
        self.sentAt = sentAt
    }
}

/// Every push accepted by `Messaging`, oldest first — what tests and the emulator endpoint
/// `GET /emulator/v1/projects/{p}/fcm/outbox` read, since FCM has no emulator (docs/reference/firestore-wire.md §6).
///
/// Thread-safe. Keeps at most `capacity` messages, dropping the oldest beyond that.
public final class FCMOutbox: Sendable {
    /// Most messages kept.
    public let capacity: Int
    private let state = Mutex<[OutboxMessage]>([])

    /// Creates an empty outbox.
    /// - Parameter capacity: most messages kept (default 10,000).
    public init(capacity: Int = 10_000) { self.capacity = max(1, capacity) }

    /// Appends messages, dropping the oldest beyond `capacity`.
    public func append(_ messages: [OutboxMessage]) {
        state.withLock { list in
            list.append(contentsOf: messages)
            if list.count > capacity { list.removeFirst(list.count - capacity) }
        }
    }

    /// Every recorded message, oldest first.
    public var messages: [OutboxMessage] { state.withLock { $0 } }

    /// Forgets every message.
    public func clear() { state.withLock { $0.removeAll() } }
}
