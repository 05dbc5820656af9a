import FoundationEssentials
import FirestoreModel
import Glibc
import GoogleWire

/// `google.firestore.v1.Value` ⇄ `Value`. Source: docs/reference/firestore-wire.md §1.7 (table of keys and leniency).
extension RESTCodec {
    /// The value keys of `google.firestore.v1.Value` a request may use.
    static let valueKeys = [
        "nullValue", "booleanValue", "integerValue", "doubleValue", "timestampValue", "stringValue",
        "bytesValue", "referenceValue", "geoPointValue", "arrayValue", "mapValue",
    ]

    /// Pipeline-only value kinds, never valid in documents, filters or transforms.
    static let pipelineValueKeys = ["fieldReferenceValue", "functionValue", "pipelineValue", "variableReferenceValue"]

    /// Decodes one `Value` object: exactly one value key set.
    ///
    /// Leniency (docs/reference/firestore-wire.md §1.7): `nullValue` as `null`, `"NULL_VALUE"` or `0`; `integerValue`
    /// as string or number; `doubleValue` as number or string (`"NaN"`, `"-0"`, …);
    /// `timestampValue` RFC 3339 with any offset and 1–9 fraction digits (kept exact, not
    /// truncated); `bytesValue` standard or URL-safe base64, padded or not; `geoPointValue`
    /// with a missing coordinate = 0; `arrayValue`/`mapValue` `{}` = empty. Ranges of
    /// timestamps and geo points, nesting depth and field names are checked by the model
    /// (`DocumentLimits.validate`), not here.
    /// - Throws: `.invalidArgument` naming `path` for zero or several value keys, unknown keys,
    ///   or a malformed value.
    public static func decodeValue(_ json: JSONValue, at path: String = "value") throws(FirestoreError) -> Value {
        var reader = try JSONObjectReader(json, at: path)
        var found: [(String, JSONValue)] = []
        for key in valueKeys {
            guard let v = reader.takeRaw(key) else { continue }
            if case .null = v, key != "nullValue" { continue }
            found.append((key, v))
        }
        for key in pipelineValueKeys where reader.takeRaw(key) != nil {
            throw invalid(reader.child(key), "pipeline values are not allowed here.")
        }
        try reader.finish()
        guard found.count == 1, let (key, v) = found.first else {
            if found.isEmpty { throw invalid(path, "a Value must set one of its value fields; none is set.") }
            throw invalid(path, "a Value must set exactly one value field; got \(found.map(\.0).joined(separator: " and ")).")
        }
        let at = reader.child(key)
        switch key {
        case "nullValue":
            if case .null = v { return .null }
            return try enumValue(v, at: at, [("NULL_VALUE", 0, Value.null)])
        case "booleanValue": return .boolean(try bool(v, at: at))
        case "integerValue": return .integer(try decodeInt64(v, at: at))
        case "doubleValue": return .double(try decodeDouble(v, at: at))
        case "timestampValue": return .timestamp(try decodeTimestamp(v, at: at))
        case "stringValue": return .string(try string(v, at: at))
        case "bytesValue": return .bytes(try decodeBytes(v, at: at))
        case "referenceValue": return .reference(try decodeReference(v, at: at))
        case "geoPointValue": return .geoPoint(try decodeGeoPoint(v, at: at))
        case "arrayValue": return .array(try decodeArrayValue(v, at: at))
        default: return .map(try decodeFields(try mapFieldsJSON(v, at: at), at: at + ".fields"))
        }
    }

    /// `ArrayValue` `{values?: [Value]}` → its elements (`{}` = empty).
    /// - Throws: `.invalidArgument` for a non-object, unknown members or bad elements.
    public static func decodeArrayValue(_ json: JSONValue, at path: String) throws(FirestoreError) -> [Value] {
        var reader = try JSONObjectReader(json, at: path)
        let list = reader.take("values")
        try reader.finish()
        guard let list else { return [] }
        var out: [Value] = []
        for (i, e) in try array(list, at: reader.child("values")).enumerated() {
            out.append(try decodeValue(e, at: reader.child("values") + "[\(i)]"))
        }
        return out
    }

