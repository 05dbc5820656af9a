/// How an account is found.
public enum UserLookup: Sendable, Hashable {
    /// By uid.
    case localId(String)
    /// By canonical email (the account's top-level email).
    case email(String)
    /// By phone number.
    case phoneNumber(String)
    /// By linked identity (`google.com` + the IdP's `sub`).
    case provider(id: String, rawId: String)
}

/// Where the Auth emulator keeps accounts and per-project settings, one namespace per project.
///
/// Implementations: `InMemoryUserStore` (the reference) and `DocumentUserStore` (documents in
/// a reserved database of a `DocumentStore`, so accounts persist with the Firestore data).
/// Callers serialise writes (`AuthService` holds one lock around every operation), so a
/// check-then-write such as "email not taken, then create" is atomic.
public protocol UserStore: Sendable {
    /// The first account matching `lookup` (lowest `localId` when several match), or nil.
    /// - Throws: `AuthError.internalError` when storage fails.
    func user(_ lookup: UserLookup, in project: String) throws(AuthError) -> UserRecord?

    /// Every account of `project`, ascending by `localId`.
    /// - Throws: `AuthError.internalError` when storage fails.
    func users(in project: String) throws(AuthError) -> [UserRecord]

    /// Creates or replaces the account `user.localId`.
    /// - Throws: `AuthError.internalError` when storage fails.
    func put(_ user: UserRecord, in project: String) throws(AuthError)

    /// Deletes the account (no-op when missing).
    /// - Throws: `AuthError.internalError` when storage fails.
    func delete(localId: String, in project: String) throws(AuthError)

    /// Deletes every account of `project`; the settings stay.
    /// - Throws: `AuthError.internalError` when storage fails.
    func deleteAll(in project: String) throws(AuthError)

    /// The settings of `project` (defaults when never set).
    /// - Throws: `AuthError.internalError` when storage fails.
    func config(in project: String) throws(AuthError) -> AuthProjectConfig

    /// Replaces the settings of `project`.
    /// - Throws: `AuthError.internalError` when storage fails.
    func setConfig(_ config: AuthProjectConfig, in project: String) throws(AuthError)
}

extension UserRecord {
    /// True when `lookup` finds this account.
    public func matches(_ lookup: UserLookup) -> Bool {
        switch lookup {
        case .localId(let id): return localId == id
        case .email(let e): return email == e
        case .phoneNumber(let p): return phoneNumber == p
        case .provider(let id, let rawId): return providerUserInfo.contains { $0.providerId == id && $0.rawId == rawId }
        }
    }
}
