import FirestoreModel

/// `RunQueryResponse` of `google.firestore.v1`, as every transport encodes it.
///
/// Stream one per result document, each with `readTime`; an empty result is one message
/// with only `readTime` (and `done`). Source: googleapis `firestore.proto`; docs/reference/grpc-and-listen.md §6.5, §7.
public struct RunQueryResponse: Sendable, Hashable {
    /// A result document; nil in progress/terminal messages.
    public var document: Document?
    /// The transaction begun by `new_transaction` (first message only); nil or empty = not written.
    public var transaction: [UInt8]?
    /// The read time.
    public var readTime: Timestamp?
    /// Documents skipped by `offset` since the previous message (0 = not written).
    public var skippedResults: Int32
    /// True on the last message (written only when true).
    public var done: Bool
    /// `explain_metrics`: on the last message of an explained query only.
    public var explainMetrics: ExplainMetrics?

    /// Creates a response.
    public init(document: Document?, transaction: [UInt8]? = nil, readTime: Timestamp?, skippedResults: Int32 = 0, done: Bool = false,
        explainMetrics: ExplainMetrics? = nil
    ) {
        self.document = document
        self.transaction = transaction
        self.readTime = readTime
        self.skippedResults = skippedResults
        self.done = done
        self.explainMetrics = explainMetrics
    }
}
