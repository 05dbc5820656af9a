import FirestoreModel

/// Protobuf written straight from a document's stored encoding (issue 14 item 1): the
/// `FieldsCodec` bytes are walked once and each `google.firestore.v1.Value` written, with no
/// `Value` tree. Version 2 bytes keep map entries in UTF-8 key order, which is the order of
/// protobuf's deterministic serialization; `encodeFields(_:field:into:)` sorts with
/// `String.<`, the same order for NFC keys (`ProtoTranscoderTests` holds the two to each other).
extension FirestoreProto {
    /// Writes the fields of `encoded` as repeated map entries of field number `field`, from its
    /// bytes when they are in key order (else, or if the bytes turn out corrupt, from the
    /// decoded fields).
    static func encodeFields(_ encoded: EncodedFields, field: Int, into w: inout ProtoWriter) {
        guard encoded.isOrdered else { return encodeFields(encoded.fields, field: field, into: &w) }
        let start = w.bytes.count
        var failed = false
        encoded.bytes.withUnsafeBytes { buffer in
            var reader = FieldsReader(buffer)
            do throws(FirestoreError) {
                try reader.version()
                try transcodeEntries(&reader, field: field, into: &w, failed: &failed)
            } catch {
                failed = true
            }
        }
        if failed {
            // Unreachable for validated bytes; the decoded form is the same message.
            w.truncate(to: start)
            encodeFields(encoded.fields, field: field, into: &w)
        }
    }

    /// Writes a stored count and its entries as map entries of `field`; a corrupt value below
    /// sets `failed` (the message closures cannot throw).
    private static func transcodeEntries(
        _ reader: inout FieldsReader, field: Int, into w: inout ProtoWriter, failed: inout Bool
    ) throws(FirestoreError) {
        let count = try reader.length()
        for _ in 0..<count where !failed {
            let key = try reader.slice()
            w.writeMessageField(field) { entry in
                entry.writeBytesField(1, key)
                entry.writeMessageField(2) { value in
                    do throws(FirestoreError) {
                        try transcodeValue(&reader, into: &value, failed: &failed)
                    } catch {
                        failed = true
                    }
                }
            }
        }
    }

    /// Writes one stored value as the fields of a Value message, as `encodeValue` does.
    private static func transcodeValue(
        _ reader: inout FieldsReader, into w: inout ProtoWriter, failed: inout Bool
    ) throws(FirestoreError) {
        switch try reader.byte() {
        case FieldsCodec.Tag.null: w.writeUInt64Field(11, 0)
        case FieldsCodec.Tag.falseValue: w.writeBoolField(1, false)
        case FieldsCodec.Tag.trueValue: w.writeBoolField(1, true)
        case FieldsCodec.Tag.integer:
            let z = try reader.varint()
            w.writeInt64Field(2, Int64(bitPattern: (z >> 1) ^ (0 &- (z & 1))))
        case FieldsCodec.Tag.double: w.writeDoubleField(3, Double(bitPattern: try reader.fixed64()))
        case FieldsCodec.Tag.timestamp:
            let z = try reader.varint()
            let nanos = try reader.varint()
            let t = Timestamp(seconds: Int64(bitPattern: (z >> 1) ^ (0 &- (z & 1))), nanos: Int32(truncatingIfNeeded: nanos))
            writeTimestampField(10, t, into: &w)
        case FieldsCodec.Tag.string: w.writeBytesField(17, try reader.slice())
        case FieldsCodec.Tag.bytes: w.writeBytesField(18, try reader.slice())
        case FieldsCodec.Tag.reference: w.writeBytesField(5, try reader.slice())
        case FieldsCodec.Tag.geoPoint:
            let latitude = Double(bitPattern: try reader.fixed64())
            let longitude = Double(bitPattern: try reader.fixed64())
            w.writeMessageField(8) { encodeLatLng(GeoPoint(latitude: latitude, longitude: longitude), into: &$0) }
        case FieldsCodec.Tag.array:
            let count = try reader.length()
            w.writeMessageField(9) { array in
                for _ in 0..<count where !failed {
                    array.writeMessageField(1) { element in
                        do throws(FirestoreError) {
                            try transcodeValue(&reader, into: &element, failed: &failed)
                        } catch {
                            failed = true
                        }
                    }
                }
            }
        case FieldsCodec.Tag.map:
            w.writeMessageField(6) { map in
                do throws(FirestoreError) {
                    try transcodeEntries(&reader, field: 1, into: &map, failed: &failed)
                } catch {
                    failed = true
                }
            }
        case let tag:
            throw .internalError("Stored value has unknown tag \(tag).")
        }
    }
}
