/// Typed readers for proto3 scalar fields on top of the raw wire reads.
///
/// Integer conversions follow the protobuf language guide: int32/enum fields are read as a
/// 64-bit varint and truncated (negative values arrive sign-extended to 10 bytes); sint
/// fields are zigzag-decoded; any non-zero varint is `true`. Source: protobuf encoding guide;
/// docs/reference/grpc-and-listen.md §5.1.
extension ProtoReader {
    /// Reads a `bool` (VARINT; non-zero is true).
    /// - Throws: as `readVarint()`.
    public mutating func readBool() throws(ProtoWireError) -> Bool { try readVarint() != 0 }

    /// Reads an `int64` (VARINT, two's complement).
    /// - Throws: as `readVarint()`.
    public mutating func readInt64() throws(ProtoWireError) -> Int64 { Int64(bitPattern: try readVarint()) }

    /// Reads an `int32` or enum (VARINT, truncated to the low 32 bits).
    /// - Throws: as `readVarint()`.
    public mutating func readInt32() throws(ProtoWireError) -> Int32 { Int32(truncatingIfNeeded: try readVarint()) }

    /// Reads a `uint64` (VARINT).
    /// - Throws: as `readVarint()`.
    public mutating func readUInt64() throws(ProtoWireError) -> UInt64 { try readVarint() }

    /// Reads a `uint32` (VARINT, truncated to the low 32 bits).
    /// - Throws: as `readVarint()`.
    public mutating func readUInt32() throws(ProtoWireError) -> UInt32 { UInt32(truncatingIfNeeded: try readVarint()) }

    /// Reads a `sint64` (zigzag VARINT).
    /// - Throws: as `readVarint()`.
    public mutating func readSInt64() throws(ProtoWireError) -> Int64 { ProtoReader.zigZagDecode(try readVarint()) }

    /// Reads a `sint32` (zigzag VARINT, truncated to 32 bits).
    /// - Throws: as `readVarint()`.
    public mutating func readSInt32() throws(ProtoWireError) -> Int32 {
        Int32(truncatingIfNeeded: ProtoReader.zigZagDecode(try readVarint()))
    }

    /// Reads a `double` (I64, IEEE 754 bit pattern; NaN payloads and -0.0 are kept).
    /// - Throws: as `readFixed64()`.
    public mutating func readDouble() throws(ProtoWireError) -> Double { Double(bitPattern: try readFixed64()) }

    /// Reads a `float` (I32, IEEE 754 bit pattern).
    /// - Throws: as `readFixed32()`.
    public mutating func readFloat() throws(ProtoWireError) -> Float { Float(bitPattern: try readFixed32()) }

    /// Reads a `string` (LEN, UTF-8).
    ///
    /// All-ASCII payloads (the common case: names, keys) skip full validation, which is
    /// about three times slower than decoding; anything else is validated strictly.
    /// - Throws: as `readLengthDelimited()`; `.invalidUTF8` when the bytes are not UTF-8.
    public mutating func readString() throws(ProtoWireError) -> String {
        let start = offset
        let slice = try readLengthDelimited()
        let decoded: String? = slice.withUnsafeBufferPointer { buffer in
            var high: UInt8 = 0
            for b in buffer { high |= b }
            return high < 0x80 ? String(decoding: buffer, as: UTF8.self) : String(validating: buffer, as: UTF8.self)
        }
        guard let s = decoded else { throw ProtoWireError(.invalidUTF8, offset: start) }
        return s
    }

    /// Reads a `bytes` field (LEN), copied out of the buffer.
    /// - Throws: as `readLengthDelimited()`.
    public mutating func readBytes() throws(ProtoWireError) -> [UInt8] { Array(try readLengthDelimited()) }

    /// Reads one occurrence of a repeated varint field in either encoding: packed (LEN of
    /// back-to-back varints) or unpacked (a single VARINT), appending to `values`.
    /// Other wire types are skipped as unknown. Source: docs/reference/grpc-and-listen.md §5.2 (accept both forms).
    /// - Throws: as `readVarint()`/`readLengthDelimited()`.
    public mutating func readRepeatedVarint(_ tag: ProtoTag, into values: inout [UInt64]) throws(ProtoWireError) {
        switch tag.wireType {
        case .varint:
            values.append(try readVarint())
        case .len:
            var packed = try readPackedPayload()
            while !packed.isAtEnd { values.append(try packed.readVarint()) }
        default:
            try skipField(tag)
        }
    }

    /// Reads one occurrence of a repeated `int32` field, packed or unpacked (see
    /// `readRepeatedVarint`), appending the truncated values to `values`.
    /// - Throws: as `readRepeatedVarint`.
    public mutating func readRepeatedInt32(_ tag: ProtoTag, into values: inout [Int32]) throws(ProtoWireError) {
        var raw: [UInt64] = []
        try readRepeatedVarint(tag, into: &raw)
        values.append(contentsOf: raw.lazy.map { Int32(truncatingIfNeeded: $0) })
    }

    /// Decodes a zigzag-encoded signed integer (`0→0, 1→-1, 2→1, 3→-2, …`).
    public static func zigZagDecode(_ n: UInt64) -> Int64 { Int64(bitPattern: (n >> 1) ^ (0 &- (n & 1))) }
}
