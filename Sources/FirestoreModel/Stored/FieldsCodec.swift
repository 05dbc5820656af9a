/// The compact, reversible binary encoding of a document's fields as stored in SQLite.
///
/// Bit-exact round trip of every `Value` (int64 extremes, `-0.0`, NaN payloads, nanosecond
/// timestamps, empty maps and arrays, any Unicode key). Not order-preserving; that is
/// `OrderedKey`'s job. Layout:
///
/// ```
/// fields  := version(0x02) count:varint (keyLen:varint keyUTF8 value)*
/// value   := 0x00 null | 0x01 false | 0x02 true
///          | 0x03 zigzag-varint int64 | 0x04 8-byte little-endian double bit pattern
///          | 0x05 zigzag-varint seconds, varint nanos
///          | 0x06 len:varint UTF-8 string | 0x07 len:varint bytes | 0x08 len:varint UTF-8 reference
///          | 0x09 latitude, longitude (8-byte little-endian doubles)
///          | 0x0A count:varint value* (array) | 0x0B count:varint (keyLen key value)* (map)
/// ```
///
/// Version 2 writes the entries of every map (the top level included) in UTF-8 byte order of
/// their keys, the order REST JSON and deterministic protobuf write them, so an answer can be
/// written from the stored bytes in one pass (`EncodedFields`, the REST and gRPC
/// transcoders). Version 1 (entries in dictionary order) is still read.
///
/// Decoding reads straight from SQLite's column buffer (no copy) and validates every
/// length, so corrupt bytes throw instead of trapping.
public enum FieldsCodec {
    /// The first byte of every encoding this build writes: map entries in key order.
    public static let version: UInt8 = 0x02
    /// The first byte of the encoding of earlier builds: map entries in dictionary order.
    public static let unorderedVersion: UInt8 = 0x01

    /// Value tags of the layout above.
    public enum Tag {
        /// `null`
        public static let null: UInt8 = 0x00
        /// `false`
        public static let falseValue: UInt8 = 0x01
        /// `true`
        public static let trueValue: UInt8 = 0x02
        /// zigzag varint int64
        public static let integer: UInt8 = 0x03
        /// 8-byte double
        public static let double: UInt8 = 0x04
        /// seconds, nanos
        public static let timestamp: UInt8 = 0x05
        /// length-prefixed UTF-8
        public static let string: UInt8 = 0x06
        /// length-prefixed bytes
        public static let bytes: UInt8 = 0x07
        /// length-prefixed resource name
        public static let reference: UInt8 = 0x08
        /// two doubles
        public static let geoPoint: UInt8 = 0x09
        /// count, values
        public static let array: UInt8 = 0x0A
        /// count, entries
        public static let map: UInt8 = 0x0B
    }

    /// Nesting deeper than this is treated as corruption (writes allow 20 levels, transforms
    /// `DocumentLimits.maxTransformedDepth`).
    public static let maxDepth = 128

    /// Encodes a document's top-level fields. - Complexity: O(size of the fields).
    public static func encode(_ fields: FieldMap) -> [UInt8] {
        var out: [UInt8] = [version]
        out.reserveCapacity(64)
        appendEntries(fields, to: &out)
        return out
    }

    /// Decodes bytes made by `encode(_:)`.
    /// - Throws: `.internalError` for an unknown version, tag or a truncated buffer.
    public static func decode(_ bytes: UnsafeRawBufferPointer) throws(FirestoreError) -> FieldMap {
        var reader = FieldsReader(bytes)
        try reader.version()
        let fields = try reader.entries(depth: 0)
        guard reader.isAtEnd else { throw .internalError("Stored fields have trailing bytes.") }
        return fields
    }

    /// Decodes an array of bytes made by `encode(_:)`.
    /// - Throws: as `decode(_: UnsafeRawBufferPointer)`.
    public static func decode(_ bytes: [UInt8]) throws(FirestoreError) -> FieldMap {
        let result = bytes.withUnsafeBytes { buffer in Result { () throws(FirestoreError) in try decode(buffer) } }
        return try result.get()
    }

    /// Appends the count and the entries of `fields` in UTF-8 byte order of their keys.
    private static func appendEntries(_ fields: FieldMap, to out: inout [UInt8]) {
        appendVarint(UInt64(fields.count), to: &out)
        let entries = fields.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        for (key, value) in entries {
            appendVarint(UInt64(key.utf8.count), to: &out)
            out.append(contentsOf: key.utf8)
            append(value, to: &out)
        }
    }

