import FirestoreModel
import GoogleWire

/// `Document`, `DocumentMask`, field references and `Precondition` in proto3 JSON.
/// Source: googleapis `document.proto`, `common.proto`; docs/reference/firestore-wire.md §1.3, §1.7, §1.10.
extension RESTCodec {
    /// A `Document` as a request body carries it (CreateDocument, UpdateDocument, `Write.update`).
    public struct DocumentBody: Sendable, Hashable {
        /// The document named by `name`, relative to the database; nil when `name` is absent
        /// or empty (CreateDocument bodies).
        public var path: ResourcePath?
        /// The fields (`{}` when absent).
        public var fields: FieldMap

        /// Creates a body.
        public init(path: ResourcePath?, fields: FieldMap) {
            self.path = path
            self.fields = fields
        }
    }

    /// Decodes a `Document` request body. `createTime`/`updateTime` are output-only: checked
    /// for shape and ignored.
    /// - Parameter database: the request's database; `name` must be a document in it.
    /// - Throws: `.invalidArgument` for a name outside `database` or with an odd segment
    ///   count, unknown members, or malformed fields.
    public static func decodeDocument(_ json: JSONValue, database: DatabaseID, at path: String = "document")
        throws(FirestoreError) -> DocumentBody
    {
        var reader = try JSONObjectReader(json, at: path)
        var docPath: ResourcePath?
        if let n = reader.take("name") {
            let name = try string(n, at: reader.child("name"))
            if !name.isEmpty { docPath = try decodeDocumentName(name, database: database, at: reader.child("name")) }
        }
        let fields = try decodeFields(reader.take("fields"), at: reader.child("fields"))
        for key in ["createTime", "updateTime"] {
            if let t = reader.take(key) { _ = try decodeTimestamp(t, at: reader.child(key)) }
        }
        try reader.finish()
        return DocumentBody(path: docPath, fields: fields)
    }

    /// A full document name → its path in `database` (`DatabaseID.documentPath(fromName:)`).
    /// - Throws: `.invalidArgument` naming `path` when it is not a document of `database`.
    public static func decodeDocumentName(_ name: String, database: DatabaseID, at path: String)
        throws(FirestoreError) -> ResourcePath
    {
        do {
            return try database.documentPath(fromName: name)
        } catch {
            throw invalid(path, error.message)
        }
    }

    /// A `DocumentMask` `{fieldPaths: ["a", "b.`c d`"]}`; `{}` is a present but empty mask.
    /// - Throws: `.invalidArgument` for unknown members or unparsable paths.
    public static func decodeMask(_ json: JSONValue, at path: String) throws(FirestoreError) -> [FieldPath] {
        var reader = try JSONObjectReader(json, at: path)
        let list = reader.take("fieldPaths")
        try reader.finish()
        guard let list else { return [] }
        var out: [FieldPath] = []
        for (i, e) in try array(list, at: reader.child("fieldPaths")).enumerated() {
            let at = reader.child("fieldPaths") + "[\(i)]"
            out.append(try decodeFieldPath(try string(e, at: at), at: at))
        }
        return out
    }

    /// A field path string in canonical form (`FieldPath(parsing:)`).
    /// - Throws: `.invalidArgument` naming `path` for an invalid field path.
    public static func decodeFieldPath(_ text: String, at path: String) throws(FirestoreError) -> FieldPath {
        do {
            return try FieldPath(parsing: text)
        } catch {
            throw invalid(path, error.message)
        }
    }

    /// A `FieldReference` `{fieldPath: "a.b"}`.
    /// - Throws: `.invalidArgument` when `fieldPath` is missing or invalid.
    static func decodeFieldReference(_ json: JSONValue, at path: String) throws(FirestoreError) -> FieldPath {
        var reader = try JSONObjectReader(json, at: path)
        let p = reader.take("fieldPath")
        try reader.finish()
        guard let p else { throw invalid(path, "fieldPath is required.") }
        return try decodeFieldPath(try string(p, at: reader.child("fieldPath")), at: reader.child("fieldPath"))
    }

    /// A `Precondition` `{exists: bool} | {updateTime: ts}`; `{}` = no condition.
    /// - Throws: `.invalidArgument` when both are set or either is malformed.
    public static func decodePrecondition(_ json: JSONValue, at path: String) throws(FirestoreError) -> Precondition {
        var reader = try JSONObjectReader(json, at: path)
        let exists = reader.take("exists")
        let updateTime = reader.take("updateTime")
        try reader.finish()
        switch (exists, updateTime) {
        case (nil, nil): return .none
        case (let e?, nil): return .exists(try bool(e, at: reader.child("exists")))
        case (nil, let t?): return .updateTime(try decodeTimestamp(t, at: reader.child("updateTime")))
        default: throw invalid(path, "a precondition may set exists or updateTime, not both.")
        }
    }

    /// A stored document as the emulator returns it: `{name, fields?, createTime, updateTime}`
    /// (`fields` omitted when empty; keys in UTF-8 order).
    public static func encodeDocument(_ document: Document, database: DatabaseID) -> JSONValue {
        var out: [UInt8] = []
        out.reserveCapacity(1024)
        writeDocument(document, database: database, into: &out)
        return .fragment(out)
    }

    /// Appends `encodeDocument(document, database:)` as JSON text: the hot path of every read,
    /// written straight into the answer's buffer.
    public static func writeDocument(_ document: Document, database: DatabaseID, into out: inout [UInt8]) {
        out.append(literal: #"{"name":""#)
        // `database.resourceName(document.path)`, escaped piece by piece without the String.
        out.append(literal: "projects/")
        JSONValue.writeStringContents(database.project, into: &out)
        out.append(literal: "/databases/")
        JSONValue.writeStringContents(database.database, into: &out)
        out.append(literal: "/documents")
        for segment in document.path.segments {
            out.append(UInt8(ascii: "/"))
            JSONValue.writeStringContents(segment, into: &out)
        }
        out.append(UInt8(ascii: "\""))
        if !document.hasNoFields {
            out.append(literal: #","fields":"#)
            if let encoded = document.encodedFields {
                writeFields(encoded, into: &out)
            } else {
                writeFields(document.fields, into: &out)
            }
        }
        out.append(literal: #","createTime":""#)
        document.createTime.appendRFC3339(to: &out)
        out.append(literal: #"","updateTime":""#)
        document.updateTime.appendRFC3339(to: &out)
        out.append(literal: #""}"#)
    }

    /// A `google.protobuf.Timestamp` field: RFC 3339 UTC string (`Timestamp.rfc3339`).
    public static func encodeTimestamp(_ t: Timestamp) -> JSONValue { .string(t.rfc3339) }

    /// A `bytes` field: standard base64 with padding.
    public static func encodeBytes(_ b: [UInt8]) -> JSONValue { .string(Base64.encode(b)) }
}
