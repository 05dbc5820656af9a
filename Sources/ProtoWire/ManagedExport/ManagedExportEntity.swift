import FirestoreModel

/// One document of a Cloud Firestore managed export (`output-N` records, and what the
/// emulator's `POST /emulator/v1/projects/{p}:export` writes): a Datastore `EntityProto`
/// (proto2, with groups) whose key is the document's path and whose properties are its fields.
///
/// | Firestore | `EntityProto` |
/// |---|---|
/// | document name | `key` (13): `app` "dev~{project}" (13), `path` (14) of `Element` groups (1) — collection id as `type` (2), document id as `name` (4), or an `id` (3) for ids `__id{N}__`; `database_id` (23) unless `(default)` |
/// | its first segment pair | `entity_group` (16) |
/// | a field | a `raw_property` (15): `meaning` (1), `name` (3), `multiple` (4), `value` (5) |
/// | null, boolean, integer, double, string | `PropertyValue` empty, `booleanValue` (2), `int64Value` (1), `doubleValue` (4), `stringValue` (3) |
/// | timestamp | meaning 7 (GD_WHEN), `int64Value` in microseconds (finer digits are dropped, as the emulator does) |
/// | bytes | meaning 14 (BLOB), `stringValue` holding the bytes |
/// | geo point | meaning 9 (GEORSS_POINT), `PointValue` group (5): `x` latitude (6), `y` longitude (7) |
/// | reference | `ReferenceValue` group (12): `app` (13), `PathElement` groups (14) of `type` (15) and `name` (17) or `id` (16), `database_id` (23) |
/// | map | meaning 19 (ENTITY_PROTO), `stringValue` holding an embedded `EntityProto` with an empty key |
/// | array | one property per element, same name, `multiple` true (arrays hold no arrays) |
/// | empty array | a `property` (14) with meaning 24 (EMPTY_LIST) and an empty value |
/// | vector (`__type__: "__vector__"`) | meaning 31, one double per element, `multiple` true |
///
/// Observed from the official emulator's exports (recorded in `Tests/Conformance/cli_export/`);
/// field numbers as in the App Engine SDK's public `entity.proto`. Decoding also takes
/// properties under `property` (14), meaning 15 (TEXT) as a string and 16 (BYTESTRING) as
/// bytes, and an `app` of any partition prefix (`s~`, `e~`, none).
/// Source: docs/reference/firestore-wire.md §2.5.
public enum ManagedExportEntity {
    /// A decoded document.
    public struct Decoded: Sendable, Equatable {
        /// The database its key names (project from `app`, database from `database_id`).
        public var database: DatabaseID
        /// The document's path.
        public var path: ResourcePath
        /// Its fields.
        public var fields: FieldMap
    }

    /// The database id a key or reference without `database_id` names.
    static let defaultDatabase = "(default)"

    enum Meaning {
        static let timestamp: UInt64 = 7
        static let geoPoint: UInt64 = 9
        static let blob: UInt64 = 14
        static let text: UInt64 = 15
        static let byteString: UInt64 = 16
        static let entity: UInt64 = 19
        static let emptyList: UInt64 = 24
        static let vector: UInt64 = 31
    }

    // MARK: Encoding

    /// The `EntityProto` bytes of the document `path` of `database` holding `fields`.
    /// Fields are written in UTF-8 order of their names, so an export is reproducible.
    public static func encode(path: ResourcePath, fields: FieldMap, database: DatabaseID) -> [UInt8] {
        var w = ProtoWriter(capacity: 128)
        w.writeMessageField(13) { key in
            key.writeStringField(13, "dev~" + database.project)
            key.writeMessageField(14) { writePath(path.segments, into: &$0) }
            if database.database != defaultDatabase { key.writeStringField(23, database.database) }
        }
        writeProperties(fields, into: &w)
        w.writeMessageField(16) { writePath(Array(path.segments.prefix(2)), into: &$0) }
        return w.bytes
    }

    static func writePath(_ segments: [String], into w: inout ProtoWriter) {
        var i = 0
        while i + 1 < segments.count {
            let (kind, id) = (segments[i], segments[i + 1])
            w.writeGroup(1) { e in
                e.writeStringField(2, kind)
                if let n = numericID(id) { e.writeInt64Field(3, n) } else { e.writeStringField(4, id) }
            }
            i += 2
        }
    }

