import FirestoreModel

extension FirestoreProto {
    /// `CommitResponse`: 1 write_results (one per write), 2 commit_time.
    /// Source: googleapis `firestore.proto`; reference §6.5, §7.
    public struct CommitResponse: Sendable, Hashable {
        /// One result per write, in order.
        public var writeResults: [WriteResult]
        /// The commit time.
        public var commitTime: Timestamp

        /// Creates a response.
        public init(writeResults: [WriteResult], commitTime: Timestamp) {
            self.writeResults = writeResults
            self.commitTime = commitTime
        }

        /// Serializes the response.
        public func serializedBytes() -> [UInt8] {
            var w = ProtoWriter()
            for result in writeResults { w.writeMessageField(1) { encodeWriteResult(result, into: &$0) } }
            writeTimestampField(2, commitTime, into: &w)
            return w.bytes
        }
    }
}
