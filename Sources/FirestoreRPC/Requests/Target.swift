import FirestoreModel

/// `Target` of `google.firestore.v1`, as every transport decodes it.
/// Source: googleapis `google/firestore/v1/firestore.proto`.
public struct Target: Sendable, Hashable {
    /// What the target watches.
    public enum TargetType: Sendable, Hashable {
        /// A query under a parent.
        case query(QueryTarget)
        /// Specific documents (mobile sends exactly one).
        case documents([ResourcePath])
    }

    /// Where a resumed target starts from.
    public enum ResumeType: Sendable, Hashable {
        /// A token the server issued earlier (opaque bytes).
        case resumeToken([UInt8])
        /// A snapshot read time the client already has.
        case readTime(Timestamp)
    }

    /// The client-chosen id (0 ⇒ the server assigns one; no client in scope sends 0).
    public var targetID: Int32
    /// What is watched.
    public var targetType: TargetType
    /// Resume point; nil for a fresh listen.
    public var resumeType: ResumeType?
    /// Remove the target once it is current.
    public var once: Bool
    /// The number of documents the client believes match (sent with a resume point).
    public var expectedCount: Int32?

    /// Creates a target.
    public init(targetID: Int32, targetType: TargetType, resumeType: ResumeType? = nil, once: Bool = false, expectedCount: Int32? = nil) {
        self.targetID = targetID
        self.targetType = targetType
        self.resumeType = resumeType
        self.once = once
        self.expectedCount = expectedCount
    }
}
