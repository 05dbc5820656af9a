import FoundationEssentials
import GoogleWire
import Synchronization

/// One Identity Toolkit / Secure Token / emulator operation Hearth implements.
/// Raw values are the v1 method names (`accounts:<op>`, `securetoken …/token`, emulator paths).
public enum AuthOperation: String, Sendable, CaseIterable {
    /// `accounts:signUp` (anonymous, email/password; privileged: Admin `createUser`).
    case signUp
    /// `accounts:signInWithPassword`.
    case signInWithPassword
    /// `accounts:signInWithIdp` (Google and other IdPs with an `id_token`).
    case signInWithIdp
    /// `accounts:signInWithCustomToken`.
    case signInWithCustomToken
    /// `accounts:lookup`.
    case lookup
    /// `accounts:update` (setAccountInfo).
    case update
    /// `accounts:delete`.
    case delete
    /// `accounts:createAuthUri` (fetchSignInMethodsForEmail).
    case createAuthUri
    /// `projects/{p}/accounts:batchGet` (Admin `listUsers`, export).
    case batchGet
    /// `GET /v1/projects` (project config for the JS SDK).
    case getProjects
    /// `POST /securetoken.googleapis.com/v1/token`.
    case grantToken
    /// `DELETE /emulator/v1/projects/{p}/accounts`.
    case clearAccounts
    /// `GET /emulator/v1/projects/{p}/config`.
    case getConfig
    /// `PATCH /emulator/v1/projects/{p}/config`.
    case updateConfig
    /// `GET /emulator/v1/projects/{p}/oobCodes` (always empty: Hearth sends no emails).
    case listOobCodes
    /// `GET /emulator/v1/projects/{p}/verificationCodes` (always empty: no SMS).
    case listVerificationCodes
}

extension AuthOperation {
    /// True for the operations that may write accounts or settings; reads are false.
    var mayChangeAccounts: Bool {
        switch self {
        case .signUp, .signInWithPassword, .signInWithIdp, .signInWithCustomToken, .update, .delete, .grantToken,
            .clearAccounts, .updateConfig:
            return true
        case .lookup, .createAuthUri, .batchGet, .getProjects, .getConfig, .listOobCodes, .listVerificationCodes:
            return false
        }
    }
}

/// One decoded request to the Auth emulator.
public struct AuthCall: Sendable {
    /// What to do.
    public var operation: AuthOperation
    /// The project (from the path, else the default project an API key maps to).
    public var project: String
    /// True with `Authorization: Bearer owner` (Admin SDKs): the "OAuth2" branch of each operation.
    public var privileged: Bool
    /// The body (JSON or form), keys folded to lowerCamelCase.
    public var body: AuthRequestBody
    /// The query items (`maxResults`, `nextPageToken`, …).
    public var query: [(name: String, value: String)]

    /// Creates a call.
    public init(
        operation: AuthOperation, project: String, privileged: Bool = false, body: AuthRequestBody = AuthRequestBody(),
        query: [(name: String, value: String)] = []
    ) {
        self.operation = operation
        self.project = project
        self.privileged = privileged
        self.body = body
        self.query = query
    }
}

/// The Auth emulator's behaviour, independent of HTTP: accounts, sign-in, tokens.
///
/// Every operation runs under one lock, so each is atomic against the others (an email is
/// checked and claimed in one step). Operations return the response body as JSON or throw an
/// `AuthError` carrying the production error code. Source: docs/reference/firestore-wire.md §4; firebase-tools
/// `src/emulator/auth/operations.ts` (behaviour of each operation).
public final class AuthService: Sendable {
    /// Where accounts live.
    public let store: any UserStore
    /// The project API-key requests map to (docs/reference/firestore-wire.md §4.1: any key → the default project).
    public let defaultProject: String
    let clock: @Sendable () -> Date
    /// Held for the whole of each operation (it guards the store, not a value).
    let lock = Mutex(())
    /// Told the project after each operation that may have changed its accounts or settings.
    private let accountsObserver = Mutex<(@Sendable (_ project: String) -> Void)?>(nil)

    /// Creates the service.
    /// - Parameters:
    ///   - store: account storage.
    ///   - defaultProject: the project `?key=` requests use.
    ///   - clock: the wall clock (tests inject a fixed one).
    public init(store: any UserStore, defaultProject: String, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.store = store
        self.defaultProject = defaultProject
        self.clock = clock
    }

    /// Performs `call`.
    /// - Returns: the response body.
    /// - Throws: `AuthError` as each operation documents (400 with a production code for
    ///   account errors, 501 outside the emulated subset, 500 when storage fails).
    public func perform(_ call: AuthCall) throws(AuthError) -> JSONValue {
        let result = try lock.withLock { _ throws(AuthError) in try performLocked(call) }
        if call.operation.mayChangeAccounts, let observe = accountsObserver.withLock({ $0 }) { observe(call.project) }
        return result
    }

    /// Sets (or, with nil, removes) the one observer told the project after every successful
    /// operation that may have changed its accounts or settings (sign-ups, sign-ins, which
    /// record `lastLoginAt`/`lastRefreshAt`, updates, deletes, clears, config changes). It runs
    /// on the caller's thread after the operation's lock is released and must only enqueue work.
    /// The Emulator UI's users table listens here (issue 15).
    public func observeAccounts(_ observer: (@Sendable (_ project: String) -> Void)?) {
        accountsObserver.withLock { $0 = observer }
    }

