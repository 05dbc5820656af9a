import GoogleWire

extension AuthService {
    /// The `aud` a custom token must carry (unless given as raw JSON).
    static let customTokenAudience =
        "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit"

    /// `accounts:signInWithPassword`.
    ///
    /// Errors: `MISSING_EMAIL`, `INVALID_EMAIL`, `MISSING_PASSWORD`; then, with improved email
    /// privacy off (the default), `EMAIL_NOT_FOUND`, `USER_DISABLED`, `INVALID_PASSWORD`; with it
    /// on, `INVALID_LOGIN_CREDENTIALS` for an unknown email or a wrong password.
    /// Response: `{kind: "identitytoolkit#VerifyPasswordResponse", registered: true, localId,
    /// email, idToken, refreshToken, expiresIn}`. Source: docs/reference/firestore-wire.md §4.2, §4.3.
    /// - Throws: `AuthError` with the codes above.
    func signInWithPassword(_ body: AuthRequestBody, project: String) throws(AuthError) -> JSONValue {
        guard let raw = body.string("email") else { throw .badRequest("MISSING_EMAIL") }
        try require(EmailAddress.isValid(raw), "INVALID_EMAIL")
        guard let password = body.nonEmptyString("password") else { throw .badRequest("MISSING_PASSWORD") }
        if body.has("captchaResponse") || body.has("captchaChallenge") {
            throw .notImplemented("captcha unimplemented")
        }
        let email = EmailAddress.canonical(raw)
        let user = try store.user(.email(email), in: project)
        let passwordMatches =
            user.flatMap { u in
                u.passwordHash.flatMap { h in u.salt.map { PasswordHasher.verify(password, hash: h, salt: $0) } }
            } ?? false
        if try store.config(in: project).enableImprovedEmailPrivacy {
            guard let user else { throw .badRequest("INVALID_LOGIN_CREDENTIALS") }
            try require(!user.disabled, "USER_DISABLED")
            try require(passwordMatches, "INVALID_LOGIN_CREDENTIALS")
        } else {
            guard let user else { throw .badRequest("EMAIL_NOT_FOUND") }
            try require(!user.disabled, "USER_DISABLED")
            try require(passwordMatches, "INVALID_PASSWORD")
        }
        guard var user else { throw .badRequest("EMAIL_NOT_FOUND") }
        user.lastLoginAt = nowMilliseconds
        let tokens = try issueTokens(user, provider: ProviderUserInfo.password, project: project)
        return .object(
            [
                .init("kind", .string("identitytoolkit#VerifyPasswordResponse")), .init("registered", .bool(true)),
                .init("localId", .string(user.localId)), .init("email", .string(email)),
            ] + tokens.members)
    }

    /// `accounts:signInWithCustomToken`: `token` is a JWT (any signature; `aud` must be the
    /// Identity Toolkit audience) or, emulator-only, a JSON object of claims. `uid` (or
    /// `user_id`) names the account, created when missing; `claims` become session claims of
    /// the ID token. Errors: `MISSING_CUSTOM_TOKEN`, `INVALID_CUSTOM_TOKEN : …`,
    /// `MISSING_IDENTIFIER`, `INVALID_CLAIMS`, `FORBIDDEN_CLAIM : x`, `USER_DISABLED`.
    /// Response: `{kind: "identitytoolkit#VerifyCustomTokenResponse", isNewUser, idToken, …}`.
    /// - Throws: `AuthError` with the codes above.
    func signInWithCustomToken(_ body: AuthRequestBody, project: String) throws(AuthError) -> JSONValue {
        guard let token = body.nonEmptyString("token") else { throw .badRequest("MISSING_CUSTOM_TOKEN") }
        let payload: JSONValue
        if token.hasPrefix("{") {
            guard let p = try? JSONValue.parse(token), case .object = p else {
                throw .badRequest(
                    "INVALID_CUSTOM_TOKEN : ((Auth Emulator only accepts strict JSON or JWTs as fake custom tokens.))")
            }
            payload = p
        } else {
            guard let (_, p) = EmulatorJWT.decode(token) else {
                throw .badRequest("INVALID_CUSTOM_TOKEN : Invalid assertion format")
            }
            guard case .string(Self.customTokenAudience)? = p["aud"] else {
                throw .badRequest(
                    "INVALID_CUSTOM_TOKEN : ((Invalid aud (audience): \(p["aud"]?.serializedString ?? "undefined") "
                        + "Note: Firebase ID Tokens / third-party tokens cannot be used with signInWithCustomToken.))")
            }
            payload = p
        }
        guard let localId = Self.primitiveString(payload["uid"]) ?? Self.primitiveString(payload["user_id"]),
            !localId.isEmpty
        else { throw .badRequest("MISSING_IDENTIFIER") }
        var extraClaims: JSONValue = .object([])
        if let claims = payload["claims"] {
            try Self.validateCustomClaims(claims)
            extraClaims = claims
        }
        let now = nowMilliseconds
        var user: UserRecord
        let isNewUser: Bool
        if let existing = try store.user(.localId(localId), in: project) {
            try require(!existing.disabled, "USER_DISABLED")
            user = existing
            isNewUser = false
        } else {
            user = UserRecord(localId: localId, createdAt: now)
            isNewUser = true
        }
        user.customAuth = true
        user.lastLoginAt = now
        let tokens = try issueTokens(
            user, provider: ProviderUserInfo.custom, project: project, extraClaims: extraClaims)
        return .object(
            [.init("kind", .string("identitytoolkit#VerifyCustomTokenResponse")), .init("isNewUser", .bool(isNewUser))]
                + tokens.members)
    }

    /// Claims no custom claim may set (they are reserved by the ID token).
    static let forbiddenClaims: Set<String> = [
        "iss", "aud", "sub", "iat", "exp", "nbf", "jti", "nonce", "azp", "acr", "amr", "cnf", "auth_time", "firebase",
        "at_hash", "c_hash",
    ]

    /// Custom claims must be a JSON object without reserved names.
    /// - Throws: `INVALID_CLAIMS` or `FORBIDDEN_CLAIM : name`.
    static func validateCustomClaims(_ claims: JSONValue) throws(AuthError) {
        guard case .object(let members) = claims else { throw .badRequest("INVALID_CLAIMS") }
        for m in members where forbiddenClaims.contains(m.key) { throw .badRequest("FORBIDDEN_CLAIM : \(m.key)") }
    }

    /// A string, number or boolean as text (JS `coercePrimitiveToString`).
    static func primitiveString(_ v: JSONValue?) -> String? {
        switch v {
        case .string(let s)?: return s
        case .number(let t)?: return t
        case .bool(let b)?: return b ? "true" : "false"
        default: return nil
        }
    }
}
