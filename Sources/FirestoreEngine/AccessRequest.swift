import DocumentStore
import FirestoreModel
import SecurityRules

/// One access to decide: everything the single decision point needs — who, which method,
/// which path, the stored document, the document after the write, the list query.
///
/// Built by the engine for every client request (REST, gRPC and Listen alike): one per
/// document read, one per query, one per write of a commit. It is the rules' own request
/// type, so nothing is translated on the way. Source: docs/ARCHITECTURE.md rule 1.
public typealias AccessRequest = RulesRequest

/// The kind of access (`get`, `list`, `create`, `update`, `delete`).
public typealias AccessMethod = RulesMethod

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
