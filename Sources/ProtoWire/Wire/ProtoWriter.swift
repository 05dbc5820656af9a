/// Appends protobuf wire-format fields to a growing byte buffer.
///
/// A value type with no I/O: call the `write…Field` methods in ascending field order
/// (docs/reference/grpc-and-listen.md §5.2) and take `bytes`. The writer never omits anything on its own; the
/// caller decides proto3 presence (skip defaults of plain scalars, always write set oneof
/// arms and present messages, docs/reference/grpc-and-listen.md §5.2). Submessages are written in place:
/// `writeMessageField` reserves one length byte, lets the body append, then patches the
/// length (moving the body only when it is 128 bytes or longer).
/// Source: protobuf encoding guide; docs/reference/grpc-and-listen.md §5.1.
public struct ProtoWriter: Sendable {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8]

    /// Creates an empty writer.
    /// - Parameter capacity: bytes to reserve up front.
    public init(capacity: Int = 0) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Appends a base-128 varint (1…10 bytes).
    public mutating func writeVarint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    /// Appends a field key `fieldNumber << 3 | wireType`.
    public mutating func writeTag(_ fieldNumber: Int, _ wireType: ProtoWireType) {
        writeVarint(ProtoTag(fieldNumber: fieldNumber, wireType: wireType).rawValue)
    }

    /// Appends four bytes little-endian.
    public mutating func writeFixed32(_ value: UInt32) {
        for i in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt32(i)))) }
    }

    /// Appends eight bytes little-endian.
    public mutating func writeFixed64(_ value: UInt64) {
        for i in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(i)))) }
    }

    /// Appends a varint length followed by `payload`.
    public mutating func writeLengthDelimited(_ payload: some Collection<UInt8>) {
        writeVarint(UInt64(payload.count))
        bytes.append(contentsOf: payload)
    }

    /// Appends raw bytes (an already-encoded field or message body).
    public mutating func writeRaw(_ raw: some Sequence<UInt8>) { bytes.append(contentsOf: raw) }

    /// Appends a LEN field whose payload `body` writes into this writer.
    /// The length is patched in afterwards, so `body` may write any amount.
    public mutating func writeMessageField(_ fieldNumber: Int, _ body: (inout ProtoWriter) -> Void) {
        writeTag(fieldNumber, .len)
        let lengthAt = bytes.count
        bytes.append(0)
        let start = bytes.count
        body(&self)
        let length = bytes.count - start
        if length < 0x80 {
            bytes[lengthAt] = UInt8(length)
        } else {
            var prefix = ProtoWriter(capacity: 10)
            prefix.writeVarint(UInt64(length))
            bytes.replaceSubrange(lengthAt..<start, with: prefix.bytes)
        }
    }

    /// Appends a group (proto2 wire types 3 and 4): the start tag, what `body` writes, the end
    /// tag. Only the legacy messages of Datastore managed exports use groups (`ManagedExportEntity`).
    public mutating func writeGroup(_ fieldNumber: Int, _ body: (inout ProtoWriter) -> Void) {
        writeTag(fieldNumber, .startGroup)
        body(&self)
        writeTag(fieldNumber, .endGroup)
    }

        /// Drops everything written after the first `count` bytes (a writer that must start a
    /// part over). - Precondition: `count <= bytes.count`.
    public mutating func truncate(to count: Int) {
        bytes.removeSubrange(count...)
    }

    /// Encodes a signed integer with zigzag (`0→0, -1→1, 1→2, -2→3, …`) for `sint32`/`sint64`.
    public static func zigZagEncode(_ n: Int64) -> UInt64 { UInt64(bitPattern: (n << 1) ^ (n >> 63)) }
}
