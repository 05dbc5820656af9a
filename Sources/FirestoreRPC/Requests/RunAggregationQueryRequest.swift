import FirestoreModel

/// `RunAggregationQueryRequest` of `google.firestore.v1`, as every transport decodes it.
/// Source: googleapis `google/firestore/v1/firestore.proto`.
public struct RunAggregationQueryRequest: Sendable, Hashable {
    /// The database named by `parent`.
    public var database: DatabaseID
    /// The aggregated query and its parent.
    public var target: QueryTarget
    /// The aggregations in request order, every alias set (`field_N` for unnamed ones);
    /// their number and uniqueness are checked by the engine (`Aggregation.validate`).
    public var aggregations: [Aggregation]
    /// Which state to read.
    public var consistency: ReadConsistency
    /// `explain_options`: nil runs the aggregation plainly.
    public var explainOptions: ExplainOptions?

    /// Creates a request.
    public init(
        database: DatabaseID, target: QueryTarget, aggregations: [Aggregation], consistency: ReadConsistency = .strong,
        explainOptions: ExplainOptions? = nil
    ) {
        self.database = database
        self.target = target
        self.aggregations = aggregations
        self.consistency = consistency
        self.explainOptions = explainOptions
    }
}
