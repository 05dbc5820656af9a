/// Reading one field out of encoded fields without materialising the others: what index
/// builds and index maintenance need (one field of many).
extension FieldsCodec {
    /// The value at `path` in encoded fields, or nil when missing (or a step is not a map).
    ///
    /// Skips every other entry by its encoded length, allocating nothing for them.
    /// - Throws: `.internalError` on corrupt bytes.
    public static func value(at path: FieldPath, in bytes: UnsafeRawBufferPointer) throws(FirestoreError) -> Value? {
        var reader = FieldsReader(bytes)
        try reader.version()
        var segments = path.segments[...]
        while let wanted = segments.popFirst() {
            guard try reader.seekEntry(wanted) else { return nil }
            if segments.isEmpty { return try reader.value(depth: 0) }
            guard try reader.byte() == Tag.map else { return nil }
        }
        return nil
    }
}

/// Finds several top-level fields of encoded fields in one walk over the entries, decoding
/// none of them: `locate` records where each wanted value starts, `value(at:)` decodes one
/// when asked. What a scan reading a few fields of many documents needs: the fields that
/// decide whether a document is wanted are decoded first, the others only for those kept.
public struct FieldsLocator {
    /// The fields asked for, each as (index of its first segment in `keys`, the path).
    public let fields: [(key: Int, path: FieldPath)]
    /// The distinct first segments, as UTF-8.
    private let keys: [[UInt8]]
    /// Where each key's value starts in the last located buffer (-1: missing).
    private var offsets: [Int]
    private var buffer = UnsafeRawBufferPointer(start: nil, count: 0)

    /// A locator of `paths` (indexes of `value(at:)` are positions in `paths`).
    public init(_ paths: [FieldPath]) {
        var keys: [[UInt8]] = []
        var fields: [(key: Int, path: FieldPath)] = []
        for p in paths {
            let first = Array((p.segments.first ?? "").utf8)
            if let i = keys.firstIndex(of: first) {
                fields.append((i, p))
            } else {
                fields.append((keys.count, p))
                keys.append(first)
            }
        }
        self.keys = keys
        self.fields = fields
        offsets = Array(repeating: -1, count: keys.count)
    }

    /// Walks the entries of `bytes` (which must outlive the next `value(at:)` calls).
    /// - Throws: `.internalError` on corrupt bytes.
    public mutating func locate(_ bytes: UnsafeRawBufferPointer) throws(FirestoreError) {
        buffer = bytes
        for i in offsets.indices { offsets[i] = -1 }
        var reader = FieldsReader(bytes)
        try reader.version()
        var left = keys.count
        var entries = try reader.length()
        while left > 0 && entries > 0 {
            entries -= 1
            let k = try reader.slice()
            if let i = keys.firstIndex(where: { FieldsReader.order(k, $0) == .equal }), offsets[i] < 0 {
                offsets[i] = reader.offset
                left -= 1
            }
            try reader.skipValue(depth: 0)
        }
    }

    /// The value of field `index` (a position in the paths given to `init`) in the located
    /// buffer, or nil when missing (or a step is not a map).
    /// - Throws: `.internalError` on corrupt bytes.
    public func value(at index: Int) throws(FirestoreError) -> Value? {
        let (key, path) = fields[index]
        guard offsets[key] >= 0 else { return nil }
        var reader = FieldsReader(buffer, at: offsets[key])
        var segments = path.segments.dropFirst()
        while let wanted = segments.popFirst() {
            guard try reader.byte() == FieldsCodec.Tag.map, try reader.seekEntry(wanted) else { return nil }
        }
        return try reader.value(depth: 0)
    }
}

