import FirestoreModel

/// `BloomFilter` of `google.firestore.v1`, as every transport encodes it.
/// Source: googleapis `google/firestore/v1/firestore.proto`.
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
}
