import FirestoreModel

extension FirestoreProto {
    /// `TargetChange`: 1 target_change_type, 2 target_ids (packed), 3 cause
    /// google.rpc.Status, 4 resume_token, 6 read_time.
    ///
    /// Empty `targetIDs` applies to every target of the stream; a NO_CHANGE with empty ids
    /// and a read time is the "global consistent snapshot" both client families wait for
    /// (reference §8.1, pitfall table §13). Source: googleapis `firestore.proto`; reference §6.5.
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

        /// Writes the fields of the TargetChange.
        func encode(into w: inout ProtoWriter) {
            if targetChangeType != .noChange { w.writeInt32Field(1, targetChangeType.rawValue) }
            w.writePackedInt32Field(2, targetIDs)
            if let cause { w.writeMessageField(3) { encodeStatus(cause, into: &$0) } }
            if !resumeToken.isEmpty { w.writeBytesField(4, resumeToken) }
            if let t = readTime { writeTimestampField(6, t, into: &w) }
        }
    }
}
