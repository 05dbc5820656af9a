/// A failure sending to FCM, with the Admin SDK's `messaging/…` code.
/// Source: docs/reference/firestore-wire.md §6 (server code → client code table).
public struct MessagingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The Admin SDK error code.
    public enum Code: String, Sendable, Hashable {
        /// `UNREGISTERED` / `NOT_FOUND` (HTTP 404): the token is no longer valid; delete it.
        case registrationTokenNotRegistered = "messaging/registration-token-not-registered"
        /// `INVALID_ARGUMENT` (HTTP 400): malformed token or message, or a bad call.
        case invalidArgument = "messaging/invalid-argument"
        /// `INTERNAL`.
        case internalError = "messaging/internal-error"
    }

    /// The code.
    public var code: Code
    /// The server's message, e.g. `Requested entity was not found.`.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `messaging/code: message`.
    public var description: String { "\(code.rawValue): \(message)" }
}

/// The outcome for one token of a multicast send (Admin SDK `SendResponse`).
public struct SendResponse: Sendable, Hashable {
    /// True when FCM accepted the message.
    public var success: Bool
    /// On success, the message name `projects/{project}/messages/{id}`.
    public var messageID: String?
    /// On failure, why.
    public var error: MessagingError?

    /// Creates a response.
    public init(success: Bool, messageID: String?, error: MessagingError?) {
        self.success = success
        self.messageID = messageID
        self.error = error
    }
}

/// The outcome of a multicast send (Admin SDK `BatchResponse`): `responses[i]` belongs to
/// `tokens[i]`.
public struct BatchResponse: Sendable, Hashable {
    /// One response per token, in token order.
    public var responses: [SendResponse]

    /// Creates a response.
    public init(responses: [SendResponse]) { self.responses = responses }

    /// Number of accepted messages.
    public var successCount: Int { responses.filter(\.success).count }
    /// Number of rejected messages.
    public var failureCount: Int { responses.count - successCount }
}
