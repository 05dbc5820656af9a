import FirestoreModel

/// A read of the documents of one collection whose `field` lies in any of several ranges,
/// post-filtered by `filter` and projected onto `projection`: the shape of a geo query
/// (one `orderBy(field).startAt([start]).endAt([end])` query per geohash bound, then a
/// filter on other fields), answered without materialising whole documents.
///
/// Its answer is defined by the general queries: for each range in order, the documents of
/// `orderBy(field).startAt([range.start]).endAt([range.end])` on `collection` (so in
/// `(field, __name__)` order, documents without the field excluded) that pass `filter`
/// (`Filter.matches`). A document in several ranges comes once per range.
/// Source: docs/reference/firestore-wire.md §1.5 (cursors), §5.2 (geo queries); issue 14 item 5.
public struct RangeScan: Sendable, Hashable {
    /// One range of `field`'s values, both ends inclusive (`startAt` / `endAt`).
    public struct ValueRange: Sendable, Hashable {
        /// The least value in the range.
        public var start: Value
        /// The greatest value in the range.
        public var end: Value

        /// Creates a range.
        public init(start: Value, end: Value) {
            self.start = start
            self.end = end
        }
    }

    /// The collection read (a collection path relative to the documents root).
    public var collection: ResourcePath
    /// The ordered field the ranges apply to (not `__name__`).
    public var field: FieldPath
    /// The ranges, in answer order.
    public var ranges: [ValueRange]
    /// Applied to each document in a range; nil keeps them all. Any filter works; the SQLite
    /// store evaluates field comparisons (alone or ANDed) on the stored bytes and falls back
    /// to the general queries for others.
    public var filter: Filter?
    /// The fields reported for each document, in `ProjectedDocument.values` order.
    public var projection: [FieldPath]

    /// Creates a scan.
    public init(collection: ResourcePath, field: FieldPath, ranges: [ValueRange], filter: Filter? = nil, projection: [FieldPath]) {
        self.collection = collection
        self.field = field
        self.ranges = ranges
        self.filter = filter
        self.projection = projection
    }

    /// The general query of range `range`: `orderBy(field).startAt([start]).endAt([end])`
    /// on `collection` (without `filter`, which the general path applies afterwards).
    public func query(for range: ValueRange) -> QueryTarget {
        var query = StructuredQuery(collectionID: collection.lastSegment)
        query.orderBy = [Order(field, .ascending)]
        query.startAt = Cursor(values: [range.start], before: true)
        query.endAt = Cursor(values: [range.end], before: false)
        return QueryTarget(parent: collection.parent, query: query)
    }
}

/// One document of a `RangeScan` answer: its id, update time and projected values.
public struct ProjectedDocument: Sendable, Hashable {
    /// The document id (last path segment).
    public var documentID: String
    /// The document's update time (its version, for preconditions).
    public var updateTime: Timestamp
    /// The value at each `RangeScan.projection` path, nil where missing.
    public var values: [Value?]

    /// Creates a projected document.
    public init(documentID: String, updateTime: Timestamp, values: [Value?]) {
        self.documentID = documentID
        self.updateTime = updateTime
        self.values = values
    }
}

extension StoreSnapshot {
    /// `scanRanges` by the general path: one `runQuery` per range, `Filter.matches` on each
    /// document, projection by `Dictionary.value(at:)`. The reference the fast paths are
    /// tested against, and what every store without one uses.
    /// - Throws: as `runQuery`; what `accept` throws.
    public func scanRangesByQueries<T>(
        _ scan: RangeScan, in database: DatabaseID, _ accept: (ProjectedDocument) throws(FirestoreError) -> T?
    ) throws(FirestoreError) -> [T] {
        var out: [T] = []
        for range in scan.ranges {
            for document in try runQuery(scan.query(for: range), in: database).documents {
                if let filter = scan.filter, !filter.matches(document, in: database) { continue }
                let projected = ProjectedDocument(
                    documentID: document.path.lastSegment, updateTime: document.updateTime,
                    values: scan.projection.map { document.fields.value(at: $0) })
                if let kept = try accept(projected) { out.append(kept) }
            }
        }
        return out
    }
}