    /// A `map<string, Value>` object (`Document.fields`, `MapValue.fields`): keys are raw field
    /// names, never folded or unquoted.
    /// - Throws: `.invalidArgument` for a non-object, a repeated key or a bad value.
    public static func decodeFields(_ json: JSONValue?, at path: String) throws(FirestoreError) -> FieldMap {
        guard let json else { return [:] }
        if case .null = json { return [:] }
        guard case .object(let members) = json else {
            throw invalid(path, "expected a JSON object of fields, got \(json.typeName).")
        }
        var out: FieldMap = [:]
        out.reserveCapacity(members.count)
        for m in members {
            let at = path + "[\"" + m.key + "\"]"
            if out[m.key] != nil { throw invalid(at, "field \"\(m.key)\" is given more than once.") }
            out[m.key] = try decodeValue(m.value, at: at)
        }
        return out
    }

    /// The `fields` member of a `MapValue` object (nil when absent).
    static func mapFieldsJSON(_ json: JSONValue, at path: String) throws(FirestoreError) -> JSONValue? {
        var reader = try JSONObjectReader(json, at: path)
        let fields = reader.take("fields")
        try reader.finish()
        return fields
    }

    /// An RFC 3339 timestamp string (`google.protobuf.Timestamp`), exact to the nanosecond.
    /// - Throws: `.invalidArgument` for non-strings, bad syntax or instants outside 0001…9999.
    public static func decodeTimestamp(_ json: JSONValue, at path: String) throws(FirestoreError) -> Timestamp {
        let s = try string(json, at: path)
        guard let t = Timestamp(rfc3339: s) else {
            throw invalid(path, "\"\(s)\" is not an RFC 3339 timestamp between 0001-01-01 and 9999-12-31.")
        }
        return t
    }

    /// A `bytes` field: base64 (standard or URL-safe, padding optional).
    /// - Throws: `.invalidArgument` for non-strings or invalid base64.
    public static func decodeBytes(_ json: JSONValue, at path: String) throws(FirestoreError) -> [UInt8] {
        let s = try string(json, at: path)
        guard let b = Base64.decode(s) else { throw invalid(path, "\"\(s)\" is not valid base64.") }
        return b
    }

    /// A `referenceValue`: `projects/{p}/databases/{d}/documents/{c}/{id}[/…]` with non-empty
    /// segments and an even number of them after `documents`. Any project or database is
    /// accepted here, as the emulator does.
    /// - Throws: `.invalidArgument` for other shapes.
    public static func decodeReference(_ json: JSONValue, at path: String) throws(FirestoreError) -> String {
        let s = try string(json, at: path)
        let parts = s.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 7, parts[0] == "projects", parts[2] == "databases", parts[4] == "documents",
            (parts.count - 5) % 2 == 0, !parts.contains(where: \.isEmpty)
        else {
            throw invalid(path, "\"\(s)\" is not a document name (projects/{p}/databases/{d}/documents/{path}).")
        }
        return s
    }

    /// A `google.type.LatLng` object; a missing coordinate is 0 (proto3 default).
    /// - Throws: `.invalidArgument` for unknown members or non-numeric coordinates.
    public static func decodeGeoPoint(_ json: JSONValue, at path: String) throws(FirestoreError) -> GeoPoint {
        var reader = try JSONObjectReader(json, at: path)
        let lat = try reader.take("latitude").map { (v) throws(FirestoreError) in try decodeDouble(v, at: reader.child("latitude")) }
        let lng = try reader.take("longitude").map { (v) throws(FirestoreError) in try decodeDouble(v, at: reader.child("longitude")) }
        try reader.finish()
        return GeoPoint(latitude: lat ?? 0, longitude: lng ?? 0)
    }

    /// Encodes a value exactly as the emulator does (see `encodeDouble` for doubles; timestamps
    /// via `Timestamp.rfc3339`; bytes padded standard base64; empty arrays/maps as `{}`; geo
    /// points omit zero coordinates; map keys in UTF-8 order), as JSON text (`writeValue`).
    public static func encodeValue(_ value: Value) -> JSONValue {
        var out: [UInt8] = []
        writeValue(value, into: &out)
        return .fragment(out)
    }

    /// A `map<string, Value>` as a JSON object with keys in UTF-8 order, as JSON text.
    public static func encodeFields(_ fields: FieldMap) -> JSONValue {
        var out: [UInt8] = []
        writeFields(fields, into: &out)
        return .fragment(out)
    }

