/// `explainOptions` of RunQuery / RunAggregationQuery: plan only, or plan and execution.
/// Source: googleapis `google/firestore/v1/query_profile.proto` `ExplainOptions`.
public struct ExplainOptions: Sendable, Hashable {
    /// True: run the query and report execution statistics with the results; false: plan
    /// only, no results.
    public var analyze: Bool

    /// Creates options.
    public init(analyze: Bool = false) { self.analyze = analyze }
}

/// One index a plan reads, as production's plan summary names it.
/// Source: `PlanSummary.indexes_used` (`{"query_scope": "Collection", "properties": "(foo ASC, __name__ ASC)"}`).
public struct IndexUsage: Sendable, Hashable {
    /// `Collection` or `Collection group`.
    public var queryScope: String
    /// `(bucket ASC, i DESC, __name__ DESC)`.
    public var properties: String

    /// Creates a usage.
    public init(queryScope: String, properties: String) {
        self.queryScope = queryScope
        self.properties = properties
    }
}

/// What a store did to answer one query: the indexes it read and how much it scanned.
/// The store fills it in `StoreSnapshot.runQuery(_:in:statistics:)`.
public struct QueryStatistics: Sendable, Hashable {
    /// The indexes read, in plan order, each once: a composite index by its `properties`, a
    /// single-field index as `(a ASC, __name__ ASC)` (`DESC` when read backwards, `CONTAINS`
    /// for array elements), documents read in name order as `(__name__ ASC)` (or `DESC`).
    /// Empty when the store reads no index (the in-memory store scans).
    public var indexesUsed: [IndexUsage]
    /// Index entries read (rows of index scans).
    public var indexEntriesScanned: Int
    /// Documents read and decoded.
    public var documentsScanned: Int
    /// The store's own plan text (`QueryPlan.description`), for the request log.
    public var plan: String

    /// Empty statistics.
    public init(indexesUsed: [IndexUsage] = [], indexEntriesScanned: Int = 0, documentsScanned: Int = 0, plan: String = "") {
        self.indexesUsed = indexesUsed
        self.indexEntriesScanned = indexEntriesScanned
        self.documentsScanned = documentsScanned
        self.plan = plan
    }
}

/// `explain_metrics` of a RunQuery / RunAggregationQuery response.
/// Source: googleapis `query_profile.proto` `ExplainMetrics`, `PlanSummary`, `ExecutionStats`.
public struct ExplainMetrics: Sendable, Hashable {
    /// `plan_summary.indexes_used`.
    public var indexesUsed: [IndexUsage]
    /// `execution_stats`; nil unless `analyze`.
    public var executionStats: ExecutionStats?

    /// Creates metrics.
    public init(indexesUsed: [IndexUsage], executionStats: ExecutionStats? = nil) {
        self.indexesUsed = indexesUsed
        self.executionStats = executionStats
    }
}

/// `ExecutionStats`: what running the query cost.
public struct ExecutionStats: Sendable, Hashable {
    /// `results_returned`: documents (or aggregation results) returned.
    public var resultsReturned: Int64
    /// `execution_duration`.
    public var executionDuration: Duration
    /// `read_operations`: billed reads (documents returned, at least one; aggregations: one
    /// per 1,000 index entries, at least one).
    public var readOperations: Int64
    /// `debug_stats`: `{"documents_scanned", "index_entries_scanned", "billing_details"}`
    /// with string values, as production sends them.
    public var debugStats: [String: String]

    /// Creates statistics.
    public init(resultsReturned: Int64, executionDuration: Duration, readOperations: Int64, debugStats: [String: String]) {
        self.resultsReturned = resultsReturned
        self.executionDuration = executionDuration
        self.readOperations = readOperations
        self.debugStats = debugStats
    }
}
