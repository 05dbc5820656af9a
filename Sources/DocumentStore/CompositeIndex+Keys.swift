import FirestoreModel

/// Entry keys of composite indexes: one key per document (or per distinct element of its
/// CONTAINS field), the concatenation of one component per normalised index field.
///
/// A component is the field's `OrderedKey.value` (CONTAINS: the element's), with every byte
/// inverted for a descending field, and for `__name__` the document's `OrderedKey.path`
/// followed by `nameTerminator` (inverted when descending). Concatenation and inversion keep
/// the tuple order because every component is prefix-free: value encodings are
/// (`OrderedKey`), and the terminator makes path keys so, which they are not alone (in a
/// collection group, `c/a` is a byte prefix of `c/a/c/b`, and inverted a prefix would sort
/// before its descendants, not after). Hence for complete components `x`, `y`: `x < y`
/// exactly when `x + s < y + t` for any suffixes `s`, `t`, and inverted keys reverse that.
/// Source: docs/reference/indexes.md (index fields in order, `__name__` last).
extension CompositeIndex {
    /// Ends a `__name__` component: below every segment marker, so a path sorts before the
    /// paths below it.
    static let nameTerminator: UInt8 = 0x00

    /// The index's definition in key order (`normalizedFields`), as one value.
    var normalized: CompositeIndex {
        CompositeIndex(collectionGroup: collectionGroup, queryScope: queryScope, fields: normalizedFields)
    }

    /// The entry keys of the document at `path`, whose field values `value` reads: none when
    /// a field is missing or a CONTAINS field is not an array (or is empty); otherwise one per
    /// combination of distinct CONTAINS elements.
    /// - Throws: whatever `value` throws (corrupt stored fields).
    func entryKeys(path: ResourcePath, value: (FieldPath) throws -> Value?) rethrows -> [[UInt8]] {
        var keys: [[UInt8]] = [[]]
        for field in normalizedFields {
            if field.fieldPath.isDocumentKey {
                let component = Self.nameComponent(OrderedKey.path(path), descending: field.kind == .descending)
                for i in keys.indices { keys[i] += component }
                continue
            }
            guard let v = try value(field.fieldPath) else { return [] }
            switch field.kind {
            case .ascending, .descending:
                let component = Self.component(v, descending: field.kind == .descending)
                for i in keys.indices { keys[i] += component }
            case .arrayContains:
                guard case .array(let elements) = v else { return [] }
                var seen = Set<[UInt8]>()
                let distinct = elements.map(OrderedKey.value).filter { seen.insert($0).inserted }
                keys = keys.flatMap { k in distinct.map { k + $0 } }
                if keys.isEmpty { return [] }
            }
        }
        return keys
    }

    /// The `parent` column of this index's entries for a document whose parent collection key is `parentKey`.
    func entryParent(_ parentKey: [UInt8]) -> [UInt8] { queryScope == .collection ? parentKey : [] }

    /// The component of a field value: its `OrderedKey.value`, inverted when descending.
    static func component(_ value: Value, descending: Bool) -> [UInt8] {
        let key = OrderedKey.value(value)
        return descending ? inverted(key) : key
    }

    /// The `__name__` component of the path whose key is `pathKey`.
    static func nameComponent(_ pathKey: [UInt8], descending: Bool) -> [UInt8] {
        let key = pathKey + [nameTerminator]
        return descending ? inverted(key) : key
    }

    /// Every byte complemented: reverses the order of prefix-free keys.
    static func inverted(_ key: [UInt8]) -> [UInt8] { key.map { ~$0 } }

    /// The least key greater than every key that starts with `prefix`, or nil when there is
    /// none (the prefix is empty or all 0xFF).
    static func successor(ofPrefix prefix: [UInt8]) -> [UInt8]? {
        var key = prefix
        while let last = key.last {
            if last < 0xFF {
                key[key.count - 1] = last + 1
                return key
            }
            key.removeLast()
        }
        return nil
    }

    // MARK: Stored definitions

    /// `fields` as bytes: per field a kind byte (1 ascending, 2 descending, 3 CONTAINS), the
    /// segment count (big-endian UInt16) and the segments, each `OrderedKey.appendEscaped`.
    var encodedFields: [UInt8] {
        var out: [UInt8] = []
        for field in fields {
            switch field.kind {
            case .ascending: out.append(1)
            case .descending: out.append(2)
            case .arrayContains: out.append(3)
            }
            OrderedKey.appendBigEndian(UInt16(truncatingIfNeeded: field.fieldPath.segments.count), to: &out)
            for s in field.fieldPath.segments { OrderedKey.appendEscaped(s.utf8, to: &out) }
        }
        return out
    }

    /// Decodes `encodedFields`.
    /// - Throws: `.internalError` on corrupt bytes.
    static func decodeFields(_ bytes: UnsafeRawBufferPointer) throws(FirestoreError) -> [IndexField] {
        var fields: [IndexField] = []
        var i = 0
        while i < bytes.count {
            let kind: IndexField.Kind
            switch bytes[i] {
            case 1: kind = .ascending
            case 2: kind = .descending
            case 3: kind = .arrayContains
            default: throw .internalError("Corrupt composite index definition: kind \(bytes[i]).")
            }
            guard i + 3 <= bytes.count else { throw .internalError("Corrupt composite index definition: truncated.") }
            let count = Int(bytes[i + 1]) << 8 | Int(bytes[i + 2])
            i += 3
            var segments: [String] = []
            for _ in 0..<count { segments.append(try OrderedKey.readEscaped(bytes, at: &i)) }
            fields.append(IndexField(FieldPath(segments), kind))
        }
        return fields
    }
}

extension IndexQueryScope {
    /// The `scope` column of `composite_indexes`.
    var storedValue: Int64 { self == .collection ? 0 : 1 }
}
