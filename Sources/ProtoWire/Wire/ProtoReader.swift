/// Reads protobuf wire-format fields from a byte buffer: tags, varints, fixed-width values
/// and length-delimited payloads, with strict bounds checks.
///
/// A value type you feed bytes to and pull fields from; no I/O. Every malformed input —
/// truncation, varints over 10 bytes, lengths past the end, field number 0, wire types
/// 3/4 (groups, unless `acceptsGroups`) and 6/7, nesting deeper than `maxDepth` — throws `ProtoWireError`, never
/// traps. `read*` consumes. A submessage is read through a child reader that shares the
/// buffer (no copy) and is bounded by the submessage's length.
///
/// Typical loop:
/// ```
/// while let tag = try reader.readTag() {
///     switch (tag.fieldNumber, tag.wireType) {
///     case (1, .len): name = try reader.readString()
///     default: try reader.skipField(tag)
///     }
/// }
/// ```
/// Source: protobuf encoding guide; docs/reference/grpc-and-listen.md §5.1–§5.2.
public struct ProtoReader: Sendable {
    /// The nesting limit used unless another is given (protobuf's default recursion limit).
    public static let defaultMaxDepth = 100

    private let bytes: [UInt8]
    private var position: Int
    private let end: Int
    /// How many submessages deep this reader is (0 for the outermost message).
    public let depth: Int
    /// The deepest submessage level `readSubmessage()` will open.
    public let maxDepth: Int
    /// True when groups (wire types 3 and 4) are read rather than rejected: the legacy
    /// proto2 messages of Datastore managed exports use them (`ManagedExportEntity`).
    public let acceptsGroups: Bool

    /// Creates a reader over a whole serialized message.
    /// - Parameter maxDepth: how many levels of submessages may be opened (≥ 0).
    /// - Parameter acceptsGroups: read start-group tags (then `readGroup()`) instead of
    ///   throwing `.groupNotSupported`; child readers inherit it.
    public init(_ bytes: [UInt8], maxDepth: Int = ProtoReader.defaultMaxDepth, acceptsGroups: Bool = false) {
        self.init(bytes: bytes, position: 0, end: bytes.count, depth: 0, maxDepth: maxDepth, acceptsGroups: acceptsGroups)
    }

    private init(bytes: [UInt8], position: Int, end: Int, depth: Int, maxDepth: Int, acceptsGroups: Bool = false) {
        self.bytes = bytes
        self.position = position
        self.end = end
        self.depth = depth
        self.maxDepth = maxDepth
        self.acceptsGroups = acceptsGroups
    }

    /// Byte offset of the next unread byte, counted from the start of the outermost buffer.
    public var offset: Int { position }

    /// True when every byte of this message has been consumed.
    public var isAtEnd: Bool { position >= end }

    /// Bytes of this message not yet consumed.
    public var remainingByteCount: Int { end - position }

    /// Reads the next field's tag, or returns nil at the end of the message.
    /// - Throws: `.truncated`/`.overlongVarint` for a bad key varint, `.invalidFieldNumber`
    ///   for field 0 or above 2²⁹ − 1, `.groupNotSupported` for wire types 3/4 (for a start
    ///   group only when `acceptsGroups` is false; an end group is never returned, since
    ///   `readGroup()` consumes it), `.invalidWireType` for 6/7.
    public mutating func readTag() throws(ProtoWireError) -> ProtoTag? {
        guard position < end else { return nil }
        let start = position
        let key = try readVarint()
        let fieldNumber = key >> 3
        guard fieldNumber >= 1, fieldNumber <= UInt64(ProtoTag.maxFieldNumber) else {
            throw ProtoWireError(.invalidFieldNumber(fieldNumber), offset: start)
        }
        let rawType = UInt8(key & 7)
        guard let wireType = ProtoWireType(rawValue: rawType) else {
            throw ProtoWireError(.invalidWireType(rawType), offset: start)
        }
        if wireType == .endGroup || (wireType == .startGroup && !acceptsGroups) {
            throw ProtoWireError(.groupNotSupported(fieldNumber: Int(fieldNumber)), offset: start)
        }
        return ProtoTag(fieldNumber: Int(fieldNumber), wireType: wireType)
    }