    /// The numeric id a document id `__id{N}__` stands for (N a positive int64 in canonical decimal).
    static func numericID(_ id: String) -> Int64? {
        guard id.hasPrefix("__id"), id.hasSuffix("__"), id.utf8.count > 6 else { return nil }
        let digits = id.dropFirst(4).dropLast(2)
        guard let n = Int64(digits), n > 0, String(n) == digits else { return nil }
        return n
    }

    /// Empty arrays first (as indexed `property` entries, where the emulator puts them), then
    /// every other field as `raw_property` entries.
    static func writeProperties(_ fields: FieldMap, into w: inout ProtoWriter) {
        let sorted = fields.sortedByName()
        for (name, value) in sorted {
            guard case .array(let elements) = value, elements.isEmpty else { continue }
            w.writeMessageField(14) { p in
                p.writeUInt64Field(1, Meaning.emptyList)
                p.writeStringField(3, name)
                p.writeBoolField(4, false)
                p.writeMessageField(5) { _ in }
            }
        }
        for (name, value) in sorted {
            if case .array(let elements) = value {
                for e in elements { writeProperty(name, e, multiple: true, meaning: nil, into: &w) }
            } else if let vector = value.vectorElements, !vector.isEmpty,
                vector.allSatisfy({ if case .double = $0 { true } else { false } })
            {
                for e in vector { writeProperty(name, e, multiple: true, meaning: Meaning.vector, into: &w) }
            } else {
                writeProperty(name, value, multiple: false, meaning: nil, into: &w)
            }
        }
    }

    static func writeProperty(_ name: String, _ value: Value, multiple: Bool, meaning: UInt64?, into w: inout ProtoWriter) {
        w.writeMessageField(15) { p in
            if let m = meaning ?? Self.meaning(of: value) { p.writeUInt64Field(1, m) }
            p.writeStringField(3, name)
            p.writeBoolField(4, multiple)
            p.writeMessageField(5) { writeValue(value, into: &$0) }
        }
    }

    static func meaning(of value: Value) -> UInt64? {
        switch value {
        case .timestamp: return Meaning.timestamp
        case .geoPoint: return Meaning.geoPoint
        case .bytes: return Meaning.blob
        case .map: return Meaning.entity
        default: return nil
        }
    }

    static func writeValue(_ value: Value, into v: inout ProtoWriter) {
        switch value {
        case .null, .array: break  // arrays are written as repeated properties, never here
        case .boolean(let b): v.writeBoolField(2, b)
        case .integer(let i): v.writeInt64Field(1, i)
        case .double(let d): v.writeDoubleField(4, d)
        case .timestamp(let t): v.writeInt64Field(1, t.microseconds)
        case .string(let s): v.writeStringField(3, s)
        case .bytes(let b): v.writeBytesField(3, b)
        case .geoPoint(let g):
            v.writeGroup(5) { p in
                p.writeDoubleField(6, g.latitude)
                p.writeDoubleField(7, g.longitude)
            }
        case .reference(let name):
            let (database, segments) = splitReference(name)
            v.writeGroup(12) { r in
                r.writeStringField(13, "dev~" + database.project)
                var i = 0
                while i + 1 < segments.count {
                    let (kind, id) = (segments[i], segments[i + 1])
                    r.writeGroup(14) { e in
                        e.writeStringField(15, kind)
                        if let n = numericID(id) { e.writeInt64Field(16, n) } else { e.writeStringField(17, id) }
                    }
                    i += 2
                }
                if database.database != defaultDatabase { r.writeStringField(23, database.database) }
            }
        case .map(let fields):
            var embedded = ProtoWriter(capacity: 64)
            embedded.writeMessageField(13) { key in
                key.writeStringField(13, "")
                key.writeMessageField(14) { _ in }
            }
            writeProperties(fields, into: &embedded)
            embedded.writeMessageField(16) { _ in }
            v.writeBytesField(3, embedded.bytes)
        }
    }

    /// The database and path segments of a reference `projects/{p}/databases/{d}/documents/{path}`
    /// (stored references are validated on write, so the shape holds).
    static func splitReference(_ name: String) -> (DatabaseID, [String]) {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 5, parts[0] == "projects", parts[2] == "databases", parts[4] == "documents" else {
            return (DatabaseID(project: ""), [])
        }
        return (DatabaseID(project: parts[1], database: parts[3]), Array(parts.dropFirst(5)))
    }

    // MARK: Decoding

