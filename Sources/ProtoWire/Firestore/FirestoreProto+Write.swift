import FirestoreModel

/// `Write`, `DocumentTransform`, `FieldTransform`, `Precondition`, `WriteResult`.
///
/// Write (oneof operation): 1 update Document, 2 delete string, 5 verify string (client SDK
/// protos only), 6 transform DocumentTransform; plus 3 update_mask DocumentMask (presence ⇒
/// patch, even when empty), 7 update_transforms, 4 current_document Precondition.
/// FieldTransform: 1 field_path, oneof 2 set_to_server_value (1 REQUEST_TIME), 3 increment,
/// 4 maximum, 5 minimum, 6 append_missing_elements, 7 remove_all_from_array.
/// Precondition (oneof): 1 exists bool, 2 update_time Timestamp.
/// WriteResult: 1 update_time, 2 transform_results.
/// Source: googleapis `write.proto`, `common.proto`; firebase-ios-sdk `Firestore/Protos/…/write.proto`
/// (verify); docs/reference/grpc-and-listen.md §1.4, §6.2–§6.3, §9.
extension FirestoreProto {
    /// Decodes a Write whose document names must lie in `database`.
    /// A legacy `transform` write carries its field transforms in `updateTransforms`.
    /// - Throws: `.invalidValue` for no operation, a name outside `database`, `update_mask`
    ///   without `update`, `update_transforms` with a non-update operation, or bad members.
    static func decodeWrite(_ reader: ProtoReader, database: DatabaseID) throws(ProtoWireError) -> Write {
        enum Operation {
            case update(DocumentBody)
            case delete(String, Int)
            case verify(String, Int)
            case transform(ProtoReader)
        }
        var r = reader
        let start = r.offset
        var operation: Operation?
        var mask: [FieldPath]?
        var transforms: [FieldTransform]?
        var precondition = Precondition.none
        while let tag = try r.readTag() {
            switch (tag.fieldNumber, tag.wireType) {
            case (1, .len):
                operation = .update(try within("update") { () throws(ProtoWireError) in try decodeDocumentBody(r.readSubmessage()) })
            case (2, .len):
                let at = r.offset
                operation = .delete(try within("delete") { () throws(ProtoWireError) in try r.readString() }, at)
            case (5, .len):
                let at = r.offset
                operation = .verify(try within("verify") { () throws(ProtoWireError) in try r.readString() }, at)
            case (6, .len): operation = .transform(try r.readSubmessage())
            case (3, .len):
                mask = try within("update_mask") { () throws(ProtoWireError) in try decodeDocumentMask(r.readSubmessage()) }
            case (7, .len):
                var list = transforms ?? []
                list.append(
                    try within("update_transforms[\(list.count)]") { () throws(ProtoWireError) in
                        try decodeFieldTransform(r.readSubmessage())
                    })
                transforms = list
            case (4, .len):
                precondition = try within("current_document") { () throws(ProtoWireError) in try decodePrecondition(r.readSubmessage()) }
            default: try r.skipField(tag)
            }
        }
        guard let operation else {
            throw ProtoWireError(.invalidValue("a write must set one of update, delete, verify or transform."), offset: start)
        }
        var write: Write
        switch operation {
        case .update(let body):
            let path = try within("update.name") { () throws(ProtoWireError) in
                try decodeDocumentPath(body.name, in: database, at: body.nameOffset)
            }
            write = Write(operation: .update(path: path, fields: body.fields), updateMask: mask, updateTransforms: transforms ?? [])
        case .delete(let name, let at), .verify(let name, let at):
            if mask != nil { throw ProtoWireError(.invalidValue("update_mask is only allowed with update."), offset: start) }
            if transforms != nil {
                throw ProtoWireError(.invalidValue("update_transforms is only allowed with update."), offset: start)
            }
            let isDelete: Bool
            if case .delete = operation { isDelete = true } else { isDelete = false }
            let path = try within(isDelete ? "delete" : "verify") { () throws(ProtoWireError) in
                try decodeDocumentPath(name, in: database, at: at)
            }
            write = Write(operation: isDelete ? .delete(path) : .verify(path))
        case .transform(let sub):
            if mask != nil { throw ProtoWireError(.invalidValue("update_mask is only allowed with update."), offset: start) }
            if transforms != nil {
                throw ProtoWireError(.invalidValue("update_transforms is only allowed with update."), offset: start)
            }
            let (path, fieldTransforms) = try within("transform") { () throws(ProtoWireError) in
                try decodeDocumentTransform(sub, database: database)
            }
            write = Write(operation: .transform(path), updateTransforms: fieldTransforms)
        }
        write.currentDocument = precondition
        return write
    }

