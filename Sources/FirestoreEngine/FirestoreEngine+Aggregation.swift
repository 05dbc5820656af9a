import DocumentStore
import FirestoreModel

extension FirestoreEngine {
    /// RunAggregationQuery: count / sum / avg over the query's results, one value per alias.
    ///
    /// The documents are the query's after its offset and limit, with every `sum`/`avg`
    /// field ordered on (`StructuredQuery.scanned(for:)`: a document lacking one is not
    /// aggregated, and `limit(12).sum("x")` sums the 12 smallest `x`). `count` is an int
    /// (capped by `upTo`); `sum` is an int when every summed value is an int and no overflow
    /// occurs, else a double (NaN propagates); `avg` is a double, null for no numeric values.
    /// Non-numeric values are skipped. Source: docs/reference/firestore-wire.md §1.6; the emulator
    /// (Tests/Conformance/aggregation_cases.json).
    /// - Throws: as `runQuery`; `.invalidArgument` as `Aggregation.validate` (none, more
    ///   than 5, duplicate aliases, `__name__` summed or averaged).
    public func runAggregation(
        _ target: QueryTarget, aggregations: [Aggregation], in database: DatabaseID,
        consistency: ReadConsistency = .strong, auth: AuthContext
    ) throws(FirestoreError) -> ReadResult<FieldMap> {
        let r = try explainAggregation(target, aggregations: aggregations, in: database, consistency: consistency, auth: auth)
        return ReadResult(value: r.value.fields, readTime: r.readTime, transaction: r.transaction)
    }

    /// `runAggregation`, also reporting what the store read (explain, the request log).
    /// - Throws: as `runAggregation`.
    public func explainAggregation(
        _ target: QueryTarget, aggregations: [Aggregation], in database: DatabaseID,
        consistency: ReadConsistency = .strong, auth: AuthContext
    ) throws(FirestoreError) -> ReadResult<(fields: FieldMap, statistics: QueryStatistics)> {
        try Aggregation.validate(aggregations)
        try validate(target)
        // The index the client's query needs, not the scan's implicit order.
        try prepareQuery(target, in: database)
        let scan = QueryTarget(parent: target.parent, query: target.query.scanned(for: aggregations))
        return try read(database, consistency) {
            (view, readTime) throws(FirestoreError) -> (fields: FieldMap, statistics: QueryStatistics) in
            // Rules see the query as the client sent it, not the scan's implicit order.
            try authorizeList(target, database: database, auth: auth, time: readTime, view: view)
            var statistics = QueryStatistics()
            let documents = try view.snapshot.runQuery(scan, in: database, statistics: &statistics).documents
            if view.recording { for d in documents { view.record(d.path, d) } }
            var out: FieldMap = [:]
            for a in aggregations { out[a.alias] = Self.aggregate(a.kind, over: documents) }
            return (out, statistics)
        }
    }

    /// One aggregation over documents.
    static func aggregate(_ kind: Aggregation.Kind, over docs: [Document]) -> Value {
        switch kind {
        case .count(let upTo):
            let n = Int64(docs.count)
            return .integer(upTo.map { min($0, n) } ?? n)
        case .sum(let field):
            var intSum: Int64 = 0
            var doubleSum = 0.0
            var isInt = true
            for d in docs {
                switch d.fields.value(at: field) {
                case .integer(let i)?:
                    if isInt {
                        let (s, o) = intSum.addingReportingOverflow(i)
                        if o {
                            isInt = false
                            doubleSum = Double(intSum) + Double(i)
                        } else {
                            intSum = s
                        }
                    } else {
                        doubleSum += Double(i)
                    }
                case .double(let x)?:
                    if isInt {
                        isInt = false
                        doubleSum = Double(intSum)
                    }
                    doubleSum += x
                default: continue
                }
            }
            return isInt ? .integer(intSum) : .double(doubleSum)
        case .avg(let field):
            var sum = 0.0
            var n = 0
            for d in docs {
                switch d.fields.value(at: field) {
                case .integer(let i)?: sum += Double(i); n += 1
                case .double(let x)?: sum += x; n += 1
                default: continue
                }
            }
            return n == 0 ? .null : .double(sum / Double(n))
        }
    }
}