    /// Reads a base-128 varint (1…10 bytes, least significant group first).
    /// - Throws: `.truncated` when the input ends inside it; `.overlongVarint` when it has
    ///   more than 10 bytes or its 10th byte sets bits above bit 63.
    public mutating func readVarint() throws(ProtoWireError) -> UInt64 {
        let start = position
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard position < end else { throw ProtoWireError(.truncated, offset: start) }
            let byte = bytes[position]
            position += 1
            if shift == 63 {
                guard byte <= 1 else { throw ProtoWireError(.overlongVarint, offset: start) }
                return result | UInt64(byte) << 63
            }
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift += 7
        }
    }

    /// Reads four bytes little-endian (I32 payload).
    /// - Throws: `.truncated` when fewer than 4 bytes are left.
    public mutating func readFixed32() throws(ProtoWireError) -> UInt32 {
        guard end - position >= 4 else { throw ProtoWireError(.truncated, offset: position) }
        var v: UInt32 = 0
        for i in 0..<4 { v |= UInt32(bytes[position + i]) << (8 * UInt32(i)) }
        position += 4
        return v
    }

    /// Reads eight bytes little-endian (I64 payload).
    /// - Throws: `.truncated` when fewer than 8 bytes are left.
    public mutating func readFixed64() throws(ProtoWireError) -> UInt64 {
        guard end - position >= 8 else { throw ProtoWireError(.truncated, offset: position) }
        var v: UInt64 = 0
        for i in 0..<8 { v |= UInt64(bytes[position + i]) << (8 * UInt64(i)) }
        position += 8
        return v
    }

    /// Reads a LEN payload: a varint length, then that many bytes (returned without copying).
    /// - Throws: `.truncated`/`.overlongVarint` for the length; `.lengthExceedsInput` when it
    ///   runs past the end of this message.
    public mutating func readLengthDelimited() throws(ProtoWireError) -> ArraySlice<UInt8> {
        let range = try readLengthDelimitedRange()
        return bytes[range]
    }

    /// Reads a LEN payload as an embedded message: a reader bounded to it, one level deeper.
    /// - Throws: as `readLengthDelimited()`; `.nestingTooDeep` when `depth + 1 > maxDepth`.
    public mutating func readSubmessage() throws(ProtoWireError) -> ProtoReader {
        let start = position
        let range = try readLengthDelimitedRange()
        guard depth < maxDepth else { throw ProtoWireError(.nestingTooDeep(limit: maxDepth), offset: start) }
        return ProtoReader(
            bytes: bytes, position: range.lowerBound, end: range.upperBound, depth: depth + 1, maxDepth: maxDepth,
            acceptsGroups: acceptsGroups)
    }

    /// Reads the body of a group whose start tag (field `fieldNumber`) was just read: a reader
    /// bounded to the fields before the matching end tag, one level deeper; this reader
    /// continues after the end tag. Nested groups are matched, not confused with the end.
    /// - Throws: `.truncated` when the end tag is missing, `.groupNotSupported` for an end tag
    ///   of another field, `.nestingTooDeep` past `maxDepth`, and the errors of the fields inside.
    public mutating func readGroup(_ fieldNumber: Int) throws(ProtoWireError) -> ProtoReader {
        let start = position
        guard depth < maxDepth else { throw ProtoWireError(.nestingTooDeep(limit: maxDepth), offset: start) }
        let bodyEnd = try skipGroupBody(fieldNumber)
        return ProtoReader(
            bytes: bytes, position: start, end: bodyEnd, depth: depth + 1, maxDepth: maxDepth, acceptsGroups: true)
    }

    /// Moves past a group's fields and its end tag; returns where the end tag began.
    private mutating func skipGroupBody(_ fieldNumber: Int) throws(ProtoWireError) -> Int {
        var open: [Int] = [fieldNumber]
        while let current = open.last {
            let tagAt = position
            guard position < end else { throw ProtoWireError(.truncated, offset: position) }
            let key = try readVarint()
            let number = Int(truncatingIfNeeded: key >> 3)
            guard number >= 1, number <= ProtoTag.maxFieldNumber else {
                throw ProtoWireError(.invalidFieldNumber(key >> 3), offset: tagAt)
            }
            let rawType = UInt8(key & 7)
            guard let wireType = ProtoWireType(rawValue: rawType) else {
                throw ProtoWireError(.invalidWireType(rawType), offset: tagAt)
            }
            switch wireType {
            case .startGroup:
                guard open.count + depth < maxDepth else {
                    throw ProtoWireError(.nestingTooDeep(limit: maxDepth), offset: tagAt)
                }
                open.append(number)
            case .endGroup:
                guard number == current else { throw ProtoWireError(.groupNotSupported(fieldNumber: number), offset: tagAt) }
                open.removeLast()
                if open.isEmpty { return tagAt }
            default:
                try skipField(ProtoTag(fieldNumber: number, wireType: wireType))
            }
        }
        return position
    }

    /// Skips the payload of a field whose tag was just read (unknown fields, docs/reference/grpc-and-listen.md §5.2).
    /// - Throws: `.truncated`, `.overlongVarint` or `.lengthExceedsInput` for a bad payload.
    public mutating func skipField(_ tag: ProtoTag) throws(ProtoWireError) {
        switch tag.wireType {
        case .varint: _ = try readVarint()
        case .i64: _ = try readFixed64()
        case .i32: _ = try readFixed32()
        case .len: _ = try readLengthDelimitedRange()
        case .startGroup where acceptsGroups:
            _ = try skipGroupBody(tag.fieldNumber)
        case .startGroup, .endGroup:
            // `readTag()` never yields these otherwise; a hand-built tag is rejected the same way.
            throw ProtoWireError(.groupNotSupported(fieldNumber: tag.fieldNumber), offset: position)
        }
    }

    /// Reads a packed repeated payload as a reader bounded to it. Unlike `readSubmessage()`
    /// it does not count toward the nesting limit: packed scalars nest nothing.
    mutating func readPackedPayload() throws(ProtoWireError) -> ProtoReader {
        let range = try readLengthDelimitedRange()
        return ProtoReader(
            bytes: bytes, position: range.lowerBound, end: range.upperBound, depth: depth, maxDepth: maxDepth,
            acceptsGroups: acceptsGroups)
    }

    private mutating func readLengthDelimitedRange() throws(ProtoWireError) -> Range<Int> {
        let start = position
        let length = try readVarint()
        let available = end - position
        guard length <= UInt64(available) else {
            throw ProtoWireError(.lengthExceedsInput(length: length, available: available), offset: start)
        }
        let lower = position
        position += Int(length)
        return lower..<position
    }
}
