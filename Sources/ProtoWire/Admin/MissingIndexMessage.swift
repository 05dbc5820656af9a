import FirestoreModel

/// Production's `FAILED_PRECONDITION` message for a query that lacks an index, with the
/// console link whose `create_composite` / `create_exemption` parameter encodes the index.
///
/// - Composite: `The query requires an index. You can create it here: {console}?create_composite={Index}`,
///   the `Index` named `{database}/collectionGroups/{g}/indexes/_`, its fields ending with
///   `__name__`; when the query has inequalities on several fields production appends
///   ` .\nThe query contains range and inequality filters on multiple fields, please refer to
///   the documentation for index selection best practices:
///   https://cloud.google.com/firestore/docs/query-data/multiple-range-fields.`
/// - Single field: `The query requires a {COLLECTION|COLLECTION_GROUP}_{ASC|DESC|CONTAINS} index
///   for collection {g} and field {f}. You can create it here: {console}?create_exemption={Index}`,
///   the `Index` named `{database}/collectionGroups/{g}/fields/{f}` with the one field.
///
/// `{console}` is `https://console.firebase.google.com/v1/r/project/{p}/firestore/indexes`
/// for `(default)` and `…/firestore/databases/{d}/indexes` for a named database (the
/// latter unconfirmed). The parameter is the `Index` message in base64url without padding.
/// Source: docs/reference/indexes.md §5.
public enum MissingIndexMessage {
    /// The full message production returns for `missing` in `database`.
    /// - Parameter multipleInequalityFields: true when the query filters with inequalities
    ///   (`<`, `<=`, `>`, `>=`, `!=`, `not-in`) on more than one field (composite only).
    public static func text(for missing: MissingIndex, database: DatabaseID, multipleInequalityFields: Bool = false) -> String {
        switch missing {
        case .composite:
            var text = "The query requires an index. You can create it here: " + url(for: missing, database: database)
            if multipleInequalityFields {
                text +=
                    " .\nThe query contains range and inequality filters on multiple fields, please refer to the documentation for index selection best practices: https://cloud.google.com/firestore/docs/query-data/multiple-range-fields."
            }
            return text
        case .singleField(let group, let field, let setting):
            let kind: String
            switch setting.kind {
            case .ascending: kind = "ASC"
            case .descending: kind = "DESC"
            case .arrayContains: kind = "CONTAINS"
            }
            return
                "The query requires a \(setting.queryScope.rawValue)_\(kind) index for collection \(group) and field \(field.canonical). You can create it here: "
                + url(for: missing, database: database)
        }
    }

    /// The console link alone.
    public static func url(for missing: MissingIndex, database: DatabaseID) -> String {
        switch missing {
        case .composite: return consoleBase(database) + "?create_composite=" + parameter(for: missing, database: database)
        case .singleField: return consoleBase(database) + "?create_exemption=" + parameter(for: missing, database: database)
        }
    }

    /// `https://console.firebase.google.com/v1/r/project/{p}/firestore[/databases/{d}]/indexes`.
    public static func consoleBase(_ database: DatabaseID) -> String {
        let db = database.database == "(default)" ? "" : "/databases/\(database.database)"
        return "https://console.firebase.google.com/v1/r/project/\(database.project)/firestore\(db)/indexes"
    }

    /// The link parameter: the `Index` message, base64url (RFC 4648 §5) without padding.
    public static func parameter(for missing: MissingIndex, database: DatabaseID) -> String {
        base64URL(indexMessage(for: missing, database: database))
    }

    /// The `Index` message the link carries.
    public static func indexMessage(for missing: MissingIndex, database: DatabaseID) -> [UInt8] {
        switch missing {
        case .composite(let index):
            return AdminProto.indexBytes(
                name: "\(database.name)/collectionGroups/\(index.collectionGroup)/indexes/_", queryScope: index.queryScope,
                fields: index.normalizedFields)
        case .singleField(let group, let field, let setting):
            return AdminProto.indexBytes(
                name: AdminProto.fieldName(collectionGroup: group, fieldPath: field, database: database), queryScope: setting.queryScope,
                fields: [IndexField(field, setting.kind)])
        }
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Base64url (RFC 4648 §5) without `=` padding.
    static func base64URL(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var i = 0
        while i < bytes.count {
            let n = min(3, bytes.count - i)
            var v = UInt32(bytes[i]) << 16
            if n > 1 { v |= UInt32(bytes[i + 1]) << 8 }
            if n > 2 { v |= UInt32(bytes[i + 2]) }
            for k in 0...n { out.append(alphabet[Int(v >> (18 - 6 * UInt32(k)) & 63)]) }
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}
