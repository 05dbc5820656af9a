import FirestoreModel

/// `Filter` (oneof filter_type: 1 composite_filter, 2 field_filter, 3 unary_filter).
/// Operators: CompositeFilter 1 AND, 2 OR; FieldFilter 1 `<` … 10 NOT_IN; UnaryFilter
/// 2 IS_NAN, 3 IS_NULL, 4 IS_NOT_NAN, 5 IS_NOT_NULL. Value 0 (unspecified) is rejected.
/// Source: googleapis `query.proto`; docs/reference/grpc-and-listen.md §6.4.
extension FirestoreProto {
    /// The FieldFilter.Operator numbers, index = wire value.
    private static let fieldOperators: [FieldOperator?] = [
        nil, .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual, .equal, .notEqual, .arrayContains, .in,
        .arrayContainsAny, .notIn,
    ]

    /// The UnaryFilter.Operator numbers, index = wire value (1 is unused).
    private static let unaryOperators: [UnaryOperator?] = [nil, nil, .isNaN, .isNull, .isNotNaN, .isNotNull]

    /// Decodes a Filter.
    /// - Throws: `.invalidValue` when no arm is set, for unknown or unspecified operators,
    ///   and for a field or unary filter without a field or a field filter without a value.
    static func decodeFilter(_ reader: ProtoReader) throws(ProtoWireError) -> Filter {
        var r = reader
        let start = r.offset
        var filter: Filter?
        while let tag = try r.readTag() {
            switch (tag.fieldNumber, tag.wireType) {
            case (1, .len):
                filter = try within("composite_filter") { () throws(ProtoWireError) in try decodeCompositeFilter(r.readSubmessage()) }
            case (2, .len):
                filter = try within("field_filter") { () throws(ProtoWireError) in try decodeFieldFilter(r.readSubmessage()) }
            case (3, .len):
                filter = try within("unary_filter") { () throws(ProtoWireError) in try decodeUnaryFilter(r.readSubmessage()) }
            default: try r.skipField(tag)
            }
        }
        guard let filter else {
            throw ProtoWireError(.invalidValue("a filter must set one of composite_filter, field_filter, unary_filter."), offset: start)
        }
        return filter
    }

    private static func decodeCompositeFilter(_ reader: ProtoReader) throws(ProtoWireError) -> Filter {
        var r = reader
        let start = r.offset
        var op: Int32 = 0
        var filters: [Filter] = []
        while let tag = try r.readTag() {
            switch (tag.fieldNumber, tag.wireType) {
            case (1, .varint): op = try r.readInt32()
            case (2, .len):
                filters.append(try within("filters[\(filters.count)]") { () throws(ProtoWireError) in try decodeFilter(r.readSubmessage()) })
            default: try r.skipField(tag)
            }
        }
        switch op {
        case 1: return .composite(.and, filters)
        case 2: return .composite(.or, filters)
        default:
            throw ProtoWireError(.invalidValue("unknown composite operator \(op)."), offset: start, fieldPath: ["op"])
        }
    }

    private static func decodeFieldFilter(_ reader: ProtoReader) throws(ProtoWireError) -> Filter {
        var r = reader
        let start = r.offset
        var field: FieldPath?
        var op: Int32 = 0
        var value: Value?
        while let tag = try r.readTag() {
            switch (tag.fieldNumber, tag.wireType) {
            case (1, .len): field = try within("field") { () throws(ProtoWireError) in try decodeFieldReference(r.readSubmessage()) }
            case (2, .varint): op = try r.readInt32()
            case (3, .len): value = try within("value") { () throws(ProtoWireError) in try decodeValue(r.readSubmessage()) }
            default: try r.skipField(tag)
            }
        }
        guard let field else { throw ProtoWireError(.invalidValue("a field filter needs a field."), offset: start, fieldPath: ["field"]) }
        guard op > 0, Int(op) < fieldOperators.count, let fieldOp = fieldOperators[Int(op)] else {
            throw ProtoWireError(.invalidValue("unknown field filter operator \(op)."), offset: start, fieldPath: ["op"])
        }
        guard let value else { throw ProtoWireError(.invalidValue("a field filter needs a value."), offset: start, fieldPath: ["value"]) }
        return .field(field, fieldOp, value)
    }

    private static func decodeUnaryFilter(_ reader: ProtoReader) throws(ProtoWireError) -> Filter {
        var r = reader
        let start = r.offset
        var field: FieldPath?
        var op: Int32 = 0
        while let tag = try r.readTag() {
            switch (tag.fieldNumber, tag.wireType) {
            case (1, .varint): op = try r.readInt32()
            case (2, .len): field = try within("field") { () throws(ProtoWireError) in try decodeFieldReference(r.readSubmessage()) }
            default: try r.skipField(tag)
            }
        }
        guard op > 0, Int(op) < unaryOperators.count, let unaryOp = unaryOperators[Int(op)] else {
            throw ProtoWireError(.invalidValue("unknown unary filter operator \(op)."), offset: start, fieldPath: ["op"])
        }
        guard let field else { throw ProtoWireError(.invalidValue("a unary filter needs a field."), offset: start, fieldPath: ["field"]) }
        return .unary(field, unaryOp)
    }
}
