import FirestoreModel

/// `RunAggregationQueryResponse` of `google.firestore.v1`, as every transport encodes it.
/// Source: googleapis `google/firestore/v1/firestore.proto`.
public struct RunAggregationQueryResponse: Sendable, Hashable {
    /// One value per alias.
    public var aggregateFields: FieldMap
    /// The transaction begun by `new_transaction`; nil or empty = not written.
    public var transaction: [UInt8]?
    /// The read time.
    public var readTime: Timestamp?
    /// `explain_metrics` of an explained aggregation.
    public var explainMetrics: ExplainMetrics?

    /// Creates a response.
    public init(aggregateFields: FieldMap, transaction: [UInt8]? = nil, readTime: Timestamp?, explainMetrics: ExplainMetrics? = nil) {
        self.aggregateFields = aggregateFields
        self.transaction = transaction
        self.readTime = readTime
        self.explainMetrics = explainMetrics
    }
}
