import FirestoreModel
import GoogleWire

/// `StructuredQuery` and its parts in proto3 JSON. Source: googleapis `query.proto`; docs/reference/firestore-wire.md §1.5.
extension RESTCodec {
    /// Decodes a `StructuredQuery`.
    ///
    /// `from` must hold exactly one selector; `select` with no fields means every field
    /// (`StructuredQuery.select == nil`); `direction` by name or number, unspecified =
    /// ascending; `limit` as a number, a string or an `Int32Value` object `{"value": n}`.
    /// Semantic checks (negative limits, cursor lengths, operand shapes) are
    /// `StructuredQuery.validate()`'s.
    /// - Throws: `.invalidArgument` for malformed members; `.unimplemented` for `findNearest`.
    public static func decodeStructuredQuery(_ json: JSONValue, at path: String = "structuredQuery")
        throws(FirestoreError) -> StructuredQuery
    {
        var reader = try JSONObjectReader(json, at: path)
        let select = reader.take("select")
        let from = reader.take("from")
        let whereJSON = reader.take("where")
        let orderBy = reader.take("orderBy")
        let startAt = reader.take("startAt")
        let endAt = reader.take("endAt")
        let offset = reader.take("offset")
        let limit = reader.take("limit")
        let findNearest = reader.take("findNearest")
        try reader.finish()
        if findNearest != nil {
            throw FirestoreError(.unimplemented, "findNearest (vector search) is not supported.")
        }

        guard let from else { throw invalid(reader.child("from"), "a query needs exactly one collection selector.") }
        let selectors = try array(from, at: reader.child("from"))
        guard selectors.count == 1 else {
            throw invalid(reader.child("from"), "a query needs exactly one collection selector; got \(selectors.count).")
        }
        var s = try JSONObjectReader(selectors[0], at: reader.child("from") + "[0]")
        let collectionID = try s.take("collectionId").map { (v) throws(FirestoreError) in try string(v, at: s.child("collectionId")) } ?? ""
        let allDescendants = try s.take("allDescendants").map { (v) throws(FirestoreError) in try bool(v, at: s.child("allDescendants")) } ?? false
        try s.finish()

        var query = StructuredQuery(collectionID: collectionID, allDescendants: allDescendants)
        if let select {
            var p = try JSONObjectReader(select, at: reader.child("select"))
            let fields = p.take("fields")
            try p.finish()
            var paths: [FieldPath] = []
            if let fields {
                for (i, f) in try array(fields, at: p.child("fields")).enumerated() {
                    paths.append(try decodeFieldReference(f, at: p.child("fields") + "[\(i)]"))
                }
            }
            query.select = paths.isEmpty ? nil : paths
        }
        if let whereJSON { query.filter = try decodeFilter(whereJSON, at: reader.child("where")) }
        if let orderBy {
            for (i, o) in try array(orderBy, at: reader.child("orderBy")).enumerated() {
                query.orderBy.append(try decodeOrder(o, at: reader.child("orderBy") + "[\(i)]"))
            }
        }
        if let startAt { query.startAt = try decodeCursor(startAt, at: reader.child("startAt")) }
        if let endAt { query.endAt = try decodeCursor(endAt, at: reader.child("endAt")) }
        if let offset { query.offset = Int(try decodeInt32(offset, at: reader.child("offset"))) }
        if let limit {
            var limitJSON = limit
            if case .object = limit {
                var w = try JSONObjectReader(limit, at: reader.child("limit"))
                limitJSON = w.take("value") ?? .number("0")
                try w.finish()
            }
            query.limit = Int(try decodeInt32(limitJSON, at: reader.child("limit")))
        }
        return query
    }

