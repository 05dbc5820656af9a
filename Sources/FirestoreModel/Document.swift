/// A stored document: its path, fields and versions.
///
/// `createTime` is set by the first write after the document did not exist; `updateTime`
/// advances only when a write changes the fields. Source: googleapis `document.proto`.
///
/// A document a store read keeps its fields in the stored encoding (`encodedFields`) until
/// something asks for `fields`: filters read single values with `value(at:in:)`, and the REST
/// and gRPC answers are written from the bytes. Equality and hashing are by value, whatever
/// the form.
public struct Document: Sendable, Hashable {
    /// The document's path relative to the documents root (even number of segments).
    public var path: ResourcePath
    /// Top-level fields (decoded from `encodedFields` on first use; setting them drops it).
    public var fields: FieldMap {
        get {
            if let encodedFields { return encodedFields.fields }
            return decodedFields
        }
        set {
            encodedFields = nil
            decodedFields = newValue
        }
        _modify {
            if let e = encodedFields {
                decodedFields = e.fields
                encodedFields = nil
            }
            yield &decodedFields
        }
    }
    /// The fields in their stored encoding, when the document was read from a store and its
    /// fields have not been changed since.
    public private(set) var encodedFields: EncodedFields?
    private var decodedFields: FieldMap
    /// Commit time of the write that created it.
    public var createTime: Timestamp
    /// Commit time of the last write that changed it.
    public var updateTime: Timestamp

    /// Creates a document.
    public init(path: ResourcePath, fields: FieldMap, createTime: Timestamp, updateTime: Timestamp) {
        self.path = path
        self.decodedFields = fields
        self.encodedFields = nil
        self.createTime = createTime
        self.updateTime = updateTime
    }

    /// Creates a document whose fields stay encoded until asked for.
    public init(path: ResourcePath, encodedFields: EncodedFields, createTime: Timestamp, updateTime: Timestamp) {
        self.path = path
        self.decodedFields = [:]
        self.encodedFields = encodedFields
        self.createTime = createTime
        self.updateTime = updateTime
    }

    /// True when the document has no fields, without decoding them.
    public var hasNoFields: Bool { encodedFields?.isEmpty ?? decodedFields.isEmpty }

    /// The value at `path`; `__name__` yields a reference in `database`. An encoded document
    /// reads the one value from its bytes.
    public func value(at fieldPath: FieldPath, in database: DatabaseID) -> Value? {
        if fieldPath.isDocumentKey { return .reference(database.resourceName(path)) }
        if let encodedFields { return encodedFields.value(at: fieldPath) }
        return decodedFields.value(at: fieldPath)
    }

    /// The fields under one of `paths` (a projection / field mask, as
    /// `FieldMap.projected(to:)`); an encoded document reads only those values from its
    /// bytes.
    public func projected(to paths: [FieldPath]) -> FieldMap {
        guard let encodedFields else { return decodedFields.projected(to: paths) }
        var out: FieldMap = [:]
        for p in paths where !p.isDocumentKey {
            if let v = encodedFields.value(at: p) { out.setValue(v, at: p) }
        }
        return out
    }

    public static func == (a: Document, b: Document) -> Bool {
        a.path == b.path && a.createTime == b.createTime && a.updateTime == b.updateTime && a.fields == b.fields
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(path)
        hasher.combine(createTime)
        hasher.combine(updateTime)
        hasher.combine(fields)
    }
}

/// Limits production Firestore enforces on requests, document names and stored documents,
/// and the documented storage-size calculation they are measured with.
///
/// Sources: https://firebase.google.com/docs/firestore/quotas ("Collections, documents, and
/// fields"; "Writes and transactions": maximum API request size 10 MiB) and
/// https://firebase.google.com/docs/firestore/storage-size (sizes below); docs/reference/firestore-wire.md §1.10.
/// Every violation is `INVALID_ARGUMENT`. Messages are production's where it is known (the
/// document size), else the Cloud Firestore emulator's, whose write validation answers with
/// production's texts (`The value of property "a" is longer than 1048487 bytes.`).
public enum DocumentLimits {
    /// Maximum size of one API request, in bytes (10 MiB): a REST body, one gRPC message.
    public static let maxRequestBytes = 10_485_760
    /// Maximum document size in bytes (1 MiB), as `size(of:path:)` measures it.
    public static let maxDocumentBytes = 1_048_576
    /// Maximum document name size in bytes (6 KiB), as `nameSize(of:)` measures it.
    public static let maxDocumentNameBytes = 6_144
    /// Maximum nesting of maps and arrays inside one field: a field may hold 20 levels of
    /// maps/arrays, the 21st is refused (the emulator's count of the documented limit of 20).
    public static let maxDepth = 20
    /// Maximum nesting of maps and arrays in a document that field transforms produced
    /// (`validate(fields:path:database:maxDepth:)` after a write is applied). The emulator
    /// checks nesting only on the fields a write sends, never on what its transforms build:
    /// an `increment` on a 100-segment path or an `appendMissingElements` of a 47-deep map is
    /// stored (limits.json). Hearth stops at 100 levels so stored documents stay well inside
    /// `FieldsCodec.maxDepth`; the emulator's own reads fail past a few hundred levels.
    public static let maxTransformedDepth = 100
    /// Maximum segments of a field path in a read mask, a query (select, filters, orderBy) or a
    /// write's update mask; the emulator answers INVALID_ARGUMENT "paths must have at most 20
    /// elements" past it (limits.json). Field transform paths have no such limit.
    public static let maxPathSegments = 20
    /// Maximum bytes of a field name or id.
    public static let maxNameBytes = 1500
    /// Maximum bytes of one string or bytes value (1 MiB − 89).
    public static let maxValueBytes = 1_048_487

