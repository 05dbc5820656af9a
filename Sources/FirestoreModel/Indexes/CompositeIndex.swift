/// Which queries an index serves: those on one collection, or collection-group queries.
/// Source: Firestore Admin API v1 `Index.QueryScope`.
public enum IndexQueryScope: String, Sendable, Hashable, CaseIterable {
    /// Queries on one collection (`COLLECTION`).
    case collection = "COLLECTION"
    /// Collection-group queries (`COLLECTION_GROUP`).
    case collectionGroup = "COLLECTION_GROUP"
}

extension IndexQueryScope {
    /// Production's plan-summary wording (`query_scope` of `indexes_used`): `Collection` or
    /// `Collection Group`. Source: docs/reference/indexes.md §8.
    public var planSummaryName: String { self == .collection ? "Collection" : "Collection Group" }
}

/// One field of an index: a field path with an order or the array-contains configuration.
/// Source: Firestore Admin API v1 `Index.IndexField` (`order` ASCENDING / DESCENDING,
/// `arrayConfig` CONTAINS); the `firestore.indexes.json` format of `firebase deploy`.
public struct IndexField: Sendable, Hashable {
    /// What the index keeps of the field.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The value, ascending (`"order": "ASCENDING"`).
        case ascending = "ASCENDING"
        /// The value, descending (`"order": "DESCENDING"`).
        case descending = "DESCENDING"
        /// Each array element (`"arrayConfig": "CONTAINS"`): serves `array-contains(-any)`.
        case arrayContains = "CONTAINS"
    }

    /// The field (`__name__` for the document name).
    public var fieldPath: FieldPath
    /// Order or array configuration.
    public var kind: Kind

    /// Creates an index field.
    public init(_ fieldPath: FieldPath, _ kind: Kind) {
        self.fieldPath = fieldPath
        self.kind = kind
    }

    /// `i DESC`, `tags CONTAINS`, as production's plan summary writes it.
    public var description: String {
        let k: String
        switch kind {
        case .ascending: k = "ASC"
        case .descending: k = "DESC"
        case .arrayContains: k = "CONTAINS"
        }
        return "\(fieldPath.canonical) \(k)"
    }
}

/// A composite index: an ordered list of fields of the documents of one collection id, in
/// collection or collection-group scope.
///
/// Every Firestore index ends with `__name__`; when `fields` does not name it, it is implied
/// with the direction of the last field, ascending when that field is `CONTAINS` (or there is
/// none).
/// Source: Firestore Admin API v1 `Index.fields`; docs/reference/indexes.md §4.
public struct CompositeIndex: Sendable, Hashable, CustomStringConvertible {
    /// The collection id (`collectionGroup` in `firestore.indexes.json`).
    public var collectionGroup: String
    /// Collection or collection group.
    public var queryScope: IndexQueryScope
    /// The fields as defined (possibly ending with an explicit `__name__`).
    public var fields: [IndexField]

    /// Creates an index definition.
    public init(collectionGroup: String, queryScope: IndexQueryScope = .collection, fields: [IndexField]) {
        self.collectionGroup = collectionGroup
        self.queryScope = queryScope
        self.fields = fields
    }

    /// `fields` ending with `__name__`: the explicit one, or one implied in the direction of
    /// the last field (ascending when it is `CONTAINS` or absent). This is the index's key order.
    public var normalizedFields: [IndexField] {
        if let last = fields.last, last.fieldPath.isDocumentKey { return fields }
        let direction: IndexField.Kind = fields.last?.kind == .descending ? .descending : .ascending
        return fields + [IndexField(.documentKey, direction)]
    }

    /// `(bucket ASC, i DESC, __name__ DESC)`: production's plan-summary `properties`.
    public var properties: String {
        "(" + normalizedFields.map(\.description).joined(separator: ", ") + ")"
    }

    /// `messages COLLECTION (bucket ASC, i DESC, __name__ DESC)`.
    public var description: String { "\(collectionGroup) \(queryScope.rawValue) \(properties)" }

    /// Two definitions are the same index when they key the same fields: an explicit trailing
    /// `__name__` in the implied direction changes nothing.
    public static func == (a: CompositeIndex, b: CompositeIndex) -> Bool {
        a.collectionGroup == b.collectionGroup && a.queryScope == b.queryScope && a.normalizedFields == b.normalizedFields
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(collectionGroup)
        hasher.combine(queryScope)
        hasher.combine(normalizedFields)
    }
}
