/// A stored document: its path, fields and versions.
///
/// `createTime` is set by the first write after the document did not exist; `updateTime`
/// advances only when a write changes the fields. Source: googleapis `document.proto`.
public struct Document: Sendable, Hashable {
    /// The document's path relative to the documents root (even number of segments).
    public var path: ResourcePath
    /// Top-level fields.
    public var fields: [String: Value]
    /// Commit time of the write that created it.
    public var createTime: Timestamp
    /// Commit time of the last write that changed it.
    public var updateTime: Timestamp

    /// Creates a document.
    public init(path: ResourcePath, fields: [String: Value], createTime: Timestamp, updateTime: Timestamp) {
        self.path = path
        self.fields = fields
        self.createTime = createTime
        self.updateTime = updateTime
    }

    /// The value at `path`; `__name__` yields a reference in `database`.
    public func value(at fieldPath: FieldPath, in database: DatabaseID) -> Value? {
        if fieldPath.isDocumentKey { return .reference(database.resourceName(path)) }
        return fields.value(at: fieldPath)
    }
}

/// Limits enforced on stored documents. Source: reference §1.10.
public enum DocumentLimits {
    /// Maximum document size in bytes (1 MiB).
    public static let maxDocumentBytes = 1_048_576
    /// Maximum nesting depth of maps and arrays.
    public static let maxDepth = 20
    /// Maximum bytes of a field name or id.
    public static let maxNameBytes = 1500

    /// Firestore's storage size of a value in bytes (documented size calculation).
    public static func size(of value: Value) -> Int {
        switch value {
        case .null, .boolean: return 1
        case .integer, .double, .timestamp: return 8
        case .string(let s): return s.utf8.count + 1
        case .bytes(let b): return b.count
        case .reference(let r): return r.utf8.count + 1
        case .geoPoint: return 16
        case .array(let a): return a.reduce(0) { $0 + size(of: $1) }
        case .map(let m): return m.reduce(0) { $0 + $1.key.utf8.count + 1 + size(of: $1.value) }
        }
    }

    /// Size of a document: its name plus fields plus 32 bytes of overhead.
    public static func size(of fields: [String: Value], path: ResourcePath) -> Int {
        path.segments.reduce(16) { $0 + $1.utf8.count + 1 } + fields.reduce(0) {
            $0 + $1.key.utf8.count + 1 + size(of: $1.value)
        } + 32
    }

    /// Validates fields a client wants to store.
    /// - Throws: `.invalidArgument` for empty, reserved (`__.*__`, at any depth except a
    ///   vector's `__type__`) or over-long field names, depth over 20,
    ///   arrays directly inside arrays, invalid timestamps or geo points, or a document over 1 MiB.
    public static func validate(fields: [String: Value], path: ResourcePath) throws(FirestoreError) {
        for (k, v) in fields {
            try validateName(k)
            try validate(v, depth: 1)
        }
        if size(of: fields, path: path) > maxDocumentBytes {
            throw .invalidArgument(
                "Document '\(path)' cannot be written because its size (\(size(of: fields, path: path)) bytes) exceeds the maximum allowed size of 1,048,576 bytes."
            )
        }
    }

    static func validateName(_ k: String) throws(FirestoreError) {
        if k.isEmpty { throw .invalidArgument("Field names must not be empty.") }
        if k.utf8.count > maxNameBytes { throw .invalidArgument("Field name is longer than 1500 bytes.") }
        if k.hasPrefix("__") && k.hasSuffix("__") && k.utf8.count >= 4 {
            throw .invalidArgument("Field name \"\(k)\" is reserved (__.*__).")
        }
    }

    static func validate(_ v: Value, depth: Int) throws(FirestoreError) {
        switch v {
        case .timestamp(let t):
            if !t.isValid { throw .invalidArgument("Timestamp out of range.") }
        case .geoPoint(let g):
            if !(g.latitude >= -90 && g.latitude <= 90) || !(g.longitude >= -180 && g.longitude <= 180) {
                throw .invalidArgument("GeoPoint out of range: (\(g.latitude), \(g.longitude)).")
            }
        case .array(let a):
            if depth >= maxDepth { throw .invalidArgument("Value nested too deeply (max depth 20).") }
            for e in a {
                if case .array = e { throw .invalidArgument("Cannot convert an array value in an array value.") }
                try validate(e, depth: depth + 1)
            }
        case .map(let m):
            if depth >= maxDepth { throw .invalidArgument("Value nested too deeply (max depth 20).") }
            // Nested keys follow the field-name rules too; only a vector's `__type__` is allowed.
            let isVector = v.vectorElements != nil
            for (k, e) in m {
                if k.isEmpty { throw .invalidArgument("Map keys must not be empty.") }
                if !(isVector && k == "__type__") { try validateName(k) }
                try validate(e, depth: depth + 1)
            }
        case .reference(let name):
            // projects/{p}/databases/{d}/documents/{c}/{id}…: an even, non-empty document path of valid ids.
            let segments = name.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            guard segments.count >= 7, segments[0] == "projects", segments[2] == "databases", segments[4] == "documents",
                !segments[1].isEmpty, !segments[3].isEmpty, (segments.count - 5) % 2 == 0
            else { throw .invalidArgument("Reference value \"\(name)\" is not a document name.") }
            try ResourcePath(Array(segments.dropFirst(5))).validateIDs()
        case .string(let s):
            if s.utf8.count > 1_048_487 { throw .invalidArgument("String value is longer than 1,048,487 bytes.") }
        case .bytes(let b):
            if b.count > 1_048_487 { throw .invalidArgument("Bytes value is longer than 1,048,487 bytes.") }
        default: break
        }
    }
}