    /// The storage size of an id: its UTF-8 bytes + 1, or 8 for a numeric id `__id<n>__`.
    static func size(ofID id: String) -> Int { numericID(id) != nil ? 8 : id.utf8.count + 1 }

    /// The storage size of a document (or collection) name in bytes: the size of each
    /// collection id and document id in the path, plus 16.
    /// `users/jeff/tasks/my_task_id` is 6 + 5 + 6 + 11 + 16 = 44 bytes (the storage-size page's example).
    public static func nameSize(of path: ResourcePath) -> Int {
        path.segments.reduce(16) { $0 + size(ofID: $1) }
    }

    /// Firestore's storage size of a value in bytes: null and booleans 1, numbers and
    /// timestamps 8, geo points 16, strings UTF-8 bytes + 1, bytes their length, a reference
    /// its document name size, arrays the sum of their elements, maps the sum of each key's
    /// string size and value size.
    public static func size(of value: Value) -> Int {
        switch value {
        case .null, .boolean: return 1
        case .integer, .double, .timestamp: return 8
        case .string(let s): return s.utf8.count + 1
        case .bytes(let b): return b.count
        case .reference(let r): return referenceSize(r)
        case .geoPoint: return 16
        case .array(let a): return a.reduce(0) { $0 + size(of: $1) }
        case .map(let m): return m.reduce(0) { $0 + $1.key.utf8.count + 1 + size(of: $1.value) }
        }
    }

    /// The document name size of a reference `projects/{p}/databases/{d}/documents/{path}`;
    /// a name of another shape (refused by `validate` anyway) counts as a string.
    static func referenceSize(_ name: String) -> Int {
        let segments = name.split(separator: "/", omittingEmptySubsequences: false)
        guard segments.count >= 5, segments[0] == "projects", segments[2] == "databases", segments[4] == "documents" else {
            return name.utf8.count + 1
        }
        return nameSize(of: ResourcePath(segments.dropFirst(5).map(String.init)))
    }

    /// Size of a document in bytes: its name size, plus each field name's string size and
    /// each field value's size, plus 32.
    public static func size(of fields: FieldMap, path: ResourcePath) -> Int {
        nameSize(of: path) + fields.reduce(0) { $0 + $1.key.utf8.count + 1 + size(of: $1.value) } + 32
    }

    /// Refuses a request body or message over `maxRequestBytes`.
    /// - Parameter byteCount: the size of the REST body or the gRPC message, in bytes.
    /// - Throws: `.invalidArgument` "Request payload size exceeds the limit: 10485760 bytes.",
    ///   the text Google's API front end gives for this limit.
    public static func checkRequestSize(_ byteCount: Int) throws(FirestoreError) {
        if byteCount > maxRequestBytes {
            throw .invalidArgument("Request payload size exceeds the limit: \(maxRequestBytes) bytes.")
        }
    }

    /// Validates fields a client wants to store as the document at `path`.
    /// - Parameter database: names the document in the size error (production quotes the full
    ///   name); without it the relative path is quoted.
    /// - Throws: `.invalidArgument` for empty, reserved (`__.*__`, at any depth except a
    ///   vector's `__type__`) or over-long (1,500 bytes) field names, more than 20 levels of
    ///   maps/arrays in one field, arrays directly inside arrays, invalid timestamps or geo
    ///   points, strings or bytes over 1,048,487 bytes, or a document over 1,048,576 bytes —
    ///   the last with production's message `Document '{name}' cannot be written because its
    ///   size (1,048,667 bytes) exceeds the maximum allowed size of 1,048,576 bytes.`
    ///   (quoted in public reports of production errors, e.g. GitHub divriots/story-to-design #41).
    ///   - maxDepth: the nesting allowed in one field, `maxDepth` (20) for the fields a write
    ///     sends, `maxTransformedDepth` for a document after its transforms.
    public static func validate(
        fields: FieldMap, path: ResourcePath, database: DatabaseID? = nil, maxDepth: Int = DocumentLimits.maxDepth
    ) throws(FirestoreError) {
        for (k, v) in fields {
            try validateName(k)
            try validate(v, field: k, containers: 0, inMap: false, maxDepth: maxDepth)
        }
        let size = size(of: fields, path: path)
        if size > maxDocumentBytes {
            let name = database?.resourceName(path) ?? path.relativeString
            throw .invalidArgument(
                "Document '\(name)' cannot be written because its size (\(grouped(size)) bytes) exceeds the maximum allowed size of \(grouped(maxDocumentBytes)) bytes."
            )
        }
    }

