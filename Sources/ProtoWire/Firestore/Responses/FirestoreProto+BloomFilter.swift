extension FirestoreProto {
    /// `BloomFilter`: 1 bits BitSequence {1 bitmap, 2 padding}, 2 hash_count.
    /// Source: googleapis `bloom_filter.proto`; reference §6.3.
    public struct BloomFilter: Sendable, Hashable {
        /// The bit array, least significant bit of byte 0 first.
        public var bitmap: [UInt8]
        /// Unused bits in the last byte (0…7).
        public var padding: Int32
        /// Number of hash functions.
        public var hashCount: Int32

        /// Creates a bloom filter.
        public init(bitmap: [UInt8], padding: Int32, hashCount: Int32) {
            self.bitmap = bitmap
            self.padding = padding
            self.hashCount = hashCount
        }

        /// Writes the fields of the BloomFilter.
        func encode(into w: inout ProtoWriter) {
            w.writeMessageField(1) { bits in
                if !bitmap.isEmpty { bits.writeBytesField(1, bitmap) }
                if padding != 0 { bits.writeInt32Field(2, padding) }
            }
            if hashCount != 0 { w.writeInt32Field(2, hashCount) }
        }
    }
}
