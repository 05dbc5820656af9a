import Synchronization

/// A document's fields in their stored encoding (`FieldsCodec`), decoded only when asked.
///
/// What a store hands out for a document it read: a query checks its filters with
/// `value(at:)` (one field, nothing else built), and an answer that needs no field of it is
/// written from `bytes` by the REST and gRPC transcoders; `fields` decodes the whole tree
/// once, on first use, and keeps it. The bytes were validated when this was made (every
/// length, tag and string), so decoding them cannot fail.
public final class EncodedFields: Sendable {
    /// The stored encoding, version byte first.
    public let bytes: [UInt8]
    /// True when map entries are in UTF-8 key order (`FieldsCodec.version`): the order the
    /// transcoders must write, so they may stream the bytes.
    public let isOrdered: Bool
    private let decoded: Mutex<FieldMap?>

    /// Wraps bytes read from storage after checking them.
    /// - Throws: `.internalError` for an unknown version or tag, a truncated or over-long
    ///   buffer, nesting deeper than `FieldsCodec.maxDepth`, or a key or string that is not UTF-8.
    public init(validating bytes: [UInt8]) throws(FirestoreError) {
        let checked = bytes.withUnsafeBytes { buffer in
            Result { () throws(FirestoreError) -> Bool in
                var reader = FieldsReader(buffer)
                let ordered = try reader.version()
                try reader.skipEntries(depth: 0, validating: true)
                guard reader.isAtEnd else { throw .internalError("Stored fields have trailing bytes.") }
                return ordered
            }
        }
        self.isOrdered = try checked.get()
        self.bytes = bytes
        self.decoded = Mutex(nil)
    }

    /// Encodes `fields` (kept as the decoded form).
    public init(_ fields: FieldMap) {
        bytes = FieldsCodec.encode(fields)
        isOrdered = true
        decoded = Mutex(fields)
    }

    /// The decoded fields (decoded on the first call, then kept).
    public var fields: FieldMap {
        if let fields = decoded.withLock({ $0 }) { return fields }
        // Validated in `init(validating:)`; the fallback is unreachable.
        let fields = (try? FieldsCodec.decode(bytes)) ?? [:]
        decoded.withLock { $0 = fields }
        return fields
    }

    /// True when the document has no fields. - Complexity: O(1).
    public var isEmpty: Bool { bytes.count < 2 || bytes[1] == 0 }

    /// The value at `path` (nil when missing or a step is not a map), read from the decoded
    /// fields when they exist, else straight from the bytes without building the others.
    public func value(at path: FieldPath) -> Value? {
        if let fields = decoded.withLock({ $0 }) { return fields.value(at: path) }
        return bytes.withUnsafeBytes { (try? FieldsCodec.value(at: path, in: $0)) ?? nil }
    }
}

extension FieldsReader {
    /// Checks that `run` is well-formed UTF-8 (ASCII runs take the fast path).
    /// - Throws: `.internalError` when it is not.
    func validateUTF8(_ run: UnsafeRawBufferPointer) throws(FirestoreError) {
        var ascii = true
        for b in run where b >= 0x80 {
            ascii = false
            break
        }
        if ascii { return }
        guard String(validating: run, as: UTF8.self) != nil else {
            throw .internalError("Stored string is not UTF-8.")
        }
    }
}
