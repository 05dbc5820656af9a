/// A Firestore structured query, as `google.firestore.v1.StructuredQuery` defines it.
///
/// The parent (documents root or a document) is carried beside it in `QueryTarget`.
/// Source: googleapis `query.proto`; docs/reference/firestore-wire.md §1.5.
public struct StructuredQuery: Sendable, Hashable {
    /// Projection; nil = every field, `[__name__]` = names only.
    public var select: [FieldPath]?
    /// The collection id to query.
    public var collectionID: String
    /// True for a collection-group query: every collection with that id under the parent.
    public var allDescendants: Bool
    /// The filter, if any.
    public var filter: Filter?
    /// Explicit order, as sent.
    public var orderBy: [Order]
    /// Start cursor.
    public var startAt: Cursor?
    /// End cursor.
    public var endAt: Cursor?
    /// Results to skip after cursors, before `limit`.
    public var offset: Int
    /// Maximum results; nil = unbounded.
    public var limit: Int?

    /// Creates a query.
    public init(
        select: [FieldPath]? = nil, collectionID: String, allDescendants: Bool = false, filter: Filter? = nil,
        orderBy: [Order] = [], startAt: Cursor? = nil, endAt: Cursor? = nil, offset: Int = 0, limit: Int? = nil
    ) {
        self.select = select
        self.collectionID = collectionID
        self.allDescendants = allDescendants
        self.filter = filter
        self.orderBy = orderBy
        self.startAt = startAt
        self.endAt = endAt
        self.offset = offset
        self.limit = limit
    }
}

/// A query and the parent it runs under.
public struct QueryTarget: Sendable, Hashable {
    /// The parent: the documents root (`.root`) or a document path.
    public var parent: ResourcePath
    /// The query.
    public var query: StructuredQuery

    /// Creates a target.
    public init(parent: ResourcePath, query: StructuredQuery) {
        self.parent = parent
        self.query = query
    }

    /// True when `path` (a document) is in the queried collection(s).
    ///
    /// A collection-group query with an empty collection id spans every collection under the
    /// parent (the clients' `recursive()` listing).
    public func contains(_ path: ResourcePath) -> Bool {
        guard path.isDocument else { return false }
        if query.allDescendants && query.collectionID.isEmpty {
            return parent.isPrefix(of: path) && path.segments.count > parent.segments.count
        }
        guard bytesEqual(path.parent.lastSegment, query.collectionID) else { return false }
        if query.allDescendants { return parent.isPrefix(of: path) && path.segments.count > parent.segments.count }
        return path.parent.parent == parent
    }
}

/// Sort direction.
public enum Direction: Sendable, Hashable {
    case ascending, descending
}

/// One `orderBy` entry.
public struct Order: Sendable, Hashable {
    /// The field ordered on (`__name__` for the key).
    public var field: FieldPath
    /// Ascending or descending.
    public var direction: Direction

    /// Creates an order.
    public init(_ field: FieldPath, _ direction: Direction = .ascending) {
        self.field = field
        self.direction = direction
    }
}

/// A query cursor: values for a prefix of the normalised orderBy.
public struct Cursor: Sendable, Hashable {
    /// The values, one per leading orderBy field.
    public var values: [Value]
    /// `before: true` — startAt inclusive / endBefore exclusive; `false` — startAfter / endAt inclusive.
    public var before: Bool

    /// Creates a cursor.
    public init(values: [Value], before: Bool) {
        self.values = values
        self.before = before
    }
}

/// A query filter. Source: googleapis `query.proto` Filter.
public indirect enum Filter: Sendable, Hashable {
    case field(FieldPath, FieldOperator, Value)
    case unary(FieldPath, UnaryOperator)
    case composite(CompositeOperator, [Filter])
}

/// `FieldFilter.Operator`.
public enum FieldOperator: String, Sendable, Hashable, CaseIterable {
    case lessThan = "LESS_THAN"
    case lessThanOrEqual = "LESS_THAN_OR_EQUAL"
    case greaterThan = "GREATER_THAN"
    case greaterThanOrEqual = "GREATER_THAN_OR_EQUAL"
    case equal = "EQUAL"
    case notEqual = "NOT_EQUAL"
    case arrayContains = "ARRAY_CONTAINS"
    case `in` = "IN"
    case arrayContainsAny = "ARRAY_CONTAINS_ANY"
    case notIn = "NOT_IN"

    /// True for `<`, `<=`, `>`, `>=`, `!=`, `not-in`: the operators that force an implicit orderBy.
    public var isInequality: Bool {
        switch self {
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual, .notEqual, .notIn: return true
        default: return false
        }
    }
}

/// `UnaryFilter.Operator`.
public enum UnaryOperator: String, Sendable, Hashable, CaseIterable {
    case isNaN = "IS_NAN"
    case isNull = "IS_NULL"
    case isNotNaN = "IS_NOT_NAN"
    case isNotNull = "IS_NOT_NULL"
}

/// `CompositeFilter.Operator`.
public enum CompositeOperator: String, Sendable, Hashable {
    case and = "AND"
    case or = "OR"
}

/// One aggregation of a `StructuredAggregationQuery`. Source: docs/reference/firestore-wire.md §1.6.
public struct Aggregation: Sendable, Hashable {
    /// What to compute.
    public enum Kind: Sendable, Hashable {
        case count(upTo: Int64?)
        case sum(FieldPath)
        case avg(FieldPath)
    }

    /// Result name (`field_1`… when the client sent none).
    public var alias: String
    /// The aggregation.
    public var kind: Kind

    /// Creates an aggregation.
    public init(alias: String, kind: Kind) {
        self.alias = alias
        self.kind = kind
    }
}
