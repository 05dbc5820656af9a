import FirestoreEngine
import FirestoreModel

/// An Admin-client query, built step by step (`where`, `orderBy`, cursors, `limit`) and run
/// with `get()`. Each builder returns a new query; an invalid field path is reported by `get()`.
///
/// Cursor semantics follow the SDKs: `start(at:)` inclusive, `start(after:)` exclusive,
/// `end(at:)` inclusive, `end(before:)` exclusive; values match the `orderBy` fields in order.
/// Geo queries use `order(by: "geohash").start(at: [start]).end(at: [end])`.
/// Source: docs/reference/firestore-wire.md §1.5 (StructuredQuery, cursors), §5.2 (geo queries).
public struct Query: Sendable {
    /// The client it runs on.
    public let client: AdminClient
    /// The query as the engine runs it.
    public private(set) var target: QueryTarget
    /// The first builder error (an unparsable field path), thrown by `get()`.
    var error: FirestoreError?

    /// Creates a query; `error` is reported by `get()`.
    init(client: AdminClient, target: QueryTarget, error: FirestoreError? = nil) {
        self.client = client
        self.target = target
        self.error = error
    }

    /// Adds `field op value`, ANDed with earlier filters.
    public func whereField(_ field: String, _ op: FieldOperator, _ value: Value) -> Query {
        var q = self
        do throws(FirestoreError) {
            q.addFilter(.field(try FieldPath(parsing: field), op, value))
        } catch {
            q.error = q.error ?? error
        }
        return q
    }

    /// Adds any filter (composite, unary), ANDed with earlier filters.
    public func whereFilter(_ filter: Filter) -> Query {
        var q = self
        q.addFilter(filter)
        return q
    }

    /// Appends an ordering on `field` (`__name__` for the document id).
    public func order(by field: String, descending: Bool = false) -> Query {
        var q = self
        do throws(FirestoreError) {
            q.target.query.orderBy.append(Order(try FieldPath(parsing: field), descending ? .descending : .ascending))
        } catch {
            q.error = q.error ?? error
        }
        return q
    }

    /// Starts at the position of `values` (inclusive).
    public func start(at values: [Value]) -> Query { with { $0.startAt = Cursor(values: values, before: true) } }
    /// Starts after the position of `values` (exclusive).
    public func start(after values: [Value]) -> Query { with { $0.startAt = Cursor(values: values, before: false) } }
    /// Ends at the position of `values` (inclusive).
    public func end(at values: [Value]) -> Query { with { $0.endAt = Cursor(values: values, before: false) } }
    /// Ends before the position of `values` (exclusive).
    public func end(before values: [Value]) -> Query { with { $0.endAt = Cursor(values: values, before: true) } }
    /// Returns at most `count` documents (≥ 0).
    public func limit(to count: Int) -> Query { with { $0.limit = max(0, count) } }
    /// Skips the first `count` results (≥ 0).
    public func offset(_ count: Int) -> Query { with { $0.offset = max(0, count) } }

    /// Runs the query at one read time.
    /// - Throws: `.invalidArgument` for an invalid path, field path or query; storage errors.
    public func get() throws(FirestoreError) -> QuerySnapshot {
        if let error { throw error }
        let r = try client.engine.runQuery(target, in: client.database, auth: .admin)
        return QuerySnapshot(documents: r.value.documents, client: client, readTime: r.readTime)
    }

    private func with(_ change: (inout StructuredQuery) -> Void) -> Query {
        var q = self
        change(&q.target.query)
        return q
    }

    private mutating func addFilter(_ filter: Filter) {
        switch target.query.filter {
        case nil: target.query.filter = filter
        case .composite(.and, let filters)?: target.query.filter = .composite(.and, filters + [filter])
        case let existing?: target.query.filter = .composite(.and, [existing, filter])
        }
    }
}
