import FirestoreModel
import GoogleWire

/// Query explain in proto3 JSON: `explainOptions` in RunQuery / RunAggregationQuery bodies,
/// `explainMetrics` in their response elements.
///
/// `{"planSummary": {"indexesUsed": [{"properties": "(a ASC, __name__ ASC)", "query_scope": "Collection"}]},
///   "executionStats": {"resultsReturned": "20", "executionDuration": "0.012s", "readOperations": "20",
///   "debugStats": {"billing_details": {…}, "documents_scanned": "20", "index_entries_scanned": "20"}}}`:
/// int64 as decimal strings, Duration as seconds with 0, 3, 6 or 9 fraction digits and `s`,
/// Struct keys as production sends them (snake_case: they are data, not field names), in
/// UTF-8 order. Source: googleapis `query_profile.proto`; protobuf "JSON Mapping" (Struct,
/// Duration, int64); firebase.google.com/docs/firestore/reference/rest/v1/ExplainMetrics;
/// docs/reference/firestore-wire.md §1.12.
extension RESTCodec {
    /// Decodes `{analyze?: bool}`; `{}` is plan-only.
    /// - Throws: `.invalidArgument` when `json` is not an object, `analyze` is not a boolean,
    ///   or another member is present (the emulator answers 400 for both).
    public static func decodeExplainOptions(_ json: JSONValue, at path: String = "explainOptions") throws(FirestoreError)
        -> ExplainOptions
    {
        var reader = try JSONObjectReader(json, at: path)
        let analyze = try reader.take("analyze").map { (v) throws(FirestoreError) in try bool(v, at: reader.child("analyze")) }
        try reader.finish()
        return ExplainOptions(analyze: analyze ?? false)
    }

    /// `{planSummary: {indexesUsed?}, executionStats?}`: the plan summary always (its
    /// `indexesUsed` omitted when empty, as proto3 JSON omits an empty repeated field), the
    /// execution statistics when analyzed.
    public static func encodeExplainMetrics(_ m: ExplainMetrics) -> JSONValue {
        var plan: [JSONValue.Member] = []
        if !m.indexesUsed.isEmpty {
            plan.append(.init("indexesUsed", .array(m.indexesUsed.map { encodeStruct($0.reportFields) })))
        }
        var members: [JSONValue.Member] = [.init("planSummary", .object(plan))]
        if let s = m.executionStats {
            var stats: [JSONValue.Member] = []
            if s.resultsReturned != 0 { stats.append(.init("resultsReturned", .string(String(s.resultsReturned)))) }
            stats.append(.init("executionDuration", encodeDuration(s.executionDuration)))
            if s.readOperations != 0 { stats.append(.init("readOperations", .string(String(s.readOperations)))) }
            stats.append(.init("debugStats", encodeStruct(s.debugStats.reportFields)))
            members.append(.init("executionStats", .object(stats)))
        }
        return .object(members)
    }

    /// A `google.protobuf.Struct` as a JSON object, keys in UTF-8 order.
    static func encodeStruct(_ fields: [String: ExplainStructValue]) -> JSONValue {
        .object(
            fields.keys.sorted(by: utf8Less).compactMap { key in
                guard let value = fields[key] else { return nil }
                switch value {
                case .string(let s): return .init(key, .string(s))
                case .fields(let f): return .init(key, encodeStruct(f))
                }
            })
    }

    /// A `google.protobuf.Duration` in proto3 JSON: `"0s"`, `"1.500s"`, `"0.012345s"`,
    /// `"-2.000000001s"` (0, 3, 6 or 9 fraction digits, the fewest that keep every nanosecond;
    /// sub-nanosecond parts truncated toward zero).
    public static func encodeDuration(_ d: Duration) -> JSONValue {
        let (seconds, attoseconds) = d.components
        let nanos = attoseconds / 1_000_000_000
        let negative = seconds < 0 || nanos < 0
        var text = negative ? "-" : ""
        text += String(seconds.magnitude)
        var fraction = nanos.magnitude
        var digits = 9
        if fraction != 0 {
            while digits > 3 && fraction % 1_000 == 0 {
                fraction /= 1_000
                digits -= 3
            }
            let f = String(fraction)
            text += "." + String(repeating: "0", count: digits - f.count) + f
        }
        return .string(text + "s")
    }
}