    /// A `Filter`: exactly one of `compositeFilter`, `fieldFilter`, `unaryFilter`.
    /// - Throws: `.invalidArgument` for zero or several kinds, unknown operators or bad operands.
    public static func decodeFilter(_ json: JSONValue, at path: String = "where") throws(FirestoreError) -> Filter {
        var reader = try JSONObjectReader(json, at: path)
        let composite = reader.take("compositeFilter")
        let field = reader.take("fieldFilter")
        let unary = reader.take("unaryFilter")
        try reader.finish()
        let kinds = [("compositeFilter", composite), ("fieldFilter", field), ("unaryFilter", unary)].filter { $0.1 != nil }
        guard kinds.count == 1 else {
            if kinds.isEmpty { throw invalid(path, "a filter must set one of compositeFilter, fieldFilter, unaryFilter.") }
            throw invalid(path, "a filter must set exactly one kind; got \(kinds.map(\.0).joined(separator: " and ")).")
        }
        if let composite {
            var c = try JSONObjectReader(composite, at: reader.child("compositeFilter"))
            let op = c.take("op")
            let filters = c.take("filters")
            try c.finish()
            guard let op else { throw invalid(c.child("op"), "a composite filter needs an operator.") }
            let compositeOp = try enumValue(op, at: c.child("op"), [("AND", 1, CompositeOperator.and), ("OR", 2, .or)])
            var children: [Filter] = []
            if let filters {
                for (i, f) in try array(filters, at: c.child("filters")).enumerated() {
                    children.append(try decodeFilter(f, at: c.child("filters") + "[\(i)]"))
                }
            }
            return .composite(compositeOp, children)
        }
        if let field {
            var f = try JSONObjectReader(field, at: reader.child("fieldFilter"))
            let ref = f.take("field")
            let op = f.take("op")
            let value = f.take("value")
            try f.finish()
            guard let ref else { throw invalid(f.child("field"), "a field filter needs a field.") }
            guard let op else { throw invalid(f.child("op"), "a field filter needs an operator.") }
            guard let value else { throw invalid(f.child("value"), "a field filter needs a value.") }
            let cases: [(String, Int64, FieldOperator)] = [
                ("LESS_THAN", 1, .lessThan), ("LESS_THAN_OR_EQUAL", 2, .lessThanOrEqual), ("GREATER_THAN", 3, .greaterThan),
                ("GREATER_THAN_OR_EQUAL", 4, .greaterThanOrEqual), ("EQUAL", 5, .equal), ("NOT_EQUAL", 6, .notEqual),
                ("ARRAY_CONTAINS", 7, .arrayContains), ("IN", 8, .in), ("ARRAY_CONTAINS_ANY", 9, .arrayContainsAny),
                ("NOT_IN", 10, .notIn),
            ]
            return .field(
                try decodeFieldReference(ref, at: f.child("field")), try enumValue(op, at: f.child("op"), cases),
                try decodeValue(value, at: f.child("value")))
        }
        var u = try JSONObjectReader(unary ?? .object([]), at: reader.child("unaryFilter"))
        let ref = u.take("field")
        let op = u.take("op")
        try u.finish()
        guard let ref else { throw invalid(u.child("field"), "a unary filter needs a field.") }
        guard let op else { throw invalid(u.child("op"), "a unary filter needs an operator.") }
        let unaryOp = try enumValue(
            op, at: u.child("op"),
            [("IS_NAN", 2, UnaryOperator.isNaN), ("IS_NULL", 3, .isNull), ("IS_NOT_NAN", 4, .isNotNaN), ("IS_NOT_NULL", 5, .isNotNull)])
        return .unary(try decodeFieldReference(ref, at: u.child("field")), unaryOp)
    }

    /// An `Order` `{field, direction?}`; direction `ASCENDING`/1, `DESCENDING`/2, or
    /// unspecified (absent, `DIRECTION_UNSPECIFIED`, 0) = ascending.
    /// - Throws: `.invalidArgument` for a missing field or an unknown direction.
    public static func decodeOrder(_ json: JSONValue, at path: String) throws(FirestoreError) -> Order {
        var reader = try JSONObjectReader(json, at: path)
        let field = reader.take("field")
        let direction = reader.take("direction")
        try reader.finish()
        guard let field else { throw invalid(reader.child("field"), "an order needs a field.") }
        var d = Direction.ascending
        if let direction {
            d = try enumValue(
                direction, at: reader.child("direction"),
                [("DIRECTION_UNSPECIFIED", 0, Direction.ascending), ("ASCENDING", 1, .ascending), ("DESCENDING", 2, .descending)])
        }
        return Order(try decodeFieldReference(field, at: reader.child("field")), d)
    }

    /// A `Cursor` `{values?: [Value], before?: bool}`.
    /// - Throws: `.invalidArgument` for malformed members.
    public static func decodeCursor(_ json: JSONValue, at path: String) throws(FirestoreError) -> Cursor {
        var reader = try JSONObjectReader(json, at: path)
        let values = reader.take("values")
        let before = reader.take("before")
        try reader.finish()
        var out: [Value] = []
        if let values {
            for (i, v) in try array(values, at: reader.child("values")).enumerated() {
                out.append(try decodeValue(v, at: reader.child("values") + "[\(i)]"))
            }
        }
        return Cursor(values: out, before: try before.map { (b) throws(FirestoreError) in try bool(b, at: reader.child("before")) } ?? false)
    }
}
