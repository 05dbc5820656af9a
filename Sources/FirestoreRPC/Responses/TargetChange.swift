import FirestoreModel

/// `TargetChange` of `google.firestore.v1`, as every transport encodes it.
///
/// Empty `targetIDs` applies to every target of the stream; a NO_CHANGE with empty ids
/// and a read time is the "global consistent snapshot" both client families wait for
/// (docs/reference/grpc-and-listen.md §8.1, pitfall table §13).
/// Source: googleapis `firestore.proto`; docs/reference/grpc-and-listen.md §6.5.
public struct TargetChange: Sendable, Equatable {
    /// `TargetChangeType`.
    public enum TargetChangeType: Int32, Sendable, Hashable {
        /// No change (0, not written on the wire).
        case noChange = 0
        /// Targets were added.
        case add = 1
        /// Targets were removed (with `cause` on error).
        case remove = 2
        /// Targets are current (consistent as of `readTime`).
        case current = 3
        /// Targets were reset; forget their documents.
        case reset = 4
    }

    /// The kind of change.
    public var targetChangeType: TargetChangeType
    /// The targets concerned; empty = all.
    public var targetIDs: [Int32]
    /// Why targets were removed (REMOVE only); nil = no error.
    public var cause: FirestoreError?
    /// A token to resume from ("" = not written).
    public var resumeToken: [UInt8]
    /// The consistent snapshot time (never set on ADD).
    public var readTime: Timestamp?

    /// Creates a target change.
    public init(
        _ targetChangeType: TargetChangeType, targetIDs: [Int32] = [], cause: FirestoreError? = nil,
        resumeToken: [UInt8] = [], readTime: Timestamp? = nil
    ) {
        self.targetChangeType = targetChangeType
        self.targetIDs = targetIDs
        self.cause = cause
        self.resumeToken = resumeToken
        self.readTime = readTime
    }
}
