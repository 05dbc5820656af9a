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

    /// The Struct production sends: `{"query_scope": …, "properties": …}` (snake_case in JSON
    /// too: Struct keys are data, not field names).
    public var reportFields: [String: ExplainStructValue] {
        ["query_scope": .string(queryScope), "properties": .string(properties)]
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
    /// `execution_duration`: time spent running the query in the backend.
    public var executionDuration: Duration
    /// `read_operations`: billed reads (documents returned, at least one; aggregations: one
    /// per 1,000 index entries, at least one).
    public var readOperations: Int64
    /// `debug_stats`: what was scanned and billed.
    public var debugStats: DebugStats

    /// Creates statistics.
    public init(resultsReturned: Int64, executionDuration: Duration, readOperations: Int64, debugStats: DebugStats) {
        self.resultsReturned = resultsReturned
        self.executionDuration = executionDuration
        self.readOperations = readOperations
        self.debugStats = debugStats
    }
}

/// `ExecutionStats.debug_stats`: a `google.protobuf.Struct` whose numbers production sends as
/// decimal strings, with `billing_details` nested as a Struct of its own:
/// `{"index_entries_scanned": "95000", "documents_scanned": "5", "billing_details":
/// {"documents_billable": "5", "index_entries_billable": "0", "small_ops": "0", "min_query_cost": "0"}}`.
/// Production marks the contents "subject to change"; these are the keys its docs show.
/// Source: firebase.google.com/docs/firestore/query-explain (analyze example);
/// firebase.google.com/docs/firestore/reference/query-explain-report-reference ("Debug statistics").
public struct DebugStats: Sendable, Hashable {
    /// `index_entries_scanned`: index entries inspected.
    public var indexEntriesScanned: Int64
    /// `documents_scanned`: documents read.
    public var documentsScanned: Int64
    /// `billing_details`.
    public var billingDetails: BillingDetails

    /// Creates debug statistics.
    public init(indexEntriesScanned: Int64, documentsScanned: Int64, billingDetails: BillingDetails) {
        self.indexEntriesScanned = indexEntriesScanned
        self.documentsScanned = documentsScanned
        self.billingDetails = billingDetails
    }

    /// The Struct production sends, keys as on the wire (snake_case in JSON too: Struct keys
    /// are data, not field names), every number as a decimal string.
    public var reportFields: [String: ExplainStructValue] {
        [
            "index_entries_scanned": .string(String(indexEntriesScanned)),
            "documents_scanned": .string(String(documentsScanned)),
            "billing_details": .fields(billingDetails.reportFields),
        ]
    }
}

/// `debug_stats.billing_details`: what the query was billed for.
/// Source: firebase.google.com/docs/firestore/query-explain (analyze example).
public struct BillingDetails: Sendable, Hashable {
    /// `documents_billable`: documents billed as reads.
    public var documentsBillable: Int64
    /// `index_entries_billable`: index entries billed (aggregations are billed one read per
    /// batch of up to 1,000 index entries; firebase.google.com/docs/firestore/pricing).
    public var indexEntriesBillable: Int64
    /// `small_ops`: small operations billed (0 in every example production's docs show).
    public var smallOps: Int64
    /// `min_query_cost`: reads charged as the per-query minimum (production bills at least one
    /// read for a query, even one that returns nothing; firebase.google.com/docs/firestore/pricing).
    public var minQueryCost: Int64

    /// Creates billing details.
    public init(documentsBillable: Int64, indexEntriesBillable: Int64, smallOps: Int64 = 0, minQueryCost: Int64) {
        self.documentsBillable = documentsBillable
        self.indexEntriesBillable = indexEntriesBillable
        self.smallOps = smallOps
        self.minQueryCost = minQueryCost
    }

    /// The Struct production sends: every number as a decimal string.
    public var reportFields: [String: ExplainStructValue] {
        [
            "documents_billable": .string(String(documentsBillable)),
            "index_entries_billable": .string(String(indexEntriesBillable)),
            "small_ops": .string(String(smallOps)),
            "min_query_cost": .string(String(minQueryCost)),
        ]
    }
}

/// One value of the `google.protobuf.Struct`s in explain metrics (`indexes_used` entries,
/// `debug_stats`): production sends only strings and nested Structs there, so the codecs
/// write `Value.string_value` / `Value.struct_value` (JSON: a string / an object).
/// Source: protobuf `google/protobuf/struct.proto`; googleapis `query_profile.proto`.
public indirect enum ExplainStructValue: Sendable, Hashable {
    /// `string_value`.
    case string(String)
    /// `struct_value`: a nested Struct, keys as on the wire.
    case fields([String: ExplainStructValue])
}
