import FirestoreModel
import Functions

/// The `sendMessage` callable: docs/app/shouts-and-whispers.md §4 steps 1–7 with the constants of §10.
///
/// 1. Auth required (UNAUTHENTICATED); sender name/photo only from the token's `name` and
///    `picture` claims (null when absent).
/// 2. Validation: `SendMessageInput` (INVALID_ARGUMENT).
/// 3–5 and the message, in one exclusive transaction (nothing commits between its reads and
///    its writes): read `presence/{sender}`, reject when
///    `lastSentAt` is less than 5 s ago in milliseconds (RESOURCE_EXHAUSTED); read the answer of
///    one `orderBy(geohash).startAt(start).endAt(end)` query on `presence` per geofire bound in
///    one range read that keeps only fresh documents (`updatedAt ≥ now − PRESENCE_TTL`; they
///    see presence before this send's refresh; the sender is no candidate anyway), post-filter with
///    `RecipientSelection.selectRecipients`; then commit together the presence refresh (merge
///    of `lat`, `lng`, 9-char `geohash`, `updatedAt` and `lastSentAt` as server timestamps —
///    `fcmToken` untouched), the `messages/{id}` document and its `AudienceRecord`. Because the
///    rate-limit stamp and the message land atomically, a send is never rate-limited by an
///    earlier attempt that did not record its message.
/// 6. Fan-out: one `users/{uid}/feed/{id}` per recipient (sender first, `isOwn`,
///    `distanceM` 0), in batches of ≤ 450 writes, all carrying the stored `sentAt`; the
///    batches are stored together, with one fsync (`AdminClient.commit(_:)`).
/// 7. Push: `sendEachForMulticast` to the other recipients' tokens in chunks of ≤ 500, title
///    `Shout from {name}` / `Whisper from {name}` (`New shout nearby` without a name), body the
///    text, data `{messageId, kind}`; best effort (failures are reported, never returned).
///    Tokens answered `registration-token-not-registered` are set to null in their presence
///    document if it still holds that token.
///
/// Idempotency: with `idempotencyKey` the message id is `MessageID.derived(senderUID:…)`. If
/// `messages/{id}` already exists (a retry), no rate limit applies and nothing is re-pushed:
/// the feed copies missing for the stored audience are written and the stored
/// `{messageId, recipientCount}` is returned. A key reused for different content returns the
/// original message.
///
/// Response: `{messageId: string, recipientCount: int}`, the count excluding the sender.
/// Storage failures answer INTERNAL ("INTERNAL") and are reported to the host's error sink.
struct SendMessage: Sendable {
    /// Admin client, Messaging, clock, error sink.
    let services: ShoutsServices

    /// Shorthand for `services.admin`.
    var admin: AdminClient { services.admin }

    /// What the recording transaction found or did.
    enum Recorded {
        /// The message was recorded now, for these recipients (sender first).
        case created([RecipientSelection.Recipient])
        /// The message already existed (idempotent retry).
        case existing
    }

    /// Handles one call.
    /// - Throws: UNAUTHENTICATED (no token, or a uid unusable as a document id),
    ///   INVALID_ARGUMENT, RESOURCE_EXHAUSTED, ALREADY_EXISTS (an idempotent id held by another
    ///   sender), INTERNAL.
    func handle(_ request: CallableRequest) throws(CallableError) -> CallableValue {
        guard let sender = request.auth else {
            throw .unauthenticated("You must be signed in to send a message.")
        }
        guard (try? ResourcePath([sender.uid]).validateIDs()) != nil, !sender.uid.isEmpty else {
            throw .unauthenticated("The token's uid cannot name a document.")
        }
        let input = try SendMessageInput(data: request.data)
        let messageID = input.idempotencyKey.map {
            MessageID.derived(senderUID: sender.uid, idempotencyKey: $0)
        } ?? MessageID.random()
        let messageRef = admin.collection(ShoutsCollections.messages).document(messageID)
        do {
            let recorded = try record(input, sender: sender, messageRef: messageRef)
            let message = try StoredMessage(snapshot: try messageRef.get())
            switch recorded {
            case .created(let recipients):
                try deliver(message, to: recipients, onlyMissing: false)
                push(message, to: recipients)
                FunctionsLogger.info(
                    "\(input.kind) \(messageID) delivered to \(recipients.count - 1) recipient(s) within "
                        + "\(Int(input.kind.radiusMeters)) m, plus the sender's own copy")
            case .existing:
                guard message.senderID == sender.uid else {
                    throw CallableError(.alreadyExists, "This idempotencyKey belongs to another message.")
                }
                let recipients = try AudienceRecord.load(messageID: messageID, senderUID: sender.uid, admin: admin)
                try deliver(message, to: recipients, onlyMissing: true)
                FunctionsLogger.info("retry of \(messageID) (same idempotencyKey): missing feed copies delivered")
            }
            return ["messageId": .string(messageID), "recipientCount": .int(Int64(message.recipientCount))]
        } catch let error as CallableError {
            throw error
        } catch {
            services.report(ShoutsBackend.sendMessageName, error)
            throw .internalError
        }
    }

