/// One single-field index setting: the scope and the order or array configuration.
/// Source: Firestore Admin API v1 `Field.IndexConfig`; `fieldOverrides[].indexes[]` of
/// `firestore.indexes.json`.
public struct SingleFieldIndexSetting: Sendable, Hashable {
    /// Collection or collection group.
    public var queryScope: IndexQueryScope
    /// Ascending, descending or array-contains.
    public var kind: IndexField.Kind

    /// Creates a setting.
    public init(queryScope: IndexQueryScope = .collection, kind: IndexField.Kind) {
        self.queryScope = queryScope
        self.kind = kind
    }

    /// The settings production keeps for every field automatically: ascending, descending
    /// and array-contains, collection scope only.
    public static let automatic: [SingleFieldIndexSetting] = [
        .init(kind: .ascending), .init(kind: .descending), .init(kind: .arrayContains),
    ]
}

/// A single-field index exemption: the single-field indexes of one field of one collection
/// id replace the automatic ones (an empty list exempts the field from indexing).
/// Source: `fieldOverrides` of `firestore.indexes.json`; Firestore Admin API v1 `Field`.
public struct FieldOverride: Sendable, Hashable {
    /// The collection id.
    public var collectionGroup: String
    /// The field.
    public var fieldPath: FieldPath
    /// The single-field indexes kept instead of the automatic ones.
    public var indexes: [SingleFieldIndexSetting]
    /// True when the field is the collection's time-to-live field (`"ttl": true`). Hearth
    /// keeps it for the file's round trip; it does not expire documents.
    public var ttl: Bool

    /// Creates an override.
    public init(collectionGroup: String, fieldPath: FieldPath, indexes: [SingleFieldIndexSetting], ttl: Bool = false) {
        self.collectionGroup = collectionGroup
        self.fieldPath = fieldPath
        self.indexes = indexes
        self.ttl = ttl
    }
}

/// The indexes of a project as `firestore.indexes.json` (or the Admin API) defines them.
public struct IndexConfiguration: Sendable, Hashable {
    /// Composite indexes.
    public var indexes: [CompositeIndex]
    /// Single-field exemptions.
    public var fieldOverrides: [FieldOverride]

    /// Creates a configuration.
    public init(indexes: [CompositeIndex] = [], fieldOverrides: [FieldOverride] = []) {
        self.indexes = indexes
        self.fieldOverrides = fieldOverrides
    }

    /// The single-field indexes `field` of collection id `collectionGroup` has: those of the
    /// most specific override of the field or of a map field containing it (subfields inherit
    /// a map field's exemption), else `SingleFieldIndexSetting.automatic`.
    /// Source: docs/reference/indexes.md §2.2.
    public func singleFieldIndexes(collectionGroup: String, field: FieldPath) -> [SingleFieldIndexSetting] {
        var best: FieldOverride?
        for o in fieldOverrides where o.collectionGroup == collectionGroup && o.fieldPath.isPrefix(of: field) {
            if best.map({ o.fieldPath.segments.count > $0.fieldPath.segments.count }) ?? true { best = o }
        }
        return best?.indexes ?? SingleFieldIndexSetting.automatic
    }
}
