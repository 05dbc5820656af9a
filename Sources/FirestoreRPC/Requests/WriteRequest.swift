import FirestoreModel

/// `WriteRequest` of `google.firestore.v1`, as every transport decodes it.
///
/// The mobile SDKs send `database` only in the handshake; later messages carry writes and
/// the last stream token. Writes are decoded against this message's database or, when it
/// has none, the stream's. Source: googleapis `firestore.proto`; docs/reference/grpc-and-listen.md §6.5, §9.
public struct WriteRequest: Sendable, Hashable {
    /// The database named in this message, if any.
    public var database: DatabaseID?
    /// Stream to resume ("" in every client in scope).
    public var streamID: String
    /// The batch; empty in the handshake and in the teardown message.
    public var writes: [Write]
    /// The last token the client received ("" in the handshake).
    public var streamToken: [UInt8]
    /// Client labels.
    public var labels: [String: String]

    /// Creates a request.
    public init(
        database: DatabaseID? = nil, streamID: String = "", writes: [Write] = [], streamToken: [UInt8] = [],
        labels: [String: String] = [:]
    ) {
        self.database = database
        self.streamID = streamID
        self.writes = writes
        self.streamToken = streamToken
        self.labels = labels
    }
}
