import FirestoreModel
import GoogleWire

/// REST JSON written straight from a document's stored encoding (issue 14 item 1): the bytes
/// `FieldsCodec` stores are walked once and each value's JSON appended, with no `Value` tree
/// and no sort (version 2 keeps every map's entries in UTF-8 key order, the order
/// `writeFields` writes). The output is byte for byte what `writeFields(_:into:)` writes for
/// the decoded fields (`RESTTranscoderTests` holds the two to each other).
extension RESTCodec {
    /// Appends `writeFields(encoded.fields)`, read from `encoded.bytes` when they are in key
    /// order (else, or if the bytes turn out corrupt, from the decoded fields).
    static func writeFields(_ encoded: EncodedFields, into out: inout [UInt8]) {
        guard encoded.isOrdered else { return writeFields(encoded.fields, into: &out) }
        let start = out.count
        let written = encoded.bytes.withUnsafeBytes { buffer -> Bool in
            var reader = FieldsReader(buffer)
            do throws(FirestoreError) {
                try reader.version()
                try transcodeEntries(&reader, into: &out)
                return true
            } catch {
                return false
            }
        }
        if !written {
            // Unreachable for validated bytes; the decoded form answers the same JSON.
            out.removeSubrange(start...)
            writeFields(encoded.fields, into: &out)
        }
    }

    /// Appends a count and its entries as a JSON object.
    private static func transcodeEntries(_ reader: inout FieldsReader, into out: inout [UInt8]) throws(FirestoreError) {
        out.append(UInt8(ascii: "{"))
        let count = try reader.length()
        for i in 0..<count {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            JSONValue.writeString(utf8: try reader.slice(), into: &out)
            out.append(UInt8(ascii: ":"))
            try transcodeValue(&reader, into: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// Appends one stored value as `writeValue` writes it.
    private static func transcodeValue(_ reader: inout FieldsReader, into out: inout [UInt8]) throws(FirestoreError) {
        switch try reader.byte() {
        case FieldsCodec.Tag.null: out.append(literal: #"{"nullValue":null}"#)
        case FieldsCodec.Tag.falseValue: out.append(literal: #"{"booleanValue":false}"#)
        case FieldsCodec.Tag.trueValue: out.append(literal: #"{"booleanValue":true}"#)
        case FieldsCodec.Tag.integer:
            let z = try reader.varint()
            out.append(literal: #"{"integerValue":""#)
            DecimalText.append(Int64(bitPattern: (z >> 1) ^ (0 &- (z & 1))), to: &out)
            out.append(literal: #""}"#)
        case FieldsCodec.Tag.double:
            out.append(literal: #"{"doubleValue":"#)
            writeDouble(Double(bitPattern: try reader.fixed64()), into: &out)
            out.append(UInt8(ascii: "}"))
        case FieldsCodec.Tag.timestamp:
            let z = try reader.varint()
            let nanos = try reader.varint()
            out.append(literal: #"{"timestampValue":""#)
            Timestamp(seconds: Int64(bitPattern: (z >> 1) ^ (0 &- (z & 1))), nanos: Int32(truncatingIfNeeded: nanos))
                .appendRFC3339(to: &out)
            out.append(literal: #""}"#)
        case FieldsCodec.Tag.string:
            out.append(literal: #"{"stringValue":"#)
            JSONValue.writeString(utf8: try reader.slice(), into: &out)
            out.append(UInt8(ascii: "}"))
        case FieldsCodec.Tag.bytes:
            out.append(literal: #"{"bytesValue":"#)
            JSONValue.writeString(Base64.encode(Array(try reader.slice())), into: &out)
            out.append(UInt8(ascii: "}"))
        case FieldsCodec.Tag.reference:
            out.append(literal: #"{"referenceValue":"#)
            JSONValue.writeString(utf8: try reader.slice(), into: &out)
            out.append(UInt8(ascii: "}"))
        case FieldsCodec.Tag.geoPoint:
            let latitude = Double(bitPattern: try reader.fixed64())
            let longitude = Double(bitPattern: try reader.fixed64())
            writeValue(.geoPoint(GeoPoint(latitude: latitude, longitude: longitude)), into: &out)
        case FieldsCodec.Tag.array:
            let count = try reader.length()
            if count == 0 {
                out.append(literal: #"{"arrayValue":{}}"#)
                return
            }
            out.append(literal: #"{"arrayValue":{"values":["#)
            for i in 0..<count {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                try transcodeValue(&reader, into: &out)
            }
            out.append(literal: "]}}")
        case FieldsCodec.Tag.map:
            // An empty map is the count byte 0.
            var probe = reader
            if try probe.length() == 0 {
                reader = probe
                out.append(literal: #"{"mapValue":{}}"#)
                return
            }
            out.append(literal: #"{"mapValue":{"fields":"#)
            try transcodeEntries(&reader, into: &out)
            out.append(literal: "}}")
        case let tag:
            throw .internalError("Stored value has unknown tag \(tag).")
        }
    }
}
