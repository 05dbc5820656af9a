import FirestoreModel

/// `StructuredQuery` and its parts.
///
/// StructuredQuery: 1 select Projection {2 fields}, 2 from CollectionSelector {2 collection_id,
/// 3 all_descendants}, 3 where Filter, 4 order_by Order {1 field, 2 direction}, 7 start_at,
/// 8 end_at Cursor {1 values, 2 before}, 6 offset int32, 5 limit Int32Value, 9 find_nearest.
/// Filter (oneof): 1 composite_filter {1 op, 2 filters}, 2 field_filter {1 field, 2 op,
/// 3 value}, 3 unary_filter {1 op, 2 field}. FieldReference: 2 field_path.
/// Semantic checks (limits, cursor lengths, operand shapes) are `StructuredQuery.validate()`'s;
/// this layer rejects only what cannot be represented in the model.
/// Source: googleapis `query.proto`; docs/reference/grpc-and-listen.md §6.4; docs/reference/firestore-wire.md §1.5.
extension FirestoreProto {
    /// Decodes a StructuredQuery.
    ///
    /// `from` must hold exactly one selector; a `select` with no fields means every field
    /// (`select == nil`, per query.proto's Projection doc); `limit` present with value 0 is 0.
    /// - Throws: `.invalidValue` for zero or several selectors and malformed members;
    ///   `.unsupported` for `find_nearest`.
    static func decodeStructuredQuery(_ reader: ProtoReader) throws(ProtoWireError) -> StructuredQuery {
        var r = reader
        let start = r.offset
        var selectors: [(collectionID: String, allDescendants: Bool)] = []
        var query = StructuredQuery(collectionID: "")
        while let tag = try r.readTag() {
            switch (tag.fieldNumber, tag.wireType) {
            case (1, .len):
                let fields = try within("select") { () throws(ProtoWireError) in try decodeProjection(r.readSubmessage()) }
                query.select = fields.isEmpty ? nil : fields
            case (2, .len):
                selectors.append(
                    try within("from[\(selectors.count)]") { () throws(ProtoWireError) in try decodeCollectionSelector(r.readSubmessage()) })
            case (3, .len):
                query.filter = try within("where") { () throws(ProtoWireError) in try decodeFilter(r.readSubmessage()) }
            case (4, .len):
                let i = query.orderBy.count
                query.orderBy.append(try within("order_by[\(i)]") { () throws(ProtoWireError) in try decodeOrder(r.readSubmessage()) })
            case (7, .len):
                query.startAt = try within("start_at") { () throws(ProtoWireError) in try decodeCursor(r.readSubmessage()) }
            case (8, .len):
                query.endAt = try within("end_at") { () throws(ProtoWireError) in try decodeCursor(r.readSubmessage()) }
            case (6, .varint): query.offset = Int(try r.readInt32())
            case (5, .len):
                query.limit = Int(try within("limit") { () throws(ProtoWireError) in try decodeInt32Value(r.readSubmessage()) })
            case (9, _):
                throw ProtoWireError(.unsupported("find_nearest (vector search) is not supported."), offset: r.offset, fieldPath: ["find_nearest"])
            default: try r.skipField(tag)
            }
        }
        guard selectors.count == 1, let selector = selectors.first else {
            throw ProtoWireError(
                .invalidValue("a query needs exactly one collection selector; got \(selectors.count)."), offset: start,
                fieldPath: ["from"])
        }
        query.collectionID = selector.collectionID
        query.allDescendants = selector.allDescendants
        return query
    }

    /// Decodes a Projection (2 fields repeated FieldReference).
    static func decodeProjection(_ reader: ProtoReader) throws(ProtoWireError) -> [FieldPath] {
        var r = reader
        var fields: [FieldPath] = []
        while let tag = try r.readTag() {
            switch (tag.fieldNumber, tag.wireType) {
            case (2, .len):
                fields.append(try within("fields[\(fields.count)]") { () throws(ProtoWireError) in try decodeFieldReference(r.readSubmessage()) })
            default: try r.skipField(tag)
            }
        }
        return fields
    }

    /// Decodes a CollectionSelector (2 collection_id, 3 all_descendants).
    static func decodeCollectionSelector(_ reader: ProtoReader) throws(ProtoWireError) -> (collectionID: String, allDescendants: Bool) {
        var r = reader
        var id = ""
        var all = false
        while let tag = try r.readTag() {
            switch (tag.fieldNumber, tag.wireType) {
            case (2, .len): id = try within("collection_id") { () throws(ProtoWireError) in try r.readString() }
            case (3, .varint): all = try r.readBool()
            default: try r.skipField(tag)
            }
        }
        return (id, all)
    }

    /// Decodes a FieldReference (2 field_path) into a parsed field path.
    /// - Throws: `.invalidValue` for an empty or unparsable path.
    static func decodeFieldReference(_ reader: ProtoReader) throws(ProtoWireError) -> FieldPath {
        var r = reader
        let start = r.offset
        var text = ""
        var at = r.offset
        while let tag = try r.readTag() {
            switch (tag.fieldNumber, tag.wireType) {
            case (2, .len):
                at = r.offset
                text = try within("field_path") { () throws(ProtoWireError) in try r.readString() }
            default: try r.skipField(tag)
            }
        }
        guard !text.isEmpty else {
            throw ProtoWireError(.invalidValue("a field reference needs a field_path."), offset: start, fieldPath: ["field_path"])
        }
        return try within("field_path") { () throws(ProtoWireError) in
            try checked(at: at) { () throws(FirestoreError) in try FieldPath(parsing: text) }
        }
    }

    /// Decodes an Order; direction 0 (unspecified) is ascending.
    /// - Throws: `.invalidValue` for a missing field or an unknown direction.
    static func decodeOrder(_ reader: ProtoReader) throws(ProtoWireError) -> Order {
        var r = reader
        let start = r.offset
        var field: FieldPath?
        var direction = Direction.ascending
        while let tag = try r.readTag() {
            switch (tag.fieldNumber, tag.wireType) {
            case (1, .len): field = try within("field") { () throws(ProtoWireError) in try decodeFieldReference(r.readSubmessage()) }
            case (2, .varint):
                let at = r.offset
                switch try r.readInt32() {
                case 0, 1: direction = .ascending
                case 2: direction = .descending
                case let other:
                    throw ProtoWireError(.invalidValue("unknown direction \(other)."), offset: at, fieldPath: ["direction"])
                }
            default: try r.skipField(tag)
            }
        }
        guard let field else { throw ProtoWireError(.invalidValue("an order needs a field."), offset: start, fieldPath: ["field"]) }
        return Order(field, direction)
    }

    /// Decodes a Cursor (1 values, 2 before).
    static func decodeCursor(_ reader: ProtoReader) throws(ProtoWireError) -> Cursor {
        var r = reader
        var cursor = Cursor(values: [], before: false)
        while let tag = try r.readTag() {
            switch (tag.fieldNumber, tag.wireType) {
            case (1, .len):
                let i = cursor.values.count
                cursor.values.append(try within("values[\(i)]") { () throws(ProtoWireError) in try decodeValue(r.readSubmessage()) })
            case (2, .varint): cursor.before = try r.readBool()
            default: try r.skipField(tag)
            }
        }
        return cursor
    }

    /// Writes the fields of a Cursor (values, then `before` when true).
    static func encodeCursor(_ cursor: Cursor, into w: inout ProtoWriter) {
        for v in cursor.values { w.writeMessageField(1) { encodeValue(v, into: &$0) } }
        if cursor.before { w.writeBoolField(2, true) }
    }
}
