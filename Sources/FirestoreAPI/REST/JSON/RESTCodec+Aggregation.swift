import FirestoreModel
import GoogleWire

/// `StructuredAggregationQuery` in proto3 JSON. Source: googleapis `query.proto`
/// (StructuredAggregationQuery); docs/reference/firestore-wire.md §1.6.
extension RESTCodec {
    /// A decoded `StructuredAggregationQuery`.
    public struct AggregationQuery: Sendable, Hashable {
        /// The query whose results are aggregated.
        public var query: StructuredQuery
        /// The aggregations in request order, every alias set (`field_N` for unnamed ones);
        /// their number and uniqueness are the engine's to check (`Aggregation.validate`).
        public var aggregations: [Aggregation]

        /// Creates an aggregation query.
        public init(query: StructuredQuery, aggregations: [Aggregation]) {
            self.query = query
            self.aggregations = aggregations
        }
    }

    /// Decodes `{structuredQuery, aggregations: [{alias?, count: {upTo?}} | {alias?, sum: {field}} | {alias?, avg: {field}}]}`.
    ///
    /// Unnamed aggregations get `field_1`, `field_2`, … in order of appearance among the
    /// unnamed ones, as the emulator names them (an explicit `field_1` beside an unnamed one
    /// is then a duplicate, which `Aggregation.validate` reports).
    /// - Throws: `.invalidArgument` for a missing query, an aggregation with no operator
    ///   ("Operator field in Aggregation is not set.") or several, `upTo` ≤ 0 (query.proto:
    ///   "must be greater than zero when present"), a `sum`/`avg` without a field.
    public static func decodeAggregationQuery(_ json: JSONValue, at path: String = "structuredAggregationQuery")
        throws(FirestoreError) -> AggregationQuery
    {
        var reader = try JSONObjectReader(json, at: path)
        let queryJSON = reader.take("structuredQuery")
        let list = reader.take("aggregations")
        try reader.finish()
        guard let queryJSON else { throw invalid(reader.child("structuredQuery"), "structuredQuery is required.") }
        let query = try decodeStructuredQuery(queryJSON, at: reader.child("structuredQuery"))
        let elements = try list.map { (l) throws(FirestoreError) in try array(l, at: reader.child("aggregations")) } ?? []
        var aggregations: [Aggregation] = []
        var unnamed = 0
        for (i, e) in elements.enumerated() {
            let at = reader.child("aggregations") + "[\(i)]"
            var a = try JSONObjectReader(e, at: at)
            let alias = try a.take("alias").map { (v) throws(FirestoreError) in try string(v, at: a.child("alias")) }
            let count = a.take("count")
            let sum = a.take("sum")
            let avg = a.take("avg")
            try a.finish()
            let kinds = [("count", count), ("sum", sum), ("avg", avg)].filter { $0.1 != nil }
            if kinds.isEmpty { throw invalid(at, "Operator field in Aggregation is not set.") }
            guard kinds.count == 1 else {
                throw invalid(at, "an aggregation must set exactly one of count, sum, avg.")
            }
            let kind: Aggregation.Kind
            if let count {
                var c = try JSONObjectReader(count, at: a.child("count"))
                let upTo = try c.take("upTo").map { (v) throws(FirestoreError) in try decodeInt64(v, at: c.child("upTo")) }
                try c.finish()
                if let upTo, let message = Aggregation.invalidUpToMessage(upTo) { throw invalid(c.child("upTo"), message) }
                kind = .count(upTo: upTo)
            } else {
                let name = sum != nil ? "sum" : "avg"
                var f = try JSONObjectReader(sum ?? avg ?? .object([]), at: a.child(name))
                let field = f.take("field")
                try f.finish()
                guard let field else { throw invalid(f.child("field"), "Invalid empty property path string.") }
                let p = try decodeFieldReference(field, at: f.child("field"))
                kind = sum != nil ? .sum(p) : .avg(p)
            }
            let name: String
            if let alias, !alias.isEmpty {
                name = alias
            } else {
                unnamed += 1
                name = "field_\(unnamed)"
            }
            aggregations.append(Aggregation(alias: name, kind: kind))
        }
        return AggregationQuery(query: query, aggregations: aggregations)
    }
}
