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

extension FieldsReader {
    /// Positions the reader at the value of entry `key` of the map whose count is next.
    /// - Returns: false (position unspecified) when there is no such key.
    /// - Throws: `.internalError` on corrupt bytes.
    public mutating func seekEntry(_ key: String) throws(FirestoreError) -> Bool {
        let count = try length()
        for _ in 0..<count {
            let order = Self.compare(try slice(), key.utf8)
            if order == 0 { return true }
            if order > 0 && isOrdered { return false }  // past it: the entries are in key order
            try skipValue(depth: 0)
        }
        return false
    }

    /// Byte order of a stored key against `key`'s UTF-8 (a shared prefix puts the shorter
    /// first): negative, zero or positive.
    static func compare(_ stored: UnsafeRawBufferPointer, _ key: String.UTF8View) -> Int {
        var i = 0
        for byte in key {
            guard i < stored.count else { return -1 }
            if stored[i] != byte { return stored[i] < byte ? -1 : 1 }
            i += 1
        }
        return stored.count - i
    }

    /// Consumes one tagged value without building it.
    /// - Throws: `.internalError` on corrupt bytes or nesting deeper than `FieldsCodec.maxDepth`.
    public mutating func skipValue(depth: Int) throws(FirestoreError) {
        guard depth <= FieldsCodec.maxDepth else { throw .internalError("Stored value is nested too deeply.") }
        switch try byte() {
        case FieldsCodec.Tag.null, FieldsCodec.Tag.falseValue, FieldsCodec.Tag.trueValue: return
        case FieldsCodec.Tag.integer: _ = try varint()
        case FieldsCodec.Tag.double: _ = try fixed64()
        case FieldsCodec.Tag.timestamp:
            _ = try varint()
            _ = try varint()
        case FieldsCodec.Tag.string, FieldsCodec.Tag.bytes, FieldsCodec.Tag.reference: _ = try slice()
        case FieldsCodec.Tag.geoPoint:
            _ = try fixed64()
            _ = try fixed64()
        case FieldsCodec.Tag.array:
            for _ in 0..<(try length()) { try skipValue(depth: depth + 1) }
        case FieldsCodec.Tag.map:
            for _ in 0..<(try length()) {
                _ = try slice()
                try skipValue(depth: depth + 1)
            }
        case let tag: throw .internalError("Stored value has unknown tag \(tag).")
        }
    }
}
