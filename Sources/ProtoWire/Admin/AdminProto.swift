import FirestoreModel

/// The `google.firestore.admin.v1` messages Hearth encodes: `Index` (with `IndexField`) and
/// `Field` (with `IndexConfig` and `TtlConfig`), hand-written like `FirestoreProto`.
///
/// Field numbers (googleapis `google/firestore/admin/v1/index.proto`, `field.proto`):
/// `Index` name 1, query_scope 2 (COLLECTION 1, COLLECTION_GROUP 2), fields 3, state 4
/// (CREATING 1, READY 2, NEEDS_REPAIR 3); `IndexField` field_path 1, oneof order 2
/// (ASCENDING 1, DESCENDING 2) / array_config 3 (CONTAINS 1); `Field` name 1,
/// index_config 2, ttl_config 3; `IndexConfig` indexes 1, uses_ancestor_config 2,
/// ancestor_field 3, reverting 4; `TtlConfig` state 1.
/// Source: docs/reference/indexes.md §7.2.
public enum AdminProto {
    /// `Index.State` numbers.
    public enum IndexState: Int, Sendable, Hashable {
        /// Not written (proto3 default).
        case unspecified = 0
        /// `CREATING`.
        case creating = 1
        /// `READY`.
        case ready = 2
        /// `NEEDS_REPAIR`.
        case needsRepair = 3
    }

    /// `QueryScope` number of `scope`.
    public static func number(_ scope: IndexQueryScope) -> UInt64 {
        scope == .collection ? 1 : 2
    }

    /// Encodes an `Index` message.
    /// - Parameters:
    ///   - name: the resource name (field 1; skipped when empty): an index name, or the
    ///     `…/collectionGroups/{g}/indexes/_` or `…/fields/{f}` placeholder the console
    ///     links carry.
    ///   - queryScope: field 2.
    ///   - fields: field 3, in order, each `field_path` then its order or array config.
    ///   - state: field 4, skipped when `.unspecified`.
    /// - Returns: the message bytes (no length prefix).
    public static func indexBytes(name: String, queryScope: IndexQueryScope, fields: [IndexField], state: IndexState = .unspecified)
        -> [UInt8]
    {
        var w = ProtoWriter()
        writeIndex(into: &w, name: name, queryScope: queryScope, fields: fields, state: state)
        return w.bytes
    }

    static func writeIndex(into w: inout ProtoWriter, name: String, queryScope: IndexQueryScope, fields: [IndexField], state: IndexState) {
        if !name.isEmpty { w.writeStringField(1, name) }
        w.writeTag(2, .varint)
        w.writeVarint(number(queryScope))
        for f in fields {
            w.writeMessageField(3) { m in
                m.writeStringField(1, f.fieldPath.canonical)
                switch f.kind {
                case .ascending:
                    m.writeTag(2, .varint)
                    m.writeVarint(1)
                case .descending:
                    m.writeTag(2, .varint)
                    m.writeVarint(2)
                case .arrayContains:
                    m.writeTag(3, .varint)
                    m.writeVarint(1)
                }
            }
        }
        if state != .unspecified {
            w.writeTag(4, .varint)
            w.writeVarint(UInt64(state.rawValue))
        }
    }

    /// Encodes a composite index as its Admin API resource (`Index` with `name`, scope, its
    /// key fields ending with `__name__` as the API lists them, and `state`).
    public static func indexBytes(_ index: CompositeIndex, name: String, state: IndexState = .ready) -> [UInt8] {
        indexBytes(name: name, queryScope: index.queryScope, fields: index.normalizedFields, state: state)
    }

    /// Encodes a `Field` message: `name`
    /// (`projects/{p}/databases/{d}/collectionGroups/{g}/fields/{f}`), its `index_config`
    /// (one single-field `Index` per setting, `uses_ancestor_config` when it inherits), and a
    /// `ttl_config` with state ACTIVE (2) when `ttl`.
    public static func fieldBytes(_ override: FieldOverride, database: DatabaseID, usesAncestorConfig: Bool = false) -> [UInt8] {
        var w = ProtoWriter()
        w.writeStringField(1, fieldName(collectionGroup: override.collectionGroup, fieldPath: override.fieldPath, database: database))
        w.writeMessageField(2) { c in
            for s in override.indexes {
                c.writeMessageField(1) { i in
                    writeIndex(
                        into: &i, name: "", queryScope: s.queryScope, fields: [IndexField(override.fieldPath, s.kind)],
                        state: .ready)
                }
            }
            if usesAncestorConfig { c.writeBoolField(2, true) }
        }
        if override.ttl {
            w.writeMessageField(3) { t in
                t.writeTag(1, .varint)
                t.writeVarint(2)
            }
        }
        return w.bytes
    }

    /// `projects/{p}/databases/{d}/collectionGroups/{g}/fields/{f}` (canonical field path).
    public static func fieldName(collectionGroup: String, fieldPath: FieldPath, database: DatabaseID) -> String {
        "\(database.name)/collectionGroups/\(collectionGroup)/fields/\(fieldPath.canonical)"
    }

    /// `projects/{p}/databases/{d}/collectionGroups/{g}/indexes/{id}`.
    public static func indexName(collectionGroup: String, indexID: String, database: DatabaseID) -> String {
        "\(database.name)/collectionGroups/\(collectionGroup)/indexes/\(indexID)"
    }
}