extension FieldsLocator {
    /// The UTF-8 bytes of field `index` when it is a top-level string, without building the
    /// `String`; nil when missing, nested or of another type.
    /// - Throws: `.internalError` on corrupt bytes.
    public func stringBytes(at index: Int) throws(FirestoreError) -> UnsafeRawBufferPointer? {
        let (key, path) = fields[index]
        guard path.segments.count == 1, offsets[key] >= 0 else { return nil }
        var reader = FieldsReader(buffer, at: offsets[key])
        guard try reader.byte() == FieldsCodec.Tag.string else { return nil }
        return try reader.slice()
    }
}

extension FieldsReader {
    /// `a` against `b` as bytes (memcmp, then shorter first): Firestore's string order on UTF-8.
    public static func compare(_ a: UnsafeRawBufferPointer, _ b: [UInt8]) -> Ordering { order(a, b) }

    /// Byte order of `stored` against `other` (a shared prefix puts the shorter first): the one
    /// comparison of stored text with key or bound bytes.
    static func order<Other: Sequence<UInt8>>(_ stored: UnsafeRawBufferPointer, _ other: Other) -> Ordering {
        var i = 0
        for byte in other {
            guard i < stored.count else { return .less }
            if stored[i] != byte { return stored[i] < byte ? .less : .greater }
            i += 1
        }
        return stored.count == i ? .equal : .greater
    }

    /// Positions the reader at the value of entry `key` of the map whose count is next.
    /// - Returns: false (position unspecified) when there is no such key.
    /// - Throws: `.internalError` on corrupt bytes.
    public mutating func seekEntry(_ key: String) throws(FirestoreError) -> Bool {
        let count = try length()
        for _ in 0..<count {
            switch Self.order(try slice(), key.utf8) {
            case .equal: return true
            case .greater where isOrdered: return false  // past it: the entries are in key order
            default: try skipValue(depth: 0)
            }
        }
        return false
    }

    /// Consumes one tagged value without building it; `validating` also checks that its
    /// strings and keys are UTF-8 and its timestamp nanos fit (what `EncodedFields` checks
    /// once, when bytes are read from storage).
    /// - Throws: `.internalError` on corrupt bytes or nesting deeper than `FieldsCodec.maxDepth`.
    public mutating func skipValue(depth: Int, validating: Bool = false) throws(FirestoreError) {
        guard depth <= FieldsCodec.maxDepth else { throw .internalError("Stored value is nested too deeply.") }
        switch try byte() {
        case FieldsCodec.Tag.null, FieldsCodec.Tag.falseValue, FieldsCodec.Tag.trueValue: return
        case FieldsCodec.Tag.integer: _ = try varint()
        case FieldsCodec.Tag.double: _ = try fixed64()
        case FieldsCodec.Tag.timestamp:
            _ = try varint()
            let nanos = try varint()
            if validating && nanos > UInt64(UInt32.max) { throw .internalError("Stored timestamp nanos overflow.") }
        case FieldsCodec.Tag.string, FieldsCodec.Tag.reference:
            let text = try slice()
            if validating { try validateUTF8(text) }
        case FieldsCodec.Tag.bytes: _ = try slice()
        case FieldsCodec.Tag.geoPoint:
            _ = try fixed64()
            _ = try fixed64()
        case FieldsCodec.Tag.array:
            for _ in 0..<(try length()) { try skipValue(depth: depth + 1, validating: validating) }
        case FieldsCodec.Tag.map: try skipEntries(depth: depth, validating: validating)
        case let tag: throw .internalError("Stored value has unknown tag \(tag).")
        }
    }

    /// Consumes a count and that many (key, value) entries without building them (see `skipValue`).
    /// - Throws: `.internalError` on corrupt bytes or nesting deeper than `FieldsCodec.maxDepth`.
    public mutating func skipEntries(depth: Int, validating: Bool = false) throws(FirestoreError) {
        guard depth <= FieldsCodec.maxDepth else { throw .internalError("Stored value is nested too deeply.") }
        for _ in 0..<(try length()) {
            let key = try slice()
            if validating { try validateUTF8(key) }
            try skipValue(depth: depth + 1, validating: validating)
        }
    }
}
