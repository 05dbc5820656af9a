import FirestoreModel

/// `ExistenceFilter` of `google.firestore.v1`, as every transport encodes it.
/// Source: googleapis `google/firestore/v1/firestore.proto`.
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
}