    private static func append(_ value: Value, to out: inout [UInt8]) {
        switch value {
        case .null:
            out.append(Tag.null)
        case .boolean(let b):
            out.append(b ? Tag.trueValue : Tag.falseValue)
        case .integer(let i):
            out.append(Tag.integer)
            appendVarint(UInt64(bitPattern: (i << 1) ^ (i >> 63)), to: &out)
        case .double(let d):
            out.append(Tag.double)
            appendLittleEndian(d.bitPattern, to: &out)
        case .timestamp(let t):
            out.append(Tag.timestamp)
            appendVarint(UInt64(bitPattern: (t.seconds << 1) ^ (t.seconds >> 63)), to: &out)
            appendVarint(UInt64(UInt32(bitPattern: t.nanos)), to: &out)
        case .string(let s):
            out.append(Tag.string)
            appendVarint(UInt64(s.utf8.count), to: &out)
            out.append(contentsOf: s.utf8)
        case .bytes(let b):
            out.append(Tag.bytes)
            appendVarint(UInt64(b.count), to: &out)
            out.append(contentsOf: b)
        case .reference(let r):
            out.append(Tag.reference)
            appendVarint(UInt64(r.utf8.count), to: &out)
            out.append(contentsOf: r.utf8)
        case .geoPoint(let g):
            out.append(Tag.geoPoint)
            appendLittleEndian(g.latitude.bitPattern, to: &out)
            appendLittleEndian(g.longitude.bitPattern, to: &out)
        case .array(let a):
            out.append(Tag.array)
            appendVarint(UInt64(a.count), to: &out)
            for e in a { append(e, to: &out) }
        case .map(let m):
            out.append(Tag.map)
            appendEntries(m, to: &out)
        }
    }

    /// Appends `x` as an unsigned LEB128 varint (7 bits per byte, low bits first).
    public static func appendVarint(_ x: UInt64, to out: inout [UInt8]) {
        var v = x
        while v >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }

    private static func appendLittleEndian(_ x: UInt64, to out: inout [UInt8]) {
        var v = x.littleEndian
        withUnsafeBytes(of: &v) { out.append(contentsOf: $0) }
    }
}

/// A bounds-checked cursor over encoded fields (`FieldsCodec`'s layout): what the decoder,
/// the one-field extraction and the REST and gRPC transcoders read with.
public struct FieldsReader {
    private let buffer: UnsafeRawBufferPointer
    private var position = 0
    /// Set by `version()`: map entries are in UTF-8 key order, so a seek may stop early.
    public private(set) var isOrdered = false

    /// A reader at the start of `buffer` (which must outlive it).
    public init(_ buffer: UnsafeRawBufferPointer) { self.buffer = buffer }

    /// A reader at byte `offset` of `buffer` (an offset `offset` reported earlier).
    public init(_ buffer: UnsafeRawBufferPointer, at offset: Int) {
        self.buffer = buffer
        position = offset
    }

    /// Bytes consumed so far.
    public var offset: Int { position }

    /// True when every byte was consumed.
    public var isAtEnd: Bool { position == buffer.count }

    /// Consumes the version byte.
    /// - Returns: true when map entries are in UTF-8 key order (`FieldsCodec.version`), false
    ///   for the dictionary order of `FieldsCodec.unorderedVersion`.
    /// - Throws: `.internalError` for any other version or an empty buffer.
    @discardableResult
    public mutating func version() throws(FirestoreError) -> Bool {
        let v = try byte()
        switch v {
        case FieldsCodec.version: isOrdered = true
        case FieldsCodec.unorderedVersion: isOrdered = false
        default: throw .internalError("Stored fields have unknown encoding version \(v).")
        }
        return isOrdered
    }

    private static func truncated() -> FirestoreError { .internalError("Stored fields are truncated.") }

    /// Consumes one byte.
    /// - Throws: `.internalError` at the end of the buffer.
    public mutating func byte() throws(FirestoreError) -> UInt8 {
        guard position < buffer.count else { throw Self.truncated() }
        defer { position += 1 }
        return buffer[position]
    }