    /// Steps 3–5 and the message write, atomically (see the type's documentation).
    /// - Throws: `CallableError` (rate limit); `FirestoreError` from storage.
    func record(_ input: SendMessageInput, sender: CallableAuth, messageRef: DocumentReference) throws -> Recorded {
        let presenceRef = admin.collection(ShoutsCollections.presence).document(sender.uid)
        return try admin.runExclusiveTransaction { tx throws -> Recorded in
            if input.idempotencyKey != nil, try tx.get(messageRef).exists { return .existing }
            let presence = try tx.get(presenceRef)
            let now = services.clock()
            if case .timestamp(let lastSentAt)? = presence.get("lastSentAt"),
                Self.withinCooldown(lastSentAt: lastSentAt, now: now)
            {
                throw CallableError.resourceExhausted("You are sending too fast; wait a few seconds and try again.")
            }
            let recipients = RecipientSelection.selectRecipients(
                senderUID: sender.uid, center: input.location, radiusMeters: input.kind.radiusMeters, now: now,
                candidates: try audienceCandidates(
                    around: input.location, radiusMeters: input.kind.radiusMeters, now: now, in: tx))
            let geohash = Geohash.forLocation(input.location, precision: ShoutsConstants.presenceGeohashPrecision)
            tx.set(
                presenceRef,
                [
                    "lat": .value(jsNumber(input.location.latitude)), "lng": .value(jsNumber(input.location.longitude)),
                    "geohash": .string(geohash), "updatedAt": .serverTimestamp, "lastSentAt": .serverTimestamp,
                ], merge: true)
            tx.create(
                messageRef,
                StoredMessage.newFields(
                    input: input, sender: sender, geohash: geohash, recipientCount: recipients.count - 1))
            for chunk in AudienceRecord.chunks(recipients) {
                tx.create(messageRef.collection(ShoutsCollections.audience).document(chunk.id), chunk.fields)
            }
            return .created(recipients)
        }
    }

    /// Step 3: true when `now − lastSentAt < SEND_COOLDOWN`, compared in whole milliseconds
    /// as the TypeScript original does (`Date.now() − lastSentAt.toMillis()`; inferred). The
    /// millisecond floor also absorbs the microseconds by which a commit time may run ahead
    /// of the clock reading taken before it.
    static func withinCooldown(lastSentAt: Timestamp, now: Timestamp) -> Bool {
        func millis(_ t: Timestamp) -> Int64 { t.seconds * 1000 + Int64(t.nanos / 1_000_000) }
        let (seconds, attoseconds) = ShoutsConstants.sendCooldown.components
        let cooldownMillis = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return millis(now) - millis(lastSentAt) < cooldownMillis
    }

    /// Step 5's queries in one range read: the presence documents in any geohash bound of the
    /// circle, in query order (a document in two bounds twice), keeping only those
    /// `RecipientSelection.recipient` would select — the others cannot change the selection,
    /// since the read sees one version of each document.
    func audienceCandidates(around center: GeoLocation, radiusMeters: Double, now: Timestamp, in tx: ExclusiveTransaction)
        throws(FirestoreError) -> [RecipientSelection.PresenceCandidate]
    {
        let freshSince = RecipientSelection.subtracting(ShoutsConstants.presenceTTL, from: now)
        let bounds = Geohash.queryBounds(center: center, radiusMeters: radiusMeters)
        return try tx.getRanges(
            admin.collection(ShoutsCollections.presence), orderedBy: "geohash",
            ranges: bounds.map { (Value.string($0.start), Value.string($0.end)) },
            filter: .field(FieldPath(["updatedAt"]), .greaterThanOrEqual, .timestamp(freshSince)),
            select: RecipientSelection.PresenceCandidate.fields
        ) { (documentID, values) -> RecipientSelection.PresenceCandidate? in
            guard let candidate = RecipientSelection.PresenceCandidate(documentID: documentID, values: values),
                RecipientSelection.recipient(candidate, center: center, radiusMeters: radiusMeters, freshSince: freshSince) != nil
            else { return nil }
            return candidate
        }
    }
}
