import FirestoreModel

/// `google.firestore.v1.Document`: 1 name, 2 fields map<string, Value>, 3 create_time,
/// 4 update_time. Source: googleapis `document.proto`; docs/reference/grpc-and-listen.md §6.1.
extension FirestoreProto {
    /// A Document as a client sends it: the name (possibly empty, e.g. in CreateDocument)
    /// and the fields. `create_time`/`update_time` are output only and ignored.
    struct DocumentBody {
        /// The full resource name as sent ("" when absent).
        var name: String
        /// Byte offset of the name, for errors about it.
        var nameOffset: Int
        /// The fields.
        var fields: FieldMap
    }

    /// Decodes a Document sent by a client.
    static func decodeDocumentBody(_ reader: ProtoReader) throws(ProtoWireError) -> DocumentBody {
        var r = reader
        var body = DocumentBody(name: "", nameOffset: r.offset, fields: [:])
        while let tag = try r.readTag() {
            switch (tag.fieldNumber, tag.wireType) {
            case (1, .len):
                body.nameOffset = r.offset
                body.name = try within("name") { () throws(ProtoWireError) in try r.readString() }
            case (2, .len): try decodeFieldsEntry(r.readSubmessage(), into: &body.fields)
            default: try r.skipField(tag)
            }
        }
        return body
    }

    /// Writes the fields of a Document: name, fields (sorted by key), create_time, update_time.
    static func encodeDocument(_ document: Document, database: DatabaseID, into w: inout ProtoWriter) {
        w.writeStringField(1, database.resourceName(document.path))
        if let encoded = document.encodedFields {
            encodeFields(encoded, field: 2, into: &w)
        } else {
            encodeFields(document.fields, field: 2, into: &w)
        }
        writeTimestampField(3, document.createTime, into: &w)
        writeTimestampField(4, document.updateTime, into: &w)
    }

    /// Serializes a Document (the response of GetDocument, CreateDocument, UpdateDocument).
    /// - Parameter database: the database whose resource name prefixes the document's path;
    ///   echo the request's exactly (docs/reference/grpc-and-listen.md §0 #12).
    public static func serializedDocument(_ document: Document, database: DatabaseID) -> [UInt8] {
        var w = ProtoWriter()
        encodeDocument(document, database: database, into: &w)
        return w.bytes
    }
}