    /// Refuses a field path of a mask, a query or an update mask with more than
    /// `maxPathSegments` (20) segments.
    /// - Throws: `.invalidArgument` "paths must have at most 20 elements", the emulator's text.
    public static func checkPathSegments(_ path: FieldPath) throws(FirestoreError) {
        if path.segments.count > maxPathSegments {
            throw .invalidArgument("paths must have at most \(maxPathSegments) elements")
        }
    }

    /// `1048576` as `1,048,576`.
    static func grouped(_ n: Int) -> String {
        var digits = Array(String(n))
        var i = digits.count - 3
        while i > 0 {
            digits.insert(",", at: i)
            i -= 3
        }
        return String(digits)
    }

    static func validateName(_ k: String) throws(FirestoreError) {
        if k.isEmpty { throw .invalidArgument("Field names must not be empty.") }
        if k.utf8.count > maxNameBytes { throw .invalidArgument("The property.name is longer than 1500 bytes.") }
        if k.hasPrefix("__") && k.hasSuffix("__") && k.utf8.count >= 4 {
            throw .invalidArgument("Field name \"\(k)\" is reserved (__.*__).")
        }
    }

    /// The emulator's answer for anything wrong inside a map of top-level field `field`.
    static func invalidNested(_ field: String) -> FirestoreError {
        .invalidArgument("Property \(field) contains an invalid nested entity.")
    }

    /// Validates `v`, a value inside top-level field `field` under `containers` maps/arrays,
    /// `inMap` when one of them is a map.
    static func validate(
        _ v: Value, field: String, containers: Int, inMap: Bool, maxDepth: Int
    ) throws(FirestoreError) {
        switch v {
        case .timestamp(let t):
            if !t.isValid { throw .invalidArgument("Timestamp out of range.") }
        case .geoPoint(let g):
            if !(g.latitude >= -90 && g.latitude <= 90) || !(g.longitude >= -180 && g.longitude <= 180) {
                throw .invalidArgument("GeoPoint out of range: (\(g.latitude), \(g.longitude)).")
            }
        case .array(let a):
            if containers + 1 > maxDepth { throw invalidNested(field) }
            for e in a {
                if case .array = e { throw .invalidArgument("Cannot convert an array value in an array value.") }
                try validate(e, field: field, containers: containers + 1, inMap: inMap, maxDepth: maxDepth)
            }
        case .map(let m):
            if containers + 1 > maxDepth { throw invalidNested(field) }
            // Nested keys follow the field-name rules too; only a vector's `__type__` is allowed.
            let isVector = v.vectorElements != nil
            for (k, e) in m {
                if k.isEmpty || k.utf8.count > maxNameBytes { throw invalidNested(field) }
                if !(isVector && k == "__type__") { try validateName(k) }
                try validate(e, field: field, containers: containers + 1, inMap: true, maxDepth: maxDepth)
            }
        case .reference(let name):
            // projects/{p}/databases/{d}/documents/{c}/{id}…: an even, non-empty document path of valid ids.
            let segments = name.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            guard segments.count >= 7, segments[0] == "projects", segments[2] == "databases", segments[4] == "documents",
                !segments[1].isEmpty, !segments[3].isEmpty, (segments.count - 5) % 2 == 0
            else { throw .invalidArgument("Reference value \"\(name)\" is not a document name.") }
            try ResourcePath(Array(segments.dropFirst(5))).validateIDs()
        case .string(let s):
            if s.utf8.count > maxValueBytes { throw valueTooLong(field, inMap: inMap) }
        case .bytes(let b):
            if b.count > maxValueBytes { throw valueTooLong(field, inMap: inMap) }
        default: break
        }
    }

    static func valueTooLong(_ field: String, inMap: Bool) -> FirestoreError {
        inMap ? invalidNested(field) : .invalidArgument("The value of property \"\(field)\" is longer than \(maxValueBytes) bytes.")
    }
}
