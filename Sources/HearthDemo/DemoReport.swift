import ShoutsBackend

/// What `hearth demo` observed, as data (for tests) and as text (for people).
///
/// Everything here was read back over public interfaces: `sendMessage` answers, each user's
/// feed read with their own ID token, the FCM outbox endpoint, presence read with
/// `Bearer owner`. `surprises` lists every way the run differed from the product contract
/// of docs/app/shouts-and-whispers.md §1 and §4; the command exits non-zero when it is not empty.
public struct DemoReport: Sendable {
    /// The project served.
    public var project: String
    /// Where the emulators listened.
    public var ports: DemoPorts
    /// Who signed in, with their Auth account ids, in cast order.
    public var members: [Member] = []
    /// What happened, in order.
    public var events: [Event] = []
    /// Each user's feed (keyed by `DemoPerson.key`), newest first.
    public var feeds: [String: [FeedEntry]] = [:]
    /// The FCM outbox, oldest first.
    public var outbox: [Push] = []
    /// The unregistered token's story.
    public var unregisteredToken: TokenCleanup?
    /// Differences from the expected story; empty on a correct Hearth.
    public var surprises: [String] = []

    /// A signed-in user.
    public struct Member: Sendable {
        /// The person.
        public var person: DemoPerson
        /// Their Auth account id (`localId`, random).
        public var uid: String
    }

    /// One step of the story.
    public enum Event: Sendable {
        /// These people's phones wrote a heartbeat and saved their token.
        case arrived([DemoPerson])
        /// A `sendMessage` call and its answer.
        case sent(Send)
    }

    /// One `sendMessage` call.
    public struct Send: Sendable {
        /// Who sent it.
        public var sender: DemoPerson
        /// Whisper or shout.
        public var kind: MessageKind
        /// The text.
        public var text: String
        /// HTTP status of the answer.
        public var httpStatus: Int
        /// `result.messageId` on success.
        public var messageID: String?
        /// `result.recipientCount` on success (the sender excluded).
        public var recipientCount: Int?
        /// `error.status` on failure (`RESOURCE_EXHAUSTED`).
        public var errorStatus: String?
        /// `error.message` on failure.
        public var errorMessage: String?
    }

    /// One `users/{uid}/feed/{messageId}` document.
    public struct FeedEntry: Sendable, Hashable {
        /// Field `messageId`.
        public var messageID: String
        /// Field `senderName`.
        public var senderName: String?
        /// Field `kind`.
        public var kind: String
        /// Field `text`.
        public var text: String
        /// Field `distanceM`, metres.
        public var distanceM: Int
        /// Field `isOwn`.
        public var isOwn: Bool
    }

    /// One push in the FCM outbox.
    public struct Push: Sendable, Hashable {
        /// The registration token addressed.
        public var token: String
        /// Notification title.
        public var title: String
        /// Notification body.
        public var body: String
        /// `data.messageId`.
        public var messageID: String
    }

    /// The unregistered token, before and after the message that reached its owner.
    public struct TokenCleanup: Sendable {
        /// Its owner.
        public var person: DemoPerson
        /// `presence/{uid}.fcmToken` before (nil: missing or not a string).
        public var before: String?
        /// `presence/{uid}.fcmToken` after, as the report prints it (`null`, `missing`, `"…"`).
        public var after: String
    }

    /// The person with Auth account `uid`.
    func person(uid: String) -> DemoPerson? { members.first { $0.uid == uid }?.person }

    /// Who received `messageID` (own copies excluded), in cast order, with their `distanceM`.
    public func recipients(of messageID: String) -> [(person: DemoPerson, distanceM: Int)] {
        members.compactMap { m in
            guard let entry = feeds[m.person.key]?.first(where: { $0.messageID == messageID && !$0.isOwn }) else {
                return nil
            }
            return (m.person, entry.distanceM)
        }
    }
}