    /// Decodes one `EntityProto` record.
    /// - Throws: `ProtoWireError` for malformed protobuf, and `.invalidValue` naming what is
    ///   wrong for a key that is not a document path, a property that mixes single and
    ///   repeated values, an array inside an array, or a value of no Firestore type.
    public static func decode(_ bytes: [UInt8]) throws(ProtoWireError) -> Decoded {
        var r = ProtoReader(bytes, acceptsGroups: true)
        var database: DatabaseID?
        var path: [String] = []
        var properties: [Property] = []
        while let tag = try r.readTag() {
            switch (tag.fieldNumber, tag.wireType) {
            case (13, .len):
                var key = try r.readSubmessage()
                (database, path) = try readKey(&key)
            case (14, .len), (15, .len):
                var p = try r.readSubmessage()
                properties.append(try readProperty(&p))
            default: try r.skipField(tag)
            }
        }
        guard let database, !path.isEmpty, path.count % 2 == 0 else {
            throw ProtoWireError(.invalidValue("the entity's key is not a document path"), offset: 0)
        }
        return Decoded(database: database, path: ResourcePath(path), fields: try fields(of: properties))
    }

    struct Property {
        var meaning: UInt64 = 0
        var name = ""
        var multiple = false
        var value = Value.null
        var offset = 0
    }

    static func readKey(_ key: inout ProtoReader) throws(ProtoWireError) -> (DatabaseID, [String]) {
        var app = ""
        var database = defaultDatabase
        var path: [String] = []
        while let tag = try key.readTag() {
            switch (tag.fieldNumber, tag.wireType) {
            case (13, .len): app = try key.readString()
            case (23, .len): database = try key.readString()
            case (14, .len):
                var p = try key.readSubmessage()
                while let t = try p.readTag() {
                    guard t.fieldNumber == 1, t.wireType == .startGroup else {
                        try p.skipField(t)
                        continue
                    }
                    var e = try p.readGroup(1)
                    path += try readElement(&e, type: 2, id: 3, name: 4)
                }
            default: try key.skipField(tag)
            }
        }
        return (DatabaseID(project: project(ofApp: app), database: database.isEmpty ? defaultDatabase : database), path)
    }

    /// The project of an `app` id: what follows the partition prefix (`dev~p` → `p`).
    static func project(ofApp app: String) -> String {
        guard let tilde = app.firstIndex(of: "~") else { return app }
        return String(app[app.index(after: tilde)...])
    }

    /// `[collection id, document id]` of one path element.
    static func readElement(_ e: inout ProtoReader, type: Int, id: Int, name: Int) throws(ProtoWireError) -> [String] {
        let at = e.offset
        var kind: String?
        var docID: String?
        while let t = try e.readTag() {
            switch (t.fieldNumber, t.wireType) {
            case (type, .len): kind = try e.readString()
            case (name, .len): docID = try e.readString()
            case (id, .varint):
                let n = try e.readInt64()
                guard n > 0 else { throw ProtoWireError(.invalidValue("a path element's numeric id \(n) is not positive"), offset: at) }
                docID = "__id\(n)__"
            default: try e.skipField(t)
            }
        }
        guard let kind, let docID else {
            throw ProtoWireError(.invalidValue("a path element lacks its kind or its id/name"), offset: at)
        }
        return [kind, docID]
    }

    static func readProperty(_ p: inout ProtoReader) throws(ProtoWireError) -> Property {
        var prop = Property(offset: p.offset)
        var raw: ProtoReader?
        while let tag = try p.readTag() {
            switch (tag.fieldNumber, tag.wireType) {
            case (1, .varint): prop.meaning = try p.readVarint()
            case (3, .len): prop.name = try p.readString()
            case (4, .varint): prop.multiple = try p.readBool()
            case (5, .len): raw = try p.readSubmessage()
            default: try p.skipField(tag)
            }
        }
        if var raw { prop.value = try readValue(&raw, meaning: prop.meaning, name: prop.name) }
        return prop
    }

