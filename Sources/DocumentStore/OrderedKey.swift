import FirestoreModel

/// Order-preserving byte encodings of values and document paths for index keys.
///
/// The contract (docs/ARCHITECTURE.md rule 6): for any two values `a`, `b`,
/// `memcmp`-order of `value(a)` and `value(b)` (shorter prefix first, as SQLite compares
/// BLOBs) equals `Value.compare(a, b)`, and the encodings are equal exactly when the values
/// compare equal (`1` and `1.0` share a key; so do `-0.0` and `0.0`, and every NaN). Every
/// value encoding is prefix-free, so an equality lookup is a point and values can be
/// concatenated (arrays, maps) without separators becoming ambiguous.
///
/// Layout (one type tag byte, then the payload):
///
/// | type | tag | payload |
/// |---|---|---|
/// | null | 0x10 | — |
/// | boolean | 0x18 | 0x00 / 0x01 |
/// | number | 0x20 | `number` (below) |
/// | timestamp | 0x28 | seconds (int64, sign bit flipped, big-endian), nanos (same, 32 bits) |
/// | string | 0x30 | UTF-8 bytes `escaped` (0x00 → 0x00 0xFF), then 0x00 0x01 |
/// | bytes | 0x38 | bytes escaped as strings |
/// | reference | 0x40 | per segment: 0x01 + int64 for `__id<n>__`, else 0x02 + escaped UTF-8; then 0x00 |
/// | geo point | 0x48 | `number(latitude)`, `number(longitude)` |
/// | array | 0x50 | each element's encoding, then 0x00 |
/// | map | 0x58 | per key in UTF-8 order: 0x01 + escaped key + value; then 0x00 |
///
/// `number`: a class byte (NaN 0x01 < −∞ 0x02 < negative 0x03 < zero 0x04 < positive 0x05 <
/// +∞ 0x06), then for finite non-zero numbers the exact binary value `1.f × 2^e`: `e + 2048`
/// as a big-endian UInt16 and the fraction bits `f` left-aligned in a big-endian UInt64 (all
/// bits inverted for negatives). An int64 has at most 63 fraction bits and a double 52, so
/// both fit exactly: ints and doubles order together with no rounding (`2^53 + 1 > 2^53.0`).
///
/// Document paths (`path(_:)`) use the reference segment encoding with no terminator, so the
/// key of a path is a byte prefix of the keys of everything below it, and all descendants of
/// `p` lie in the range `(path(p), path(p) + [0x03])`. In path keys a numeric id is followed
/// by its escaped text, which makes the key reversible and distinct for `__id5__` / `__id05__`.
///
/// Source: cross-type and per-type order of docs/reference/firestore-wire.md §1.9 (as implemented by
/// `Value.compare` in FirestoreModel).
enum OrderedKey {
    /// Type tags; the gaps leave room for types Firestore may add (vectors sort before maps).
    fileprivate enum Tag {
        static let null: UInt8 = 0x10
        static let boolean: UInt8 = 0x18
        static let number: UInt8 = 0x20
        static let timestamp: UInt8 = 0x28
        static let string: UInt8 = 0x30
        static let bytes: UInt8 = 0x38
        static let reference: UInt8 = 0x40
        static let geoPoint: UInt8 = 0x48
        static let array: UInt8 = 0x50
        static let map: UInt8 = 0x58
    }

    /// Ends an array, a map or a reference; lower than every tag and entry marker.
    static let end: UInt8 = 0x00
    /// Starts one map entry.
    static let entry: UInt8 = 0x01
    /// Starts a numeric-id path segment.
    static let numericSegment: UInt8 = 0x01
    /// Starts a string path segment.
    static let stringSegment: UInt8 = 0x02
    /// One more than every segment marker: `path(p) + [descendantsEnd]` bounds `p`'s subtree.
    static let descendantsEnd: UInt8 = 0x03

