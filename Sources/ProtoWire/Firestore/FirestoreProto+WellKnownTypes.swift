import FirestoreModel

/// google.protobuf.Timestamp, Int32Value, Int64Value, google.type.LatLng, google.rpc.Status,
/// DocumentMask and `map<string, string>` labels.
/// Source: docs/reference/grpc-and-listen.md §5.3, §6.2; googleapis `google/rpc/status.proto`, `google/type/latlng.proto`.
extension FirestoreProto {
    // MARK: Timestamp (1 seconds int64, 2 nanos int32)

    /// Decodes a `google.protobuf.Timestamp`.
    /// - Throws: `.invalidValue` when it lies outside 0001-01-01…9999-12-31 or nanos is
    ///   outside 0…999,999,999.
    static func decodeTimestamp(_ reader: ProtoReader) throws(ProtoWireError) -> Timestamp {
        var r = reader
        let start = r.offset
        var t = Timestamp(seconds: 0, nanos: 0)
        while let tag = try r.readTag() {
            switch (tag.fieldNumber, tag.wireType) {
            case (1, .varint): t.seconds = try r.readInt64()
            case (2, .varint): t.nanos = try r.readInt32()
            default: try r.skipField(tag)
            }
        }
        guard t.isValid else {
            throw ProtoWireError(.invalidValue("timestamp out of range (seconds \(t.seconds), nanos \(t.nanos))."), offset: start)
        }
        return t
    }

    /// Writes the fields of a Timestamp (zero seconds / nanos omitted).
    static func encodeTimestamp(_ t: Timestamp, into w: inout ProtoWriter) {
        if t.seconds != 0 { w.writeInt64Field(1, t.seconds) }
        if t.nanos != 0 { w.writeInt32Field(2, t.nanos) }
    }

    /// Writes `field` as a Timestamp message.
    static func writeTimestampField(_ field: Int, _ t: Timestamp, into w: inout ProtoWriter) {
        w.writeMessageField(field) { encodeTimestamp(t, into: &$0) }
    }

    // MARK: LatLng (1 latitude double, 2 longitude double)

    /// Decodes a `google.type.LatLng` (ranges are the model's to check).
    static func decodeLatLng(_ reader: ProtoReader) throws(ProtoWireError) -> GeoPoint {
        var r = reader
        var g = GeoPoint(latitude: 0, longitude: 0)
        while let tag = try r.readTag() {
            switch (tag.fieldNumber, tag.wireType) {
            case (1, .i64): g.latitude = try r.readDouble()
            case (2, .i64): g.longitude = try r.readDouble()
            default: try r.skipField(tag)
            }
        }
        return g
    }

    /// Writes the fields of a LatLng; only +0.0 counts as the default (so -0.0 survives).
    static func encodeLatLng(_ g: GeoPoint, into w: inout ProtoWriter) {
        if g.latitude.bitPattern != 0 { w.writeDoubleField(1, g.latitude) }
        if g.longitude.bitPattern != 0 { w.writeDoubleField(2, g.longitude) }
    }

    // MARK: Wrappers (1 value)

    /// Decodes a `google.protobuf.Int32Value`; an empty message is 0.
    static func decodeInt32Value(_ reader: ProtoReader) throws(ProtoWireError) -> Int32 {
        var r = reader
        var v: Int32 = 0
        while let tag = try r.readTag() {
            if tag.fieldNumber == 1 && tag.wireType == .varint { v = try r.readInt32() } else { try r.skipField(tag) }
        }
        return v
    }

    /// Decodes a `google.protobuf.Int64Value`; an empty message is 0.
    static func decodeInt64Value(_ reader: ProtoReader) throws(ProtoWireError) -> Int64 {
        var r = reader
        var v: Int64 = 0
        while let tag = try r.readTag() {
            if tag.fieldNumber == 1 && tag.wireType == .varint { v = try r.readInt64() } else { try r.skipField(tag) }
        }
        return v
    }

    // MARK: google.rpc.Status (1 code int32, 2 message string, 3 details repeated Any)

    /// Writes the fields of a `google.rpc.Status` for `error` (nil = OK, an empty message).
    static func encodeStatus(_ error: FirestoreError?, into w: inout ProtoWriter) {
        guard let error else { return }
        if error.code != .ok { w.writeInt32Field(1, Int32(error.code.rawValue)) }
        if !error.message.isEmpty { w.writeStringField(2, error.message) }
    }

    /// Serializes a `google.rpc.Status` (e.g. for `grpc-status-details-bin`).
    public static func serializedStatus(_ error: FirestoreError) -> [UInt8] {
        var w = ProtoWriter()
        encodeStatus(error, into: &w)
        return w.bytes
    }

    // MARK: DocumentMask (1 field_paths repeated string)

    /// Decodes a `DocumentMask` into field paths (dotted, back-quoted segments).
    /// - Throws: `.invalidValue` for an unparsable path.
    static func decodeDocumentMask(_ reader: ProtoReader) throws(ProtoWireError) -> [FieldPath] {
        var r = reader
        var paths: [FieldPath] = []
        while let tag = try r.readTag() {
            switch (tag.fieldNumber, tag.wireType) {
            case (1, .len):
                let at = r.offset
                let text = try r.readString()
                let path = try within("field_paths[\(paths.count)]") { () throws(ProtoWireError) in
                    try checked(at: at) { () throws(FirestoreError) in try FieldPath(parsing: text) }
                }
                paths.append(path)
            default: try r.skipField(tag)
            }
        }
        return paths
    }

    // MARK: map<string, string>

    /// Decodes one `map<string, string>` entry (1 key, 2 value) into `map`; last wins.
    static func decodeStringMapEntry(_ reader: ProtoReader, into map: inout [String: String]) throws(ProtoWireError) {
        var r = reader
        var key = ""
        var value = ""
        while let tag = try r.readTag() {
            switch (tag.fieldNumber, tag.wireType) {
            case (1, .len): key = try r.readString()
            case (2, .len): value = try r.readString()
            default: try r.skipField(tag)
            }
        }
        map[key] = value
    }
}