    /// Appends the JSON of `value` (the one implementation of `encodeValue`): written
    /// straight to bytes, because every document of every answer goes through it.
    public static func writeValue(_ value: Value, into out: inout [UInt8]) {
        switch value {
        case .null: out.append(literal: #"{"nullValue":null}"#)
        case .boolean(let b): out.append(contentsOf: (b ? #"{"booleanValue":true}"# : #"{"booleanValue":false}"#).utf8)
        case .integer(let i):
            out.append(literal: #"{"integerValue":""#)
            DecimalText.append(i, to: &out)
            out.append(literal: #""}"#)
        case .double(let d):
            out.append(literal: #"{"doubleValue":"#)
            writeDouble(d, into: &out)
            out.append(UInt8(ascii: "}"))
        case .timestamp(let t):
            out.append(literal: #"{"timestampValue":""#)
            t.appendRFC3339(to: &out)
            out.append(literal: #""}"#)
        case .string(let s):
            out.append(literal: #"{"stringValue":"#)
            JSONValue.writeString(s, into: &out)
            out.append(UInt8(ascii: "}"))
        case .bytes(let b):
            out.append(literal: #"{"bytesValue":"#)
            JSONValue.writeString(Base64.encode(b), into: &out)
            out.append(UInt8(ascii: "}"))
        case .reference(let r):
            out.append(literal: #"{"referenceValue":"#)
            JSONValue.writeString(r, into: &out)
            out.append(UInt8(ascii: "}"))
        case .geoPoint(let g):
            out.append(literal: #"{"geoPointValue":{"#)
            // proto3 JSON omits a default (+0.0) coordinate; -0.0 is not the default.
            if g.latitude.bitPattern != 0 {
                out.append(literal: #""latitude":"#)
                writeDouble(g.latitude, into: &out)
            }
            if g.longitude.bitPattern != 0 {
                if g.latitude.bitPattern != 0 { out.append(UInt8(ascii: ",")) }
                out.append(literal: #""longitude":"#)
                writeDouble(g.longitude, into: &out)
            }
            out.append(literal: "}}")
        case .array(let a):
            if a.isEmpty {
                out.append(literal: #"{"arrayValue":{}}"#)
                return
            }
            out.append(literal: #"{"arrayValue":{"values":["#)
            for (i, e) in a.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                writeValue(e, into: &out)
            }
            out.append(literal: "]}}")
        case .map(let m):
            if m.isEmpty {
                out.append(literal: #"{"mapValue":{}}"#)
                return
            }
            out.append(literal: #"{"mapValue":{"fields":"#)
            writeFields(m, into: &out)
            out.append(literal: "}}")
        }
    }

    /// Appends `encodeDouble(d)`: NaN and the infinities as strings, else Java's text.
    static func writeDouble(_ d: Double, into out: inout [UInt8]) {
        if d.isFinite { appendJavaDoubleText(d, to: &out) } else { encodeDouble(d).write(into: &out) }
    }

    /// Appends a `map<string, Value>` as a JSON object, keys in UTF-8 order.
    public static func writeFields(_ fields: FieldMap, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        var first = true
        forEachInUTF8Order(fields) { entry in
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            JSONValue.writeString(entry.key, into: &out)
            out.append(UInt8(ascii: ":"))
            writeValue(entry.value, into: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// Calls `body` with the entries of `fields` in UTF-8 order of their keys (the order
    /// `writeFields` writes). The keys' bytes are copied once into one buffer and their
    /// positions sorted with `memcmp`, not the entries: no value is copied or retained, and
    /// no `String` comparison runs (every map of every document answered is sorted here).
    static func forEachInUTF8Order(_ fields: FieldMap, _ body: ((key: String, value: Value)) -> Void) {
        if fields.count <= 1 {
            fields.forEach(body)
            return
        }
        var keyBytes = 0
        for key in fields.keys { keyBytes += key.utf8.count }
        var positions: [(start: Int, count: Int, index: Dictionary<ExactName, Value>.Index)] = []
        positions.reserveCapacity(fields.count)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(keyBytes, 1)) { bytes in
            var offset = 0
            var index = fields.storage.startIndex
            while index != fields.storage.endIndex {
                var key = fields.storage[index].key.string
                let count = key.withUTF8 { utf8 -> Int in
                    if let base = utf8.baseAddress, utf8.count > 0 {
                        (bytes.baseAddress! + offset).initialize(from: base, count: utf8.count)
                    }
                    return utf8.count
                }
                positions.append((offset, count, index))
                offset += count
                fields.storage.formIndex(after: &index)
            }
            let base = bytes.baseAddress!
            positions.sort { a, b in
                let shared = min(a.count, b.count)
                let c = shared == 0 ? 0 : memcmp(base + a.start, base + b.start, shared)
                return c != 0 ? c < 0 : a.count < b.count
            }
        }
        for position in positions {
            let entry = fields.storage[position.index]
            body((key: entry.key.string, value: entry.value))
        }
    }
}
