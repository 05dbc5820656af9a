import FirestoreModel

/// Results of a read with the read time they reflect and, for `.newTransaction`, its id.
public struct ReadResult<T: Sendable>: Sendable {
    /// The results.
    public var value: T
    /// The time at which the results were consistent.
    public var readTime: Timestamp
    /// The transaction begun by `.newTransaction`, if any.
    public var transaction: [UInt8]?
}
