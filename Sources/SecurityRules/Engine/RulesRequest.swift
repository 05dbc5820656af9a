import FirestoreModel

/// The operation a request performs, as `request.method` names it (docs/reference/security-rules.md §1.2).
public enum RulesMethod: String, Sendable, Hashable, CaseIterable {
    /// The five request methods.
    case get, list, create, update, delete
}

/// One request to authorise: everything `request` and `resource` are built from.
///
/// Shapes (docs/reference/security-rules.md §5):
/// - `path` is the document path relative to the database's documents root. For `list` it is
///   the **collection path** of the query (`users/alice/feed`); the rules see a document with an
///   unknown id below it. For a collection-group query (`query.allDescendants`) `path` is the
///   query's parent (root or a document) plus the collection id, and any number of unknown
///   segments may stand between the parent and the collection (docs/reference/security-rules.md §7 item 1).
/// - `resource` is the stored document (nil when missing) → `resource` (`null` when nil).
/// - `requestResource` is the document after the write (create/update) → `request.resource`.
/// - `time` is `request.time`; for writes it is the commit time, so server timestamps equal it.
public struct RulesRequest: Sendable {
    /// The database; `database` wildcards bind to its id.
    public var database: DatabaseID
    /// What the request does.
    public var method: RulesMethod
    /// Document path (get/create/update/delete) or collection path (list); see above.
    public var path: ResourcePath
    /// Who asks. `.admin` should never reach the rules (the engine bypasses them); if it does
    /// it is treated as unauthenticated.
    public var auth: AuthContext
    /// `request.time`.
    public var time: Timestamp
    /// The stored document → `resource`.
    public var resource: Document?
    /// The document after the write → `request.resource` (create/update only).
    public var requestResource: Document?
    /// For `list`: the query's constraints → `request.query` and the list proof.
    public var query: QueryConstraints?
    /// True for a create or update whose write has no precondition (a set or merge): the
    /// emulator first tries the create and the update statements without knowing which
    /// applies, and its denial message lists them too. Only the message depends on it
    /// (docs/reference/security-rules.md §8, firebase-tools #6252; corpus overlap.h1, h2, shouts.sw02).
    public var isUpsert: Bool

    /// Creates a request.
    public init(
        database: DatabaseID, method: RulesMethod, path: ResourcePath, auth: AuthContext, time: Timestamp,
        resource: Document? = nil, requestResource: Document? = nil, query: QueryConstraints? = nil, isUpsert: Bool = false
    ) {
        self.database = database
        self.method = method
        self.path = path
        self.auth = auth
        self.time = time
        self.resource = resource
        self.requestResource = requestResource
        self.query = query
        self.isUpsert = isUpsert
    }
}

/// What a `list` request's query says: used both for `request.query` and to prove the rule
/// for every document the query could return (docs/reference/security-rules.md §7).
public struct QueryConstraints: Sendable, Hashable {
    /// The where clause.
    public var filter: Filter?
    /// `limit`, nil when absent (`request.query.limit` is then `null`).
    public var limit: Int?
    /// `offset` (0 when absent).
    public var offset: Int
    /// The explicit orderBy.
    public var orderBy: [Order]
    /// True for a collection-group query.
    public var allDescendants: Bool

    /// Creates constraints.
    public init(filter: Filter? = nil, limit: Int? = nil, offset: Int = 0, orderBy: [Order] = [], allDescendants: Bool = false) {
        self.filter = filter
        self.limit = limit
        self.offset = offset
        self.orderBy = orderBy
        self.allDescendants = allDescendants
    }

    /// The constraints of a structured query.
    public init(_ query: StructuredQuery) {
        self.init(
            filter: query.filter, limit: query.limit, offset: query.offset, orderBy: query.orderBy, allDescendants: query.allDescendants)
    }
}

/// What `get()`, `exists()`, `getAfter()` and `existsAfter()` read: the same snapshot the
/// request itself sees (docs/reference/security-rules.md §6).
public protocol RulesDocumentAccess {
    /// The stored document at `path` before the request, nil when missing.
    /// - Throws: any error; the rules treat it as an evaluation error of the call.
    func get(_ path: ResourcePath) throws -> Document?
    /// The document at `path` as if every write of the current commit were applied.
    /// - Throws: any error; the rules treat it as an evaluation error of the call.
    func getAfter(_ path: ResourcePath) throws -> Document?
}

/// Access that finds nothing: every `get()` errors and every `exists()` is false.
public struct NoDocumentAccess: RulesDocumentAccess {
    /// Creates it.
    public init() {}
    /// Always nil.
    public func get(_ path: ResourcePath) throws -> Document? { nil }
    /// Always nil.
    public func getAfter(_ path: ResourcePath) throws -> Document? { nil }
}
