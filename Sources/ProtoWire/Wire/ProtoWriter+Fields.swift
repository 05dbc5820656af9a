/// Whole-field writers (tag plus payload) for proto3 scalar, string, bytes and packed fields.
///
/// Each writes unconditionally; callers skip proto3 defaults where presence allows it.
/// Negative `int32`/`int64`/enum values are sign-extended to 64 bits (10-byte varints), as
/// proto3 requires. Source: protobuf encoding guide; docs/reference/grpc-and-listen.md §5.1–§5.2.
extension ProtoWriter {
    /// Writes a VARINT field holding `value`.
    public mutating func writeUInt64Field(_ fieldNumber: Int, _ value: UInt64) {
        writeTag(fieldNumber, .varint)
        writeVarint(value)
    }

    /// Writes an `int64` field (two's complement varint).
    public mutating func writeInt64Field(_ fieldNumber: Int, _ value: Int64) {
        writeUInt64Field(fieldNumber, UInt64(bitPattern: value))
    }

    /// Writes an `int32` or enum field (sign-extended to 64 bits).
    public mutating func writeInt32Field(_ fieldNumber: Int, _ value: Int32) {
        writeUInt64Field(fieldNumber, UInt64(bitPattern: Int64(value)))
    }

    /// Writes a `sint64` field (zigzag).
    public mutating func writeSInt64Field(_ fieldNumber: Int, _ value: Int64) {
        writeUInt64Field(fieldNumber, ProtoWriter.zigZagEncode(value))
    }

    /// Writes a `bool` field (`0` or `1`).
    public mutating func writeBoolField(_ fieldNumber: Int, _ value: Bool) {
        writeUInt64Field(fieldNumber, value ? 1 : 0)
    }

    /// Writes a `double` field (I64, IEEE 754 bit pattern).
    public mutating func writeDoubleField(_ fieldNumber: Int, _ value: Double) {
        writeTag(fieldNumber, .i64)
        writeFixed64(value.bitPattern)
    }

    /// Writes a `fixed32` field (I32).
    public mutating func writeFixed32Field(_ fieldNumber: Int, _ value: UInt32) {
        writeTag(fieldNumber, .i32)
        writeFixed32(value)
    }

    /// Writes a `string` field (LEN, UTF-8).
    public mutating func writeStringField(_ fieldNumber: Int, _ value: String) {
        writeTag(fieldNumber, .len)
        var s = value
        s.withUTF8 { writeLengthDelimited($0) }
    }

    /// Writes a `bytes` field (LEN).
    public mutating func writeBytesField(_ fieldNumber: Int, _ value: some Collection<UInt8>) {
        writeTag(fieldNumber, .len)
        writeLengthDelimited(value)
    }

    /// Writes a packed repeated varint field (one LEN holding every value); nothing when
    /// `values` is empty, as proto3 encoders do.
    public mutating func writePackedVarintField(_ fieldNumber: Int, _ values: [UInt64]) {
        guard !values.isEmpty else { return }
        writeMessageField(fieldNumber) { w in
            for v in values { w.writeVarint(v) }
        }
    }

    /// Writes a packed repeated `int32` field (negative values sign-extended); nothing when empty.
    public mutating func writePackedInt32Field(_ fieldNumber: Int, _ values: [Int32]) {
        writePackedVarintField(fieldNumber, values.map { UInt64(bitPattern: Int64($0)) })
    }
}
