import FirestoreModel

/// `ListenRequest` of `google.firestore.v1`, as every transport decodes it.
///
/// An add_target whose body cannot be used (malformed query, a name in another database,
/// a pipeline target) does not fail the request: it decodes to `.rejectedTarget`, which
/// the Listen handler answers with TargetChange REMOVE carrying the error as `cause` — ending
/// the stream instead would make mobile clients reconnect forever (docs/reference/grpc-and-listen.md §8.1).
/// Source: googleapis `firestore.proto`; docs/reference/grpc-and-listen.md §6.5, §8.
public struct ListenRequest: Sendable, Equatable {
    /// The `target_change` oneof.
    public enum TargetChange: Sendable, Equatable {
        /// `add_target`.
        case addTarget(Target)
        /// `remove_target`: the target id.
        case removeTarget(Int32)
        /// An `add_target` that could not be used, with the id it asked for (0 if none)
        /// and why (`INVALID_ARGUMENT`, or `UNIMPLEMENTED` for pipeline targets).
        case rejectedTarget(targetID: Int32, error: FirestoreError)
    }

    /// The database named in this message, if any.
    public var database: DatabaseID?
    /// What the message asks; nil when neither arm is set.
    public var targetChange: TargetChange?
    /// Client labels (mobile: `goog-listen-tags`).
    public var labels: [String: String]

    /// Creates a request.
    public init(database: DatabaseID? = nil, targetChange: TargetChange? = nil, labels: [String: String] = [:]) {
        self.database = database
        self.targetChange = targetChange
        self.labels = labels
    }
}