    /// The key of `value`. - Complexity: O(size of the value).
    static func value(_ value: Value) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(16)
        append(value, to: &out)
        return out
    }

    /// The first key of `value`'s type group: every value of the group is ≥ it.
    static func typeGroupStart(of value: Value) -> [UInt8] { [tag(of: value)] }

    /// Just past the last key of `value`'s type group: every value of the group is < it.
    static func typeGroupEnd(of value: Value) -> [UInt8] { [tag(of: value) + 1] }

    /// The type tag of `value` (numbers share one).
    static func tag(of value: Value) -> UInt8 {
        switch value {
        case .null: return Tag.null
        case .boolean: return Tag.boolean
        case .integer, .double: return Tag.number
        case .timestamp: return Tag.timestamp
        case .string: return Tag.string
        case .bytes: return Tag.bytes
        case .reference: return Tag.reference
        case .geoPoint: return Tag.geoPoint
        case .array: return Tag.array
        case .map: return Tag.map
        }
    }

    /// Appends the key of `value` to `out`.
    static func append(_ value: Value, to out: inout [UInt8]) {
        out.append(tag(of: value))
        switch value {
        case .null:
            break
        case .boolean(let b):
            out.append(b ? 1 : 0)
        case .integer(let i):
            appendNumber(integer: i, to: &out)
        case .double(let d):
            appendNumber(double: d, to: &out)
        case .timestamp(let t):
            appendBigEndian(UInt64(bitPattern: t.seconds) ^ (1 << 63), to: &out)
            appendBigEndian(UInt32(bitPattern: t.nanos) ^ (1 << 31), to: &out)
        case .string(let s):
            appendEscaped(s.utf8, to: &out)
        case .bytes(let b):
            appendEscaped(b, to: &out)
        case .reference(let name):
            for segment in name.split(separator: "/", omittingEmptySubsequences: false) {
                appendSegment(Substring(segment), exact: false, to: &out)
            }
            out.append(end)
        case .geoPoint(let g):
            appendNumber(double: g.latitude, to: &out)
            appendNumber(double: g.longitude, to: &out)
        case .array(let elements):
            for e in elements { append(e, to: &out) }
            out.append(end)
        case .map(let fields):
            for key in fields.keys.sorted(by: utf8Less) {
                out.append(entry)
                appendEscaped(key.utf8, to: &out)
                if let v = fields[key] { append(v, to: &out) }
            }
            out.append(end)
        }
    }

    // MARK: Numbers

    /// Class bytes of the `number` payload.
    fileprivate enum NumberClass {
        static let nan: UInt8 = 0x01
        static let negativeInfinity: UInt8 = 0x02
        static let negative: UInt8 = 0x03
        static let zero: UInt8 = 0x04
        static let positive: UInt8 = 0x05
        static let positiveInfinity: UInt8 = 0x06
    }

    /// Appends the `number` payload (no tag) of an int64, exactly.
    static func appendNumber(integer i: Int64, to out: inout [UInt8]) {
        if i == 0 {
            out.append(NumberClass.zero)
            return
        }
        let magnitude = i.magnitude
        let leading = magnitude.leadingZeroBitCount
        // Shift the leading 1 out; what remains are the fraction bits, left-aligned.
        let fraction = leading == 63 ? 0 : magnitude << UInt64(leading + 1)
        appendFinite(negative: i < 0, exponent: 63 - leading, fraction: fraction, to: &out)
    }

    /// Appends the `number` payload (no tag) of a double: NaN, ±∞, zero, or exact finite.
    static func appendNumber(double d: Double, to out: inout [UInt8]) {
        if d.isNaN {
            out.append(NumberClass.nan)
        } else if d.isInfinite {
            out.append(d < 0 ? NumberClass.negativeInfinity : NumberClass.positiveInfinity)
        } else if d == 0 {
            out.append(NumberClass.zero)  // -0.0 == 0.0
        } else {
            // `significand` is normalised to [1, 2) even for subnormals, with `exponent` adjusted.
            let fraction = d.magnitude.significand.significandBitPattern << 12
            appendFinite(negative: d < 0, exponent: Int(d.exponent), fraction: fraction, to: &out)
        }
    }

    /// `exponent` is −1074…1023 for doubles, 0…63 for ints; biased by 2048 it fits a UInt16.
    private static func appendFinite(negative: Bool, exponent: Int, fraction: UInt64, to out: inout [UInt8]) {
        let biased = UInt16(truncatingIfNeeded: exponent + 2048)
        if negative {
            out.append(NumberClass.negative)
            appendBigEndian(~biased, to: &out)
            appendBigEndian(~fraction, to: &out)
        } else {
            out.append(NumberClass.positive)
            appendBigEndian(biased, to: &out)
            appendBigEndian(fraction, to: &out)
        }
    }

    /// Appends `x` most significant byte first, so memcmp orders unsigned values numerically.
    static func appendBigEndian<T: FixedWidthInteger>(_ x: T, to out: inout [UInt8]) {
        var v = x.bigEndian
        withUnsafeBytes(of: &v) { out.append(contentsOf: $0) }
    }

    // MARK: Strings and segments

    /// Appends `bytes` with 0x00 escaped as 0x00 0xFF, then the terminator 0x00 0x01.
    static func appendEscaped<C: Collection>(_ bytes: C, to out: inout [UInt8]) where C.Element == UInt8 {
        out.reserveCapacity(out.count + bytes.count + 2)
        for b in bytes {
            out.append(b)
            if b == 0 { out.append(0xFF) }
        }
        out.append(0x00)
        out.append(0x01)
    }

    /// Appends one path segment; `exact` adds the numeric id's text (path keys only).
    static func appendSegment(_ segment: Substring, exact: Bool, to out: inout [UInt8]) {
        if let n = numericSegmentID(segment) {
            out.append(numericSegment)
            appendBigEndian(UInt64(bitPattern: n) ^ (1 << 63), to: &out)
            if exact { appendEscaped(segment.utf8, to: &out) }
        } else {
            out.append(stringSegment)
            appendEscaped(segment.utf8, to: &out)
        }
    }

    /// The number of a Datastore numeric id `__id<digits>__`, as FirestoreModel's ordering reads it.
    static func numericSegmentID(_ s: Substring) -> Int64? {
        guard s.utf8.count > 6, s.hasPrefix("__id"), s.hasSuffix("__") else { return nil }
        return Int64(s.dropFirst(4).dropLast(2))
    }

    // MARK: Document paths

    /// The key of a document or collection path: its segments, unterminated (see type doc).
    static func path(_ path: ResourcePath) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(path.segments.reduce(0) { $0 + $1.utf8.count + 3 })
        for s in path.segments { appendSegment(Substring(s), exact: true, to: &out) }
        return out
    }

    /// Just past every descendant of the path whose key is `key`.
    static func descendantsEnd(of key: [UInt8]) -> [UInt8] { key + [descendantsEnd] }

    /// Decodes a path key made by `path(_:)`.
    /// - Throws: `.internalError` when the bytes are not a path key (corrupt storage).
    static func decodePath(_ key: UnsafeRawBufferPointer) throws(FirestoreError) -> ResourcePath {
        var segments: [String] = []
        var i = 0
        while i < key.count {
            let marker = key[i]
            i += 1
            if marker == numericSegment {
                i += 8  // the number; the exact text follows
            } else if marker != stringSegment {
                throw .internalError("Corrupt path key: bad segment marker \(marker).")
            }
            segments.append(try readEscaped(key, at: &i))
        }
        return ResourcePath(segments)
    }

    /// The segment starting at byte `offset` of a path key made by `path(_:)` (the document
    /// id when `offset` is the length of its parent collection's key), without decoding the others.
    /// - Throws: `.internalError` when the bytes there are not a segment (corrupt storage).
    static func decodeSegment(_ key: UnsafeRawBufferPointer, at offset: Int) throws(FirestoreError) -> String {
        guard offset < key.count else { throw .internalError("Corrupt path key: no segment at \(offset).") }
        var i = offset + 1
        switch key[offset] {
        case numericSegment: i += 8  // the number; the exact text follows
        case stringSegment: break
        case let marker: throw .internalError("Corrupt path key: bad segment marker \(marker).")
        }
        return try readEscaped(key, at: &i)
    }

    /// Reads an escaped UTF-8 string starting at `i`, leaving `i` after its terminator.
    /// - Throws: `.internalError` when the terminator is missing.
    static func readEscaped(_ key: UnsafeRawBufferPointer, at i: inout Int) throws(FirestoreError) -> String {
        // Fast path: no escaped 0x00 before the terminator, so the text is the bytes as they are.
        var end = i
        while end < key.count && key[end] != 0 { end += 1 }
        if end + 1 < key.count && key[end + 1] == 0x01 {
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: key[i..<end]), as: UTF8.self)
            i = end + 2
            return text
        }
        var bytes: [UInt8] = []
        while i < key.count {
            let b = key[i]
            i += 1
            guard b == 0 else {
                bytes.append(b)
                continue
            }
            guard i < key.count else { break }
            let next = key[i]
            i += 1
            if next == 0x01 { return String(decoding: bytes, as: UTF8.self) }
            guard next == 0xFF else { break }
            bytes.append(0)
        }
        throw .internalError("Corrupt key: unterminated string.")
    }

    /// Escaped segments of a field path (reversible), used to store index definitions.
    static func fieldPath(_ field: FieldPath) -> [UInt8] {
        var out: [UInt8] = []
        for s in field.segments { appendEscaped(s.utf8, to: &out) }
        return out
    }

    /// Decodes `fieldPath(_:)`.
    /// - Throws: `.internalError` on corrupt bytes.
    static func decodeFieldPath(_ key: UnsafeRawBufferPointer) throws(FirestoreError) -> FieldPath {
        var segments: [String] = []
        var i = 0
        while i < key.count { segments.append(try readEscaped(key, at: &i)) }
        return FieldPath(segments)
    }
}

/// Byte-string order as SQLite compares BLOBs (memcmp, then shorter first).
func bytesLess(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    // A plain loop over the buffers: `lexicographicallyPrecedes` is several times slower here.
    a.withUnsafeBufferPointer { x in
        b.withUnsafeBufferPointer { y in
            let n = min(x.count, y.count)
            var i = 0
            while i < n {
                if x[i] != y[i] { return x[i] < y[i] }
                i += 1
            }
            return x.count < y.count
        }
    }
}