    /// Decodes a DocumentTransform (1 document, 2 field_transforms).
    static func decodeDocumentTransform(_ reader: ProtoReader, database: DatabaseID) throws(ProtoWireError)
        -> (ResourcePath, [FieldTransform])
    {
        var r = reader
        var name = ""
        var nameAt = r.offset
        var transforms: [FieldTransform] = []
        while let tag = try r.readTag() {
            switch (tag.fieldNumber, tag.wireType) {
            case (1, .len):
                nameAt = r.offset
                name = try within("document") { () throws(ProtoWireError) in try r.readString() }
            case (2, .len):
                transforms.append(
                    try within("field_transforms[\(transforms.count)]") { () throws(ProtoWireError) in
                        try decodeFieldTransform(r.readSubmessage())
                    })
            default: try r.skipField(tag)
            }
        }
        let path = try within("document") { () throws(ProtoWireError) in try decodeDocumentPath(name, in: database, at: nameAt) }
        return (path, transforms)
    }

    /// Decodes a FieldTransform.
    /// - Throws: `.invalidValue` for a missing/invalid field_path, no transform, or a
    ///   server value other than REQUEST_TIME.
    static func decodeFieldTransform(_ reader: ProtoReader) throws(ProtoWireError) -> FieldTransform {
        var r = reader
        let start = r.offset
        var pathText = ""
        var pathAt = r.offset
        var operation: FieldTransform.Operation?
        while let tag = try r.readTag() {
            switch (tag.fieldNumber, tag.wireType) {
            case (1, .len):
                pathAt = r.offset
                pathText = try within("field_path") { () throws(ProtoWireError) in try r.readString() }
            case (2, .varint):
                let at = r.offset
                let serverValue = try r.readInt32()
                guard serverValue == 1 else {
                    throw ProtoWireError(
                        .invalidValue("set_to_server_value must be REQUEST_TIME (1); got \(serverValue)."), offset: at,
                        fieldPath: ["set_to_server_value"])
                }
                operation = .serverTimestamp
            case (3, .len):
                operation = .increment(try within("increment") { () throws(ProtoWireError) in try decodeValue(r.readSubmessage()) })
            case (4, .len):
                operation = .maximum(try within("maximum") { () throws(ProtoWireError) in try decodeValue(r.readSubmessage()) })
            case (5, .len):
                operation = .minimum(try within("minimum") { () throws(ProtoWireError) in try decodeValue(r.readSubmessage()) })
            case (6, .len):
                operation = .appendMissingElements(
                    try within("append_missing_elements") { () throws(ProtoWireError) in try decodeArrayValue(r.readSubmessage()) })
            case (7, .len):
                operation = .removeAllFromArray(
                    try within("remove_all_from_array") { () throws(ProtoWireError) in try decodeArrayValue(r.readSubmessage()) })
            default: try r.skipField(tag)
            }
        }
        let fieldPath = try within("field_path") { () throws(ProtoWireError) in
            guard !pathText.isEmpty else { throw ProtoWireError(.invalidValue("a field transform needs a field_path."), offset: start) }
            return try checked(at: pathAt) { () throws(FirestoreError) in try FieldPath(parsing: pathText) }
        }
        guard let operation else {
            throw ProtoWireError(.invalidValue("a field transform must set one transform_type."), offset: start)
        }
        return FieldTransform(fieldPath: fieldPath, operation: operation)
    }

    /// Decodes a Precondition; a message with no arm set is `.none`.
    static func decodePrecondition(_ reader: ProtoReader) throws(ProtoWireError) -> Precondition {
        var r = reader
        var precondition = Precondition.none
        while let tag = try r.readTag() {
            switch (tag.fieldNumber, tag.wireType) {
            case (1, .varint): precondition = .exists(try r.readBool())
            case (2, .len):
                precondition = .updateTime(try within("update_time") { () throws(ProtoWireError) in try decodeTimestamp(r.readSubmessage()) })
            default: try r.skipField(tag)
            }
        }
        return precondition
    }

    /// Writes the fields of a WriteResult: update_time when set, every transform result.
    static func encodeWriteResult(_ result: WriteResult, into w: inout ProtoWriter) {
        if let t = result.updateTime { writeTimestampField(1, t, into: &w) }
        for v in result.transformResults { w.writeMessageField(2) { encodeValue(v, into: &$0) } }
    }
}