    static func readValue(_ v: inout ProtoReader, meaning: UInt64, name: String) throws(ProtoWireError) -> Value {
        let at = v.offset
        var value = Value.null
        while let tag = try v.readTag() {
            switch (tag.fieldNumber, tag.wireType) {
            case (1, .varint):
                let n = try v.readInt64()
                if meaning == Meaning.timestamp {
                    let t = Timestamp(microseconds: n)
                    guard t.isValid else {
                        throw ProtoWireError(.invalidValue("field \(name): a timestamp outside 0001–9999"), offset: at)
                    }
                    value = .timestamp(t)
                } else {
                    value = .integer(n)
                }
            case (2, .varint): value = .boolean(try v.readBool())
            case (3, .len):
                switch meaning {
                case Meaning.blob, Meaning.byteString: value = .bytes(try v.readBytes())
                case Meaning.entity:
                    // The embedded entity counts toward the outer reader's nesting limit.
                    guard v.depth + 1 < v.maxDepth else {
                        throw ProtoWireError(.nestingTooDeep(limit: v.maxDepth), offset: at)
                    }
                    var embedded = ProtoReader(try v.readBytes(), maxDepth: v.maxDepth - v.depth - 1, acceptsGroups: true)
                    value = .map(try embeddedFields(&embedded))
                default: value = .string(try v.readString())
                }
            case (4, .i64): value = .double(try v.readDouble())
            case (5, .startGroup):
                var g = try v.readGroup(5)
                var point = GeoPoint(latitude: 0, longitude: 0)
                while let t = try g.readTag() {
                    switch (t.fieldNumber, t.wireType) {
                    case (6, .i64): point.latitude = try g.readDouble()
                    case (7, .i64): point.longitude = try g.readDouble()
                    default: try g.skipField(t)
                    }
                }
                value = .geoPoint(point)
            case (12, .startGroup):
                var g = try v.readGroup(12)
                var app = ""
                var database = defaultDatabase
                var segments: [String] = []
                while let t = try g.readTag() {
                    switch (t.fieldNumber, t.wireType) {
                    case (13, .len): app = try g.readString()
                    case (23, .len): database = try g.readString()
                    case (14, .startGroup):
                        var e = try g.readGroup(14)
                        segments += try readElement(&e, type: 15, id: 16, name: 17)
                    default: try g.skipField(t)
                    }
                }
                guard !segments.isEmpty else {
                    throw ProtoWireError(.invalidValue("field \(name): a reference without a path"), offset: at)
                }
                let db = DatabaseID(project: project(ofApp: app), database: database.isEmpty ? defaultDatabase : database)
                value = .reference(db.resourceName(ResourcePath(segments)))
            case (8, .startGroup):
                throw ProtoWireError(.invalidValue("field \(name): a Datastore user value has no Firestore type"), offset: at)
            default: try v.skipField(tag)
            }
        }
        return value
    }

    /// The fields of an embedded entity (a map value): its properties; the key is ignored.
    static func embeddedFields(_ r: inout ProtoReader) throws(ProtoWireError) -> FieldMap {
        var properties: [Property] = []
        while let tag = try r.readTag() {
            switch (tag.fieldNumber, tag.wireType) {
            case (14, .len), (15, .len):
                var p = try r.readSubmessage()
                properties.append(try readProperty(&p))
            default: try r.skipField(tag)
            }
        }
        return try fields(of: properties)
    }

    /// Properties to fields: repeated ones become arrays (in record order), meaning 24 an
    /// empty array, meaning 31 a vector.
    static func fields(of properties: [Property]) throws(ProtoWireError) -> FieldMap {
        var singles = FieldMap()
        var arrays: [ExactName: (elements: [Value], vector: Bool)] = [:]
        var order: [String] = []
        for p in properties {
            let key = ExactName(p.name)
            if p.meaning == Meaning.emptyList {
                guard singles[p.name] == nil, arrays[key] == nil else { throw duplicate(p) }
                arrays[key] = ([], false)
                order.append(p.name)
            } else if p.multiple {
                guard singles[p.name] == nil else { throw duplicate(p) }
                if case .array = p.value { throw duplicate(p) }
                if arrays[key] == nil { order.append(p.name) }
                arrays[key, default: ([], p.meaning == Meaning.vector)].elements.append(p.value)
            } else {
                guard singles[p.name] == nil, arrays[key] == nil else { throw duplicate(p) }
                singles[p.name] = p.value
            }
        }
        for name in order {
            guard let a = arrays[ExactName(name)] else { continue }
            if a.vector, !a.elements.allSatisfy({ if case .double = $0 { true } else { false } }) {
                throw ProtoWireError(.invalidValue("field \(name): a vector holds only doubles"), offset: 0)
            }
            singles[name] =
                a.vector
                ? .map(["__type__": .string("__vector__"), "value": .array(a.elements)])
                : .array(a.elements)
        }
        return singles
    }

    static func duplicate(_ p: Property) -> ProtoWireError {
        ProtoWireError(.invalidValue("field \(p.name) is given more than once"), offset: p.offset)
    }
}
