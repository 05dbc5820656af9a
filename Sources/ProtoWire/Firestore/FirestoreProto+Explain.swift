import FirestoreModel

/// Query explain: `ExplainOptions` {1 analyze bool} in requests; `ExplainMetrics`
/// {1 plan_summary PlanSummary {1 indexes_used repeated Struct}, 2 execution_stats
/// ExecutionStats {1 results_returned int64, 3 execution_duration Duration, 4 read_operations
/// int64, 5 debug_stats Struct}} in responses; the `google.protobuf.Struct` {1 fields
/// map<string, Value>} and `Duration` {1 seconds int64, 2 nanos int32} they use.
/// Source: googleapis `google/firestore/v1/query_profile.proto`; protobuf
/// `google/protobuf/struct.proto`, `duration.proto`; docs/reference/firestore-wire.md §1.12.
extension FirestoreProto {
    // MARK: ExplainOptions (1 analyze)

    /// Decodes an `ExplainOptions`; an empty message is plan-only (`analyze` false).
    static func decodeExplainOptions(_ reader: ProtoReader) throws(ProtoWireError) -> ExplainOptions {
        var r = reader
        var options = ExplainOptions()
        while let tag = try r.readTag() {
            switch (tag.fieldNumber, tag.wireType) {
            case (1, .varint): options.analyze = try r.readBool()
            default: try r.skipField(tag)
            }
        }
        return options
    }

    // MARK: ExplainMetrics

    /// Writes the fields of an `ExplainMetrics`: `plan_summary` always (production always
    /// plans), `execution_stats` when analyzed.
    static func encodeExplainMetrics(_ m: ExplainMetrics, into w: inout ProtoWriter) {
        w.writeMessageField(1) { plan in
            for usage in m.indexesUsed {
                plan.writeMessageField(1) { encodeStruct(usage.reportFields, into: &$0) }
            }
        }
        if let stats = m.executionStats {
            w.writeMessageField(2) { encodeExecutionStats(stats, into: &$0) }
        }
    }

    /// Writes the fields of an `ExecutionStats` (zero counts omitted as proto3 defaults; the
    /// duration and the debug Struct always written).
    private static func encodeExecutionStats(_ s: ExecutionStats, into w: inout ProtoWriter) {
        if s.resultsReturned != 0 { w.writeInt64Field(1, s.resultsReturned) }
        w.writeMessageField(3) { encodeDuration(s.executionDuration, into: &$0) }
        if s.readOperations != 0 { w.writeInt64Field(4, s.readOperations) }
        w.writeMessageField(5) { encodeStruct(s.debugStats.reportFields, into: &$0) }
    }

    // MARK: google.protobuf.Struct (1 fields map<string, Value>)

    /// Writes the fields of a Struct: one map entry {1 key, 2 value} per key, keys in UTF-8
    /// order (what deterministic protobuf serialization writes, so bytes compare exactly).
    static func encodeStruct(_ fields: [String: ExplainStructValue], into w: inout ProtoWriter) {
        for key in fields.keys.sorted(by: utf8Less) {
            guard let value = fields[key] else { continue }
            w.writeMessageField(1) { entry in
                entry.writeStringField(1, key)
                entry.writeMessageField(2) { encodeStructValue(value, into: &$0) }
            }
        }
    }

    /// Writes a `google.protobuf.Value`: 3 string_value or 5 struct_value (a set oneof arm is
    /// written even when empty).
    private static func encodeStructValue(_ v: ExplainStructValue, into w: inout ProtoWriter) {
        switch v {
        case .string(let s): w.writeStringField(3, s)
        case .fields(let f): w.writeMessageField(5) { encodeStruct(f, into: &$0) }
        }
    }

    // MARK: google.protobuf.Duration (1 seconds int64, 2 nanos int32)

    /// Writes the fields of a Duration, truncated toward zero to whole nanoseconds; zero
    /// parts are omitted. `seconds` and `nanos` share one sign, as duration.proto requires
    /// (Swift's `Duration.components` already do).
    static func encodeDuration(_ d: Duration, into w: inout ProtoWriter) {
        let (seconds, attoseconds) = d.components
        let nanos = Int32(attoseconds / 1_000_000_000)
        if seconds != 0 { w.writeInt64Field(1, seconds) }
        if nanos != 0 { w.writeInt32Field(2, nanos) }
    }
}
