import FirestoreModel
import Functions

/// A `messages/{messageId}` document (docs/app/shouts-and-whispers.md §3) as written by `sendMessage` and read back
/// for fan-out; the feed copies are built from it so every copy carries the stored `sentAt`.
struct StoredMessage: Sendable, Hashable {
    /// The document id: the message id.
    var id: String
    /// Field `senderId`.
    var senderID: String
    /// Field `senderName` (null when the token had no `name`).
    var senderName: String?
    /// Field `senderPhotoUrl` (null when the token had no `picture`).
    var senderPhotoURL: String?
    /// Field `text`.
    var text: String
    /// Field `kind`.
    var kind: MessageKind
    /// Field `lat` as stored (int or double).
    var lat: Value
    /// Field `lng` as stored (int or double).
    var lng: Value
    /// Field `geohash` (9 characters).
    var geohash: String
    /// Field `sentAt`: the commit time of the message.
    var sentAt: Timestamp
    /// Field `recipientCount`: recipients other than the sender.
    var recipientCount: Int

    /// The fields of a new message; `sentAt` is the commit time (server timestamp).
    static func newFields(
        input: SendMessageInput, sender: CallableAuth, geohash: String, recipientCount: Int
    ) -> [String: FieldValue] {
        [
            "senderId": .string(sender.uid),
            "senderName": .optionalString(sender.name),
            "senderPhotoUrl": .optionalString(sender.picture),
            "text": .string(input.text),
            "kind": .string(input.kind.rawValue),
            "lat": .value(jsNumber(input.location.latitude)),
            "lng": .value(jsNumber(input.location.longitude)),
            "geohash": .string(geohash),
            "sentAt": .serverTimestamp,
            "recipientCount": .integer(Int64(recipientCount)),
        ]
    }

    /// Reads a stored message.
    /// - Throws: `.internalError` when a field is missing or has the wrong type.
    init(snapshot: DocumentSnapshot) throws(FirestoreError) {
        guard let f = snapshot.data, case .string(let sender)? = f["senderId"], case .string(let text)? = f["text"],
            case .string(let kindName)? = f["kind"], let kind = MessageKind(rawValue: kindName),
            let lat = f["lat"], lat.isNumber, let lng = f["lng"], lng.isNumber,
            case .string(let geohash)? = f["geohash"], case .timestamp(let sentAt)? = f["sentAt"],
            case .integer(let count)? = f["recipientCount"]
        else { throw .internalError("messages/\(snapshot.documentID) is malformed.") }
        id = snapshot.documentID
        senderID = sender
        if case .string(let n)? = f["senderName"] { senderName = n }
        if case .string(let p)? = f["senderPhotoUrl"] { senderPhotoURL = p }
        self.text = text
        self.kind = kind
        self.lat = lat
        self.lng = lng
        self.geohash = geohash
        self.sentAt = sentAt
        recipientCount = Int(count)
    }

    /// The `users/{uid}/feed/{messageId}` document for `recipient` (docs/app/shouts-and-whispers.md §3 feed table).
    func feedFields(for recipient: RecipientSelection.Recipient) -> [String: FieldValue] {
        [
            "messageId": .string(id),
            "senderId": .string(senderID),
            "senderName": .optionalString(senderName),
            "senderPhotoUrl": .optionalString(senderPhotoURL),
            "text": .string(text),
            "kind": .string(kind.rawValue),
            "lat": .value(lat),
            "lng": .value(lng),
            "sentAt": .timestamp(sentAt),
            "distanceM": .integer(Int64(recipient.distanceM)),
            "isOwn": .bool(recipient.isOwn),
        ]
    }
}

/// A JavaScript number as the Node Admin SDK stores it: safe integers (including `37.0`) as
/// `integerValue`, everything else as `doubleValue`. Source: docs/reference/firestore-wire.md §1.7 ("Integer vs
/// double on the wire").
func jsNumber(_ d: Double) -> Value {
    if d == d.rounded(.towardZero), abs(d) <= 9_007_199_254_740_991 { return .integer(Int64(d)) }
    return .double(d)
}