    private func performLocked(_ call: AuthCall) throws(AuthError) -> JSONValue {
        let p = call.project
        switch call.operation {
        case .signUp: return try signUp(call.body, project: p, privileged: call.privileged)
        case .signInWithPassword: return try signInWithPassword(call.body, project: p)
        case .signInWithIdp: return try signInWithIdp(call.body, project: p)
        case .signInWithCustomToken: return try signInWithCustomToken(call.body, project: p)
        case .lookup: return try lookup(call.body, project: p, privileged: call.privileged)
        case .update: return try update(call.body, project: p, privileged: call.privileged)
        case .delete: return try deleteAccount(call.body, project: p, privileged: call.privileged)
        case .createAuthUri: return try createAuthUri(call.body, project: p)
        case .batchGet: return try batchGet(call.query, project: p)
        case .getProjects:
            return .object([
                .init("projectId", .string("12345")), .init("authorizedDomains", .array([.string("localhost")])),
            ])
        case .grantToken: return try grantToken(call.body, project: p)
        case .clearAccounts:
            try store.deleteAll(in: p)
            return .object([])
        case .getConfig: return try store.config(in: p).json
        case .updateConfig:
            var config = try store.config(in: p)
            config.apply(call.body)
            try store.setConfig(config, in: p)
            return config.json
        case .listOobCodes: return .object([.init("oobCodes", .array([]))])
        case .listVerificationCodes: return .object([.init("verificationCodes", .array([]))])
        }
    }

    // MARK: Shared helpers

    /// Now in milliseconds since the epoch.
    var nowMilliseconds: Int64 { Int64((clock().timeIntervalSince1970 * 1000).rounded(.down)) }

    /// Now in seconds since the epoch.
    var nowSeconds: Int64 { nowMilliseconds / 1000 }

    /// Now as RFC 3339 with milliseconds (`lastRefreshAt`).
    var nowISO: String {
        let ms = nowMilliseconds
        return Date(timeIntervalSince1970: Double(ms) / 1000).formatted(
            Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// A fresh uid: 28 random letters and digits, not taken in `project`.
    /// - Throws: `AuthError.internalError` after 10 collisions (never in practice).
    func newLocalId(in project: String) throws(AuthError) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<10 {
            let id = String((0..<28).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &rng)] })
            if try store.user(.localId(id), in: project) == nil { return id }
        }
        throw .internalError("INTERNAL_ERROR : Cannot generate a random unique localId after 10 tries.")
    }

    /// Issues an ID token and a refresh token for `user`, recording `lastRefreshAt`.
    /// - Returns: the user as stored and `idToken`, `refreshToken`, `expiresIn` members.
    /// - Throws: `AuthError.internalError` when storage fails.
    func issueTokens(
        _ user: UserRecord, provider: String, project: String, extraClaims: JSONValue? = nil
    ) throws(AuthError) -> (user: UserRecord, members: [JSONValue.Member]) {
        var user = user
        user.lastRefreshAt = nowISO
        try store.put(user, in: project)
        let claims = user.idTokenClaims(
            project: project, signInProvider: provider, issuedAt: nowSeconds, extraClaims: extraClaims)
        let refresh = RefreshToken(
            localId: user.localId, provider: provider, extraClaims: extraClaims ?? .object([]), projectId: project)
        return (
            user,
            [
                .init("idToken", .string(EmulatorJWT.encode(claims))), .init("refreshToken", .string(refresh.encoded)),
                .init("expiresIn", .string("3600")),
            ]
        )
    }

    /// The account and sign-in provider of an ID token this emulator issued.
    ///
    /// As the emulator: signature and `exp` are not checked; the user (`user_id`) must exist
    /// (`USER_NOT_FOUND`), `iat` must not precede `validSince` (`TOKEN_EXPIRED`, revocation),
    /// and the account must be enabled (`USER_DISABLED`).
    /// - Throws: `AuthError` `INVALID_ID_TOKEN` for a non-JWT, or the codes above.
    func parseIdToken(_ token: String, project: String) throws(AuthError) -> (user: UserRecord, provider: String) {
        guard let (_, payload) = EmulatorJWT.decode(token),
            case .string(let uid)? = payload["user_id"] ?? payload["sub"]
        else { throw .badRequest("INVALID_ID_TOKEN") }
        guard let user = try store.user(.localId(uid), in: project) else { throw .badRequest("USER_NOT_FOUND") }
        if let validSince = user.validSince {
            let iat: Int64
            switch payload["iat"] {
            case .number(let t)?: iat = Int64(t) ?? Int64(Double(t) ?? 0)
            default: iat = 0
            }
            try require(iat >= validSince, "TOKEN_EXPIRED")
        }
        try require(!user.disabled, "USER_DISABLED")
        var provider = ""
        if case .string(let p)? = payload["firebase"]?["sign_in_provider"] { provider = p }
        return (user, provider)
    }
}

/// Email syntax and canonical form as the emulator checks them.
enum EmailAddress {
    /// `local@domain` with exactly one `@` and neither side empty.
    static func isValid(_ s: String) -> Bool {
        let parts = s.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty
    }

    /// Lower-cased.
    static func canonical(_ s: String) -> String { s.lowercased() }
}