    /// Consumes a LEB128 varint.
    /// - Throws: `.internalError` when truncated or longer than 64 bits.
    public mutating func varint() throws(FirestoreError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let b = try byte()
            guard shift < 64 else { throw .internalError("Stored varint is too long.") }
            result |= UInt64(b & 0x7F) << shift
            if b < 0x80 { return result }
            shift += 7
        }
    }

    /// Consumes a varint length that must fit in the remaining bytes.
    /// - Throws: `.internalError` when it does not.
    public mutating func length() throws(FirestoreError) -> Int {
        let n = try varint()
        guard n <= UInt64(buffer.count - position) else { throw Self.truncated() }
        return Int(n)
    }

    /// Consumes 8 little-endian bytes.
    /// - Throws: `.internalError` when truncated.
    public mutating func fixed64() throws(FirestoreError) -> UInt64 {
        guard buffer.count - position >= 8 else { throw Self.truncated() }
        var v: UInt64 = 0
        withUnsafeMutableBytes(of: &v) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer[position..<position + 8])) }
        position += 8
        return UInt64(littleEndian: v)
    }

    /// Consumes a length-prefixed byte run, without copying.
    /// - Throws: `.internalError` when truncated.
    public mutating func slice() throws(FirestoreError) -> UnsafeRawBufferPointer {
        let n = try length()
        defer { position += n }
        return UnsafeRawBufferPointer(rebasing: buffer[position..<position + n])
    }

    /// Consumes a length-prefixed UTF-8 string.
    /// - Throws: `.internalError` when truncated.
    public mutating func string() throws(FirestoreError) -> String { String(decoding: try slice(), as: UTF8.self) }

    /// Consumes a count and that many (key, value) entries.
    /// - Throws: `.internalError` on corrupt bytes or nesting deeper than `maxDepth`.
    public mutating func entries(depth: Int) throws(FirestoreError) -> FieldMap {
        guard depth <= FieldsCodec.maxDepth else { throw .internalError("Stored value is nested too deeply.") }
        let count = try length()  // each entry takes at least 2 bytes, so this bounds memory
        var out = FieldMap(minimumCapacity: count)
        for _ in 0..<count {
            let key = try string()
            out[key] = try value(depth: depth + 1)
        }
        return out
    }

    /// Consumes one tagged value.
    /// - Throws: `.internalError` on corrupt bytes or nesting deeper than `maxDepth`.
    public mutating func value(depth: Int) throws(FirestoreError) -> Value {
        let tag = try byte()
        switch tag {
        case FieldsCodec.Tag.null: return .null
        case FieldsCodec.Tag.falseValue: return .boolean(false)
        case FieldsCodec.Tag.trueValue: return .boolean(true)
        case FieldsCodec.Tag.integer:
            let z = try varint()
            return .integer(Int64(bitPattern: (z >> 1) ^ (0 &- (z & 1))))
        case FieldsCodec.Tag.double: return .double(Double(bitPattern: try fixed64()))
        case FieldsCodec.Tag.timestamp:
            let z = try varint()
            let seconds = Int64(bitPattern: (z >> 1) ^ (0 &- (z & 1)))
            let nanos = try varint()
            guard nanos <= UInt64(UInt32.max) else { throw .internalError("Stored timestamp nanos overflow.") }
            return .timestamp(Timestamp(seconds: seconds, nanos: Int32(bitPattern: UInt32(nanos))))
        case FieldsCodec.Tag.string: return .string(try string())
        case FieldsCodec.Tag.bytes: return .bytes(Array(try slice()))
        case FieldsCodec.Tag.reference: return .reference(try string())
        case FieldsCodec.Tag.geoPoint:
            let lat = Double(bitPattern: try fixed64())
            let lon = Double(bitPattern: try fixed64())
            return .geoPoint(GeoPoint(latitude: lat, longitude: lon))
        case FieldsCodec.Tag.array:
            guard depth <= FieldsCodec.maxDepth else { throw .internalError("Stored value is nested too deeply.") }
            let count = try length()
            var elements: [Value] = []
            elements.reserveCapacity(count)
            for _ in 0..<count { elements.append(try value(depth: depth + 1)) }
            return .array(elements)
        case FieldsCodec.Tag.map: return .map(try entries(depth: depth))
        default: throw .internalError("Stored value has unknown tag \(tag).")
        }
    }
}
