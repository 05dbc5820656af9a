import FirestoreModel
import GoogleWire

/// `Write`, `FieldTransform`, `WriteResult` and `CommitResponse` in proto3 JSON.
/// Source: googleapis `write.proto`, `firestore.proto` (Commit); docs/reference/firestore-wire.md §1.3–§1.4.
extension RESTCodec {
    /// Decodes a `Write`: exactly one of `update`, `delete`, `transform`, `verify`, plus
    /// `updateMask` and `updateTransforms` (only with `update`) and `currentDocument`.
    ///
    /// An absent `updateMask` gives `Write.updateMask == nil` (replace); a present one, even
    /// `{}`, gives an array (masked merge). A legacy `transform` write carries its
    /// `fieldTransforms` in `Write.updateTransforms`.
    /// - Parameter database: the request's database; every document name must be in it.
    /// - Throws: `.invalidArgument` for zero or several operations, a mask or transforms
    ///   without `update`, a document name outside `database`, or any malformed member.
    public static func decodeWrite(_ json: JSONValue, database: DatabaseID, at path: String = "write")
        throws(FirestoreError) -> Write
    {
        var reader = try JSONObjectReader(json, at: path)
        let update = reader.take("update")
        let delete = reader.take("delete")
        let transform = reader.take("transform")
        let verify = reader.take("verify")
        let mask = reader.take("updateMask")
        let transforms = reader.take("updateTransforms")
        let current = reader.take("currentDocument")
        try reader.finish()

        let ops = [("update", update), ("delete", delete), ("transform", transform), ("verify", verify)]
            .filter { $0.1 != nil }.map(\.0)
        guard ops.count == 1 else {
            if ops.isEmpty { throw invalid(path, "a write must set one of update, delete, transform or verify.") }
            throw invalid(path, "a write must set exactly one operation; got \(ops.joined(separator: " and ")).")
        }
        if update == nil {
            if mask != nil { throw invalid(reader.child("updateMask"), "updateMask is only allowed with update.") }
            if transforms != nil {
                throw invalid(reader.child("updateTransforms"), "updateTransforms is only allowed with update.")
            }
        }

        var write: Write
        if let update {
            let body = try decodeDocument(update, database: database, at: reader.child("update"))
            guard let docPath = body.path else { throw invalid(reader.child("update.name"), "a document name is required.") }
            write = Write(operation: .update(path: docPath, fields: body.fields))
            if let mask { write.updateMask = try decodeMask(mask, at: reader.child("updateMask")) }
            if let transforms {
                write.updateTransforms = try decodeFieldTransforms(transforms, at: reader.child("updateTransforms"))
            }
        } else if let delete {
            let at = reader.child("delete")
            write = Write(operation: .delete(try decodeDocumentName(try string(delete, at: at), database: database, at: at)))
        } else if let verify {
            let at = reader.child("verify")
            write = Write(operation: .verify(try decodeDocumentName(try string(verify, at: at), database: database, at: at)))
        } else if let transform {
            var t = try JSONObjectReader(transform, at: reader.child("transform"))
            let document = t.take("document")
            let fieldTransforms = t.take("fieldTransforms")
            try t.finish()
            guard let document else { throw invalid(t.child("document"), "a document name is required.") }
            let docPath = try decodeDocumentName(try string(document, at: t.child("document")), database: database, at: t.child("document"))
            write = Write(operation: .transform(docPath))
            if let fieldTransforms {
                write.updateTransforms = try decodeFieldTransforms(fieldTransforms, at: t.child("fieldTransforms"))
            }
        } else {
            throw invalid(path, "a write must set one operation.")  // unreachable: ops.count == 1
        }
        if let current { write.currentDocument = try decodePrecondition(current, at: reader.child("currentDocument")) }
        return write
    }

    /// A JSON array of `FieldTransform`s.
    /// - Throws: `.invalidArgument` for a non-array or a bad element.
    static func decodeFieldTransforms(_ json: JSONValue, at path: String) throws(FirestoreError) -> [FieldTransform] {
        var out: [FieldTransform] = []
        for (i, e) in try array(json, at: path).enumerated() {
            out.append(try decodeFieldTransform(e, at: path + "[\(i)]"))
        }
        return out
    }

    /// Decodes a `FieldTransform`: `fieldPath` plus exactly one of `setToServerValue`
    /// (`"REQUEST_TIME"` or `1`), `increment`, `maximum`, `minimum` (a `Value`),
    /// `appendMissingElements`, `removeAllFromArray` (an `ArrayValue`). Operand types
    /// (numbers for increment/max/min) are the model's to check (`FieldTransform.apply`).
    /// - Throws: `.invalidArgument` for a missing or invalid `fieldPath`, zero or several
    ///   operations, or a malformed operand.
    public static func decodeFieldTransform(_ json: JSONValue, at path: String = "fieldTransform")
        throws(FirestoreError) -> FieldTransform
    {
        var reader = try JSONObjectReader(json, at: path)
        let fieldPath = reader.take("fieldPath")
        let kinds = ["setToServerValue", "increment", "maximum", "minimum", "appendMissingElements", "removeAllFromArray"]
        var found: [(String, JSONValue)] = []
        for k in kinds { if let v = reader.take(k) { found.append((k, v)) } }
        try reader.finish()
        guard let fieldPath else { throw invalid(reader.child("fieldPath"), "a field transform needs a fieldPath.") }
        let field = try decodeFieldPath(try string(fieldPath, at: reader.child("fieldPath")), at: reader.child("fieldPath"))
        guard found.count == 1, let (kind, v) = found.first else {
            if found.isEmpty { throw invalid(path, "a field transform must set one transformation.") }
            throw invalid(path, "a field transform must set exactly one transformation; got \(found.map(\.0).joined(separator: " and ")).")
        }
        let at = reader.child(kind)
        let operation: FieldTransform.Operation
        switch kind {
        case "setToServerValue":
            operation = try enumValue(v, at: at, [("REQUEST_TIME", 1, FieldTransform.Operation.serverTimestamp)])
        case "increment": operation = .increment(try decodeValue(v, at: at))
        case "maximum": operation = .maximum(try decodeValue(v, at: at))
        case "minimum": operation = .minimum(try decodeValue(v, at: at))
        case "appendMissingElements": operation = .appendMissingElements(try decodeArrayValue(v, at: at))
        default: operation = .removeAllFromArray(try decodeArrayValue(v, at: at))
        }
        return FieldTransform(fieldPath: field, operation: operation)
    }

    /// A `WriteResult` as the emulator writes it: `updateTime` unless nil (deletes, verifies),
    /// `transformResults` unless empty; a delete's result is `{}`.
    public static func encodeWriteResult(_ result: WriteResult) -> JSONValue {
        var members: [JSONValue.Member] = []
        if let t = result.updateTime { members.append(.init("updateTime", encodeTimestamp(t))) }
        if !result.transformResults.isEmpty {
            members.append(.init("transformResults", .array(result.transformResults.map(encodeValue))))
        }
        return .object(members)
    }
}
