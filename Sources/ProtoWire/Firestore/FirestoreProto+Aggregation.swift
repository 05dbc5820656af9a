import FirestoreModel

/// `StructuredAggregationQuery` (oneof 1 structured_query; 3 aggregations) and
/// `Aggregation` (oneof 1 count {1 up_to Int64Value}, 2 sum {1 field}, 3 avg {1 field};
/// 7 alias). Source: googleapis `query.proto`; docs/reference/grpc-and-listen.md §6.4; docs/reference/firestore-wire.md §1.6.
extension FirestoreProto {
    /// Decodes a StructuredAggregationQuery.
    ///
    /// Aggregations without an alias (Python sends `""`, docs/reference/grpc-and-listen.md §1.3 O14) are named
    /// `field_1`, `field_2`, … in order among the unnamed ones, as the emulator does. Their
    /// number and uniqueness are the engine's to check (`Aggregation.validate`), so a client
    /// reads the emulator's messages for them.
    /// - Throws: `.invalidValue` for a missing query, an aggregation without an operator,
    ///   `up_to` ≤ 0 (query.proto: "must be greater than zero when present").
    static func decodeAggregationQuery(_ reader: ProtoReader) throws(ProtoWireError)
        -> (query: StructuredQuery, aggregations: [Aggregation])
    {
        var r = reader
        let start = r.offset
        var query: StructuredQuery?
        var aggregations: [Aggregation] = []
        var unnamed = 0
        while let tag = try r.readTag() {
            switch (tag.fieldNumber, tag.wireType) {
            case (1, .len):
                query = try within("structured_query") { () throws(ProtoWireError) in try decodeStructuredQuery(r.readSubmessage()) }
            case (3, .len):
                let i = aggregations.count
                let (alias, kind) = try within("aggregations[\(i)]") { () throws(ProtoWireError) in try decodeAggregation(r.readSubmessage()) }
                let name: String
                if alias.isEmpty {
                    unnamed += 1
                    name = "field_\(unnamed)"
                } else {
                    name = alias
                }
                aggregations.append(Aggregation(alias: name, kind: kind))
            default: try r.skipField(tag)
            }
        }
        guard let query else {
            throw ProtoWireError(.invalidValue("structured_query is required."), offset: start, fieldPath: ["structured_query"])
        }
        return (query, aggregations)
    }

    /// Decodes one Aggregation into its alias as sent (maybe empty) and its kind.
    private static func decodeAggregation(_ reader: ProtoReader) throws(ProtoWireError) -> (String, Aggregation.Kind) {
        var r = reader
        let start = r.offset
        var alias = ""
        var kind: Aggregation.Kind?
        while let tag = try r.readTag() {
            switch (tag.fieldNumber, tag.wireType) {
            case (1, .len):
                kind = .count(upTo: try within("count") { () throws(ProtoWireError) in try decodeCount(r.readSubmessage()) })
            case (2, .len):
                kind = .sum(try within("sum") { () throws(ProtoWireError) in try decodeAggregationField(r.readSubmessage()) })
            case (3, .len):
                kind = .avg(try within("avg") { () throws(ProtoWireError) in try decodeAggregationField(r.readSubmessage()) })
            case (7, .len): alias = try within("alias") { () throws(ProtoWireError) in try r.readString() }
            default: try r.skipField(tag)
            }
        }
        guard let kind else {
            throw ProtoWireError(.invalidValue("Operator field in Aggregation is not set."), offset: start)
        }
        return (alias, kind)
    }

    /// Decodes Count (1 up_to Int64Value); absent up_to is nil.
    private static func decodeCount(_ reader: ProtoReader) throws(ProtoWireError) -> Int64? {
        var r = reader
        var upTo: Int64?
        while let tag = try r.readTag() {
            switch (tag.fieldNumber, tag.wireType) {
            case (1, .len):
                let at = r.offset
                let n = try within("up_to") { () throws(ProtoWireError) in try decodeInt64Value(r.readSubmessage()) }
                if let message = Aggregation.invalidUpToMessage(n) {
                    throw ProtoWireError(.invalidValue(message), offset: at, fieldPath: ["up_to"])
                }
                upTo = n
            default: try r.skipField(tag)
            }
        }
        return upTo
    }

    /// Decodes Sum/Avg (1 field FieldReference).
    private static func decodeAggregationField(_ reader: ProtoReader) throws(ProtoWireError) -> FieldPath {
        var r = reader
        let start = r.offset
        var field: FieldPath?
        while let tag = try r.readTag() {
            switch (tag.fieldNumber, tag.wireType) {
            case (1, .len): field = try within("field") { () throws(ProtoWireError) in try decodeFieldReference(r.readSubmessage()) }
            default: try r.skipField(tag)
            }
        }
        guard let field else {
            throw ProtoWireError(.invalidValue("Invalid empty property path string."), offset: start, fieldPath: ["field"])
        }
        return field
    }
}
