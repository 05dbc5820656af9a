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

/// A push FCM refused: the token and why (`messaging/registration-token-not-registered` for a
/// token the app must forget, `messaging/invalid-argument` for a malformed one).
public struct OutboxRejection: Sendable, Hashable {
    /// The registration token addressed.
    public var token: String
    /// The Admin SDK's error code, `messaging/…`.
    public var code: String
    /// When it was refused, from the host's clock.
    public var at: Timestamp

    /// Creates a record.
    public init(token: String, code: String, at: Timestamp) {
        self.token = token
        self.code = code
        self.at = at
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
    private let refused = Mutex<[OutboxRejection]>([])

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

    /// Records pushes FCM refused, dropping the oldest beyond `capacity`.
    public func reject(_ rejections: [OutboxRejection]) {
        guard !rejections.isEmpty else { return }
        refused.withLock { list in
            list.append(contentsOf: rejections)
            if list.count > capacity { list.removeFirst(list.count - capacity) }
        }
    }

    /// Every refused push, oldest first: the tokens the app was told to forget.
    public var rejections: [OutboxRejection] { refused.withLock { $0 } }

    /// Forgets every message and every rejection.
    public func clear() {
        state.withLock { $0.removeAll() }
        refused.withLock { $0.removeAll() }
    }
}
