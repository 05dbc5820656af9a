import FirestoreRPC

/// `ExistenceFilter`: 1 target_id, 2 count, 3 unchanged_names BloomFilter.
/// Source: googleapis `write.proto`, `bloom_filter.proto`; docs/reference/grpc-and-listen.md §6.3, §8.1.
extension ExistenceFilter {
    /// Writes the fields of the ExistenceFilter.
    func encode(into w: inout ProtoWriter) {
        if targetID != 0 { w.writeInt32Field(1, targetID) }
        if count != 0 { w.writeInt32Field(2, count) }
        if let bloom = unchangedNames { w.writeMessageField(3) { bloom.encode(into: &$0) } }
    }
}
