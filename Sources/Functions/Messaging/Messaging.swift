import FirestoreModel
import Synchronization

/// The in-process stand-in for the Admin SDK's `messaging()`: accepts pushes, records them in
/// an `FCMOutbox`, and answers per token as FCM would.
///
/// Emulator conventions for failures (FCM has no emulator, docs/reference/firestore-wire.md §6): a token beginning
/// with `unregistered-` fails with `messaging/registration-token-not-registered` (FCM
/// `UNREGISTERED`, HTTP 404); an empty token or one beginning with `invalid-` fails with
/// `messaging/invalid-argument` (HTTP 400). Every other token succeeds and is recorded.
public final class Messaging: Sendable {
    /// The project messages are sent from (appears in message names).
    public let project: String
    /// Where accepted messages go.
    public let outbox: FCMOutbox
    /// Most tokens per multicast (the Admin SDK limit, docs/reference/firestore-wire.md §6).
    public static let maxMulticastTokens = 500

    private let clock: @Sendable () -> Timestamp
    private let counter = Atomic<UInt64>(0)

    /// Creates the service.
    public init(project: String, outbox: FCMOutbox, clock: @escaping @Sendable () -> Timestamp) {
        self.project = project
        self.outbox = outbox
        self.clock = clock
    }

    /// Sends one message per token (Admin SDK `sendEachForMulticast`).
    /// - Parameters:
    ///   - tokens: 1…500 registration tokens.
    ///   - notification: title/body shown to the user, if any.
    ///   - data: the data payload.
    /// - Returns: one `SendResponse` per token, in order.
    /// - Throws: `messaging/invalid-argument` for no tokens or more than 500 (nothing is sent).
    public func sendEachForMulticast(tokens: [String], notification: PushNotification?, data: [String: String] = [:])
        throws(MessagingError) -> BatchResponse
    {
        guard !tokens.isEmpty else { throw MessagingError(.invalidArgument, "tokens must be a non-empty array") }
        guard tokens.count <= Self.maxMulticastTokens else {
            throw MessagingError(.invalidArgument, "tokens list must not contain more than 500 items")
        }
        let now = clock()
        var delivered: [OutboxMessage] = []
        var refused: [OutboxRejection] = []
        var responses: [SendResponse] = []
        responses.reserveCapacity(tokens.count)
        for token in tokens {
            if token.hasPrefix("unregistered-") {
                responses.append(
                    SendResponse(
                        success: false, messageID: nil,
                        error: MessagingError(.registrationTokenNotRegistered, "Requested entity was not found.")))
            } else if token.isEmpty || token.hasPrefix("invalid-") {
                responses.append(
                    SendResponse(
                        success: false, messageID: nil,
                        error: MessagingError(
                            .invalidArgument, "The registration token is not a valid FCM registration token")))
            } else {
                let n = counter.add(1, ordering: .relaxed).newValue
                let id = "projects/\(project)/messages/0:\(now.microseconds)%\(String(n, radix: 16))"
                delivered.append(
                    OutboxMessage(messageID: id, token: token, notification: notification, data: data, sentAt: now))
                responses.append(SendResponse(success: true, messageID: id, error: nil))
            }
        }
        for (token, r) in zip(tokens, responses) {
            if let e = r.error { refused.append(OutboxRejection(token: token, code: e.code.rawValue, at: now)) }
        }
        outbox.append(delivered)
        outbox.reject(refused)
        return BatchResponse(responses: responses)
    }
}
