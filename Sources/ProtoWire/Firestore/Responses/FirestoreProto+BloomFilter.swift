import FirestoreRPC

/// `BloomFilter`: 1 bits BitSequence {1 bitmap, 2 padding}, 2 hash_count.
/// Source: googleapis `bloom_filter.proto`; docs/reference/grpc-and-listen.md §6.3.
extension BloomFilter {
    /// Writes the fields of the BloomFilter.
    func encode(into w: inout ProtoWriter) {
        w.writeMessageField(1) { bits in
            if !bitmap.isEmpty { bits.writeBytesField(1, bitmap) }
            if padding != 0 { bits.writeInt32Field(2, padding) }
        }
        if hashCount != 0 { w.writeInt32Field(2, hashCount) }
    }
}
