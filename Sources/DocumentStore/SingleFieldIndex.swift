import FirestoreModel

/// A single-field index of the SQLite store: which field of which collection id it covers,
/// over which documents and in which mode.
///
/// Vocabulary after Firestore's single-field index settings (query scope `COLLECTION` /
/// `COLLECTION_GROUP`, modes ascending / `ARRAY_CONTAINS`). A document whose `field` is missing
/// has no entry, which is exactly Firestore's rule that a missing field never matches a filter
/// or an orderBy. Source: docs/reference/firestore-wire.md §1.5 ("Missing field never matches any filter").
public struct SingleFieldIndex: Sendable, Hashable, CustomStringConvertible {
    /// What one entry's key is.
    public enum Mode: Int64, Sendable, Hashable {
        /// The field's whole value: serves `==`, `<`…`>=`, `!=`, `in`, `not-in`, unary filters
        /// and orderBy (ascending and, scanned backwards, descending).
        case ordered = 0
        /// One entry per distinct element of an array field: serves `array-contains(-any)`.
        case arrayContains = 1
    }

    /// Which documents an entry set covers.
    public enum QueryScope: Int64, Sendable, Hashable {
        /// Entries grouped by parent collection: a query on one collection reads one range.
        case collection = 0
        /// Entries of every collection with the id, anywhere: collection-group queries.
        case collectionGroup = 1
    }

    /// The collection id (last segment of the parent collection path).
    public var collectionID: String
    /// The indexed field (never `__name__`: documents are keyed by name already).
    public var field: FieldPath
    /// Whole value or array elements.
    public var mode: Mode
    /// Per collection or per collection group.
    public var queryScope: QueryScope

    /// Creates an index description.
    public init(collectionID: String, field: FieldPath, mode: Mode = .ordered, queryScope: QueryScope = .collection) {
        self.collectionID = collectionID
        self.field = field
        self.mode = mode
        self.queryScope = queryScope
    }

    /// `messages.createdAt (ordered, collection)`.
    public var description: String {
        let m = mode == .ordered ? "ordered" : "array-contains"
        let s = queryScope == .collection ? "collection" : "group"
        return "\(collectionID).\(field.canonical) (\(m), \(s))"
    }

    /// The `OrderedKey` values this index holds for a document whose `field` is `value`: none
    /// when the field is missing (or, for `arrayContains`, not an array); distinct element keys.
    func entryKeys(for value: Value?) -> [[UInt8]] {
        guard let value else { return [] }
        switch mode {
        case .ordered:
            return [OrderedKey.value(value)]
        case .arrayContains:
            guard case .array(let elements) = value else { return [] }
            var seen = Set<[UInt8]>()
            return elements.map(OrderedKey.value).filter { seen.insert($0).inserted }
        }
    }

    /// The `parent` column of this index's entries for a document whose parent collection key is `parentKey`.
    func entryParent(_ parentKey: [UInt8]) -> [UInt8] { queryScope == .collection ? parentKey : [] }
}
