import DocumentStore
import FirestoreModel

/// The kind of access a client request makes, as security rules name it.
public enum AccessMethod: String, Sendable, Hashable {
    case get, list, create, update, delete
}

/// One access to decide: everything the single decision point needs.
///
/// Built by the engine for every client request (REST, gRPC and Listen alike): one per
/// document read, one per query, one per write of a commit. Source: ARCHITECTURE rule 4;
/// reference security-rules §5–§7.
public struct AccessRequest: Sendable {
    /// The database the request addresses.
    public var database: DatabaseID
    /// What is being done.
    public var method: AccessMethod
    /// The document path (for `list`: the queried collection path).
    public var path: ResourcePath
    /// Who asks.
    public var auth: AuthContext
    /// `request.time`; for writes the commit time.
    public var time: Timestamp
    /// The stored document before the request (nil when missing or for `list`).
    public var resource: Document?
    /// The document as it would be after the write (create/update only).
    public var requestResource: Document?
    /// For `list`: the query whose every possible result must be allowed.
    public var query: QueryTarget?

    /// Creates a request.
    public init(
        database: DatabaseID, method: AccessMethod, path: ResourcePath, auth: AuthContext, time: Timestamp,
        resource: Document? = nil, requestResource: Document? = nil, query: QueryTarget? = nil
    ) {
        self.database = database
        self.method = method
        self.path = path
        self.auth = auth
        self.time = time
        self.resource = resource
        self.requestResource = requestResource
        self.query = query
    }
}

/// Reads documents for `get()`/`exists()` (state before the request) and
/// `getAfter()`/`existsAfter()` (state after every write of the request), from the same
/// snapshot the request uses.
public protocol AccessLookup {
    /// The stored document before the request.
    func before(_ path: ResourcePath) throws(FirestoreError) -> Document?
    /// The document after all writes of the request are applied.
    func after(_ path: ResourcePath) throws(FirestoreError) -> Document?
}

/// The single decision point for client requests. `Bearer owner` never reaches it.
public protocol AccessPolicy: Sendable {
    /// Decides a group of accesses made by one request (a batch shares budgets).
    /// - Returns: nil when every access is allowed, else the `PERMISSION_DENIED` error to return.
    func check(_ requests: [AccessRequest], lookup: any AccessLookup) -> FirestoreError?
}

/// The policy of an emulator started without a rules file: everything is allowed.
public struct OpenAccessPolicy: AccessPolicy {
    /// Creates the open policy.
    public init() {}
    public func check(_ requests: [AccessRequest], lookup: any AccessLookup) -> FirestoreError? { nil }
}
