extension FirestoreProto {
    /// `ExistenceFilter`: 1 target_id, 2 count, 3 unchanged_names BloomFilter.
    /// Source: googleapis `write.proto`, `bloom_filter.proto`; reference §6.3, §8.1.
    public struct ExistenceFilter: Sendable, Hashable {
        /// The target.
        public var targetID: Int32
        /// How many documents currently match it.
        public var count: Int32
        /// Optional bloom filter of the matching names.
        public var unchangedNames: BloomFilter?

        /// Creates a filter.
        public init(targetID: Int32, count: Int32, unchangedNames: BloomFilter? = nil) {
            self.targetID = targetID
            self.count = count
            self.unchangedNames = unchangedNames
        }

        /// Writes the fields of the ExistenceFilter.
        func encode(into w: inout ProtoWriter) {
            if targetID != 0 { w.writeInt32Field(1, targetID) }
            if count != 0 { w.writeInt32Field(2, count) }
            if let bloom = unchangedNames { w.writeMessageField(3) { bloom.encode(into: &$0) } }
        }
    }
}
