import DocumentStore
import FirestoreModel

/// A `UserStore` that keeps each project's accounts as documents of a reserved database of a
/// `DocumentStore`: `projects/{p}/databases/(hearth-auth)/documents/users/{localId}` and the
/// settings at `…/config/project`.
///
/// Chosen over a table of its own because the accounts then live in the same SQLite file as
/// the Firestore data (one `--data` file, one durability story, `--in-memory` for free) and
/// SQLite keeps its one door inside `DocumentStore` (docs/ARCHITECTURE.md rule 3). Lookups by email,
/// phone and identity are single-field queries, which the SQLite store serves from indexes
/// it builds on first use. Writes bypass the Firestore engine on purpose: accounts raise no
/// listen events, no triggers and no rules; the store keeps the greatest commit time, so
/// the engine's commit times stay monotonic across restarts.
public final class DocumentUserStore: UserStore {
    /// The reserved database id.
    public static let databaseID = "(hearth-auth)"

    let store: any DocumentStore
    let clock: @Sendable () -> Timestamp

    /// Wraps `store`.
    /// - Parameter clock: commit times for account writes (UTC, microseconds).
    public init(store: any DocumentStore, clock: @escaping @Sendable () -> Timestamp) {
        self.store = store
        self.clock = clock
    }

    /// The reserved database of `project`.
    public static func database(_ project: String) -> DatabaseID {
        DatabaseID(project: project, database: databaseID)
    }

    static let users = "users"

    /// By uid: one document read; otherwise a single-field query (`email`, `phoneNumber`,
    /// `providerKeys` array-contains) in `__name__` order, limit 1.
    /// - Throws: `AuthError.internalError` when the store fails.
    public func user(_ lookup: UserLookup, in project: String) throws(AuthError) -> UserRecord? {
        let filter: Filter
        switch lookup {
        case .localId(let id):
            return try read { (s) throws(FirestoreError) in
                try s.document(ResourcePath([Self.users, id]), in: Self.database(project))
            }
            .map { (d) throws(AuthError) in try UserRecord(fields: d.fields) }
        case .email(let e): filter = .field(FieldPath(["email"]), .equal, .string(e))
        case .phoneNumber(let p): filter = .field(FieldPath(["phoneNumber"]), .equal, .string(p))
        case .provider(let id, let rawId):
            filter = .field(FieldPath(["providerKeys"]), .arrayContains, .string(ProviderUserInfo.key(id, rawId)))
        }
        let target = QueryTarget(
            parent: .root, query: StructuredQuery(collectionID: Self.users, filter: filter, limit: 1))
        let docs = try read { (s) throws(FirestoreError) in try s.runQuery(target, in: Self.database(project)).documents
        }
        return try docs.first.map { (d) throws(AuthError) in try UserRecord(fields: d.fields) }
    }

    /// Lists `users` in `__name__` (= `localId`) order.
    /// - Throws: `AuthError.internalError` when the store fails.
    public func users(in project: String) throws(AuthError) -> [UserRecord] {
        let docs = try read { (s) throws(FirestoreError) in
            try s.listDocuments(
                in: ResourcePath([Self.users]), database: Self.database(project), startAfter: nil, limit: nil)
        }
        var out: [UserRecord] = []
        for d in docs { out.append(try UserRecord(fields: d.fields)) }
        return out
    }

    /// Writes `users/{localId}` in one commit.
    /// - Throws: `AuthError.internalError` when the store fails.
    public func put(_ user: UserRecord, in project: String) throws(AuthError) {
        try write(.put(document([Self.users, user.localId], user.fields)), project)
    }

    /// Deletes `users/{localId}`.
    /// - Throws: `AuthError.internalError` when the store fails.
    public func delete(localId: String, in project: String) throws(AuthError) {
        try write(.delete(ResourcePath([Self.users, localId])), project)
    }

    /// Deletes every `users` document of the project in one commit.
    /// - Throws: `AuthError.internalError` when the store fails.
    public func deleteAll(in project: String) throws(AuthError) {
        let ids = try users(in: project).map(\.localId)
        guard !ids.isEmpty else { return }
        do {
            try store.commit(
                ids.map { .delete(ResourcePath([Self.users, $0])) }, in: Self.database(project), commitTime: clock())
        } catch {
            throw .internalError("INTERNAL_ERROR : account storage failed: \(error.message)")
        }
    }

    /// Reads `config/project`.
    /// - Throws: `AuthError.internalError` when the store fails.
    public func config(in project: String) throws(AuthError) -> AuthProjectConfig {
        let doc = try read { (s) throws(FirestoreError) in
            try s.document(ResourcePath(["config", "project"]), in: Self.database(project))
        }
        var c = AuthProjectConfig()
        if case .boolean(let b)? = doc?.fields["allowDuplicateEmails"] { c.allowDuplicateEmails = b }
        if case .boolean(let b)? = doc?.fields["enableImprovedEmailPrivacy"] { c.enableImprovedEmailPrivacy = b }
        return c
    }

    /// Writes `config/project`.
    /// - Throws: `AuthError.internalError` when the store fails.
    public func setConfig(_ config: AuthProjectConfig, in project: String) throws(AuthError) {
        try write(
            .put(
                document(
                    ["config", "project"],
                    [
                        "allowDuplicateEmails": .boolean(config.allowDuplicateEmails),
                        "enableImprovedEmailPrivacy": .boolean(config.enableImprovedEmailPrivacy),
                    ])), project)
    }

    private func document(_ segments: [String], _ fields: FieldMap) -> Document {
        let now = clock()
        return Document(path: ResourcePath(segments), fields: fields, createTime: now, updateTime: now)
    }

    private func write(_ mutation: Mutation, _ project: String) throws(AuthError) {
        do {
            try store.commit([mutation], in: Self.database(project), commitTime: clock())
        } catch {
            throw .internalError("INTERNAL_ERROR : account storage failed: \(error.message)")
        }
    }

    private func read<T>(_ body: (any StoreSnapshot) throws(FirestoreError) -> T) throws(AuthError) -> T {
        do {
            let snapshot = try store.snapshot()
            defer { snapshot.close() }
            return try body(snapshot)
        } catch {
            throw .internalError("INTERNAL_ERROR : account storage failed: \(error.message)")
        }
    }
}
