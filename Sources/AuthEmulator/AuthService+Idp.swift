import GoogleWire

extension AuthService {
    /// `accounts:signInWithIdp` (iOS `verifyAssertion`): Google and other IdPs with an `id_token`.
    ///
    /// `requestUri` (required, absolute) query and fragment parameters and `postBody` form
    /// fields are merged; `providerId` is required (`INVALID_CREDENTIAL_OR_PROVIDER_ID : …`).
    /// `id_token` may be any JWT (decoded, never verified) or a strict JSON object of claims;
    /// `sub` is required and must be a string (`INVALID_IDP_RESPONSE : …`); an access-token-only
    /// credential is 501 as in the emulator. Account resolution: the account linked to
    /// (provider, `sub`) signs in; else, one account per email being the default, an account
    /// with the same email is taken over when the IdP verified the email, or answered with
    /// `needConfirmation: true` when it did not; else a new account (`isNewUser: true`). With
    /// `idToken` the identity is linked to that account (`FEDERATED_USER_ID_ALREADY_LINKED`,
    /// `EMAIL_EXISTS`). With `returnIdpCredential: true` (iOS) resolution errors come back as
    /// 200 with `errorMessage`. Source: docs/reference/firestore-wire.md §4.2.
    /// - Throws: `AuthError` with the codes above; 501 for `returnRefreshToken`, `pendingIdToken`.
    func signInWithIdp(_ body: AuthRequestBody, project: String) throws(AuthError) -> JSONValue {
        if body.bool("returnRefreshToken") == true {
            throw .notImplemented("returnRefreshToken is not implemented yet.")
        }
        if body.has("pendingIdToken") { throw .notImplemented("pendingIdToken is not implemented yet.") }
        guard let requestUri = body.nonEmptyString("requestUri") else { throw .badRequest("MISSING_REQUEST_URI") }
        guard let params = Self.normalizedParameters(requestUri: requestUri, postBody: body.string("postBody")) else {
            throw .badRequest("INVALID_REQUEST_URI")
        }
        func param(_ name: String) -> String? {
            guard let v = params.last(where: { $0.name == name })?.value, !v.isEmpty else { return nil }
            return v
        }
        guard let providerId = param("providerId")?.lowercased() else {
            throw .badRequest("INVALID_CREDENTIAL_OR_PROVIDER_ID : Invalid IdP response/credential: \(requestUri)")
        }
        let idToken = param("id_token")
        let accessToken = param("access_token")
        var parsedClaims = try Self.idpClaims(idToken)
        if parsedClaims == nil { parsedClaims = try Self.idpClaims(accessToken) }
        guard let claims = parsedClaims else {
            if let idToken {
                throw .badRequest(
                    "INVALID_IDP_RESPONSE : Unable to parse id_token: \(idToken) ((Auth Emulator only accepts strict JSON or JWTs as fake id_tokens.))"
                )
            } else if accessToken != nil, providerId == "google.com" || providerId == "apple.com" {
                throw .notImplemented(
                    "The Auth Emulator only support sign-in with \(providerId) using id_token, not access_token. Please update your code to use id_token."
                )
            } else if accessToken != nil {
                throw .notImplemented("The Auth Emulator does not support \(providerId) sign-in with credentials.")
            }
            throw .notImplemented("The Auth Emulator only supports sign-in with credentials (id_token required).")
        }
        var idp = IdpProfile(providerId: providerId, claims: claims)
        idp.oauthIdToken = idToken
        idp.oauthAccessToken = accessToken ?? "FirebaseAuthEmulatorFakeAccessToken_\(providerId)"

        let resolution: IdpResolution
        do {
            resolution = try resolveIdpAccount(idp, linkTo: body.nonEmptyString("idToken"), project: project)
        } catch {
            if body.bool("returnIdpCredential") == true, error.code == 400, error.status == nil {
                return .object(idp.responseMembers(localId: nil) + [.init("errorMessage", .string(error.message))])
            }
            throw error
        }
        switch resolution {
        case .needConfirmation(let existing):
            let verified = existing.providerUserInfo.map(\.providerId).filter {
                $0 != ProviderUserInfo.password && $0 != ProviderUserInfo.phone
            }
            return .object(
                idp.responseMembers(localId: existing.localId) + [
                    .init("needConfirmation", .bool(true)),
                    .init("verifiedProvider", .array(verified.map(JSONValue.string))),
                ])
        case .signIn(var user, let isNewUser):
            user.upsertProvider(idp.providerUserInfo)
            user.lastLoginAt = nowMilliseconds
            user.syncDerivedProviders()
            try require(!user.disabled, "USER_DISABLED")
            var members = idp.responseMembers(localId: user.localId)
            if user.email == idp.email, let i = members.firstIndex(where: { $0.key == "emailVerified" }) {
                members[i].value = .bool(user.emailVerified ?? false)
            }
            if isNewUser { members.append(.init("isNewUser", .bool(true))) }
            return .object(members + (try issueTokens(user, provider: providerId, project: project).members))
        }
    }

    /// The outcome of account resolution for an IdP sign-in.
    enum IdpResolution {
        /// Sign in as `user` (already updated with the IdP's profile when taken over).
        case signIn(UserRecord, isNewUser: Bool)
        /// An unverified IdP email matches another account: the client must confirm.
        case needConfirmation(UserRecord)
    }

    /// Finds, links or creates the account for `idp`. Source: docs/reference/firestore-wire.md §4.2 (account resolution).
    /// - Throws: `FEDERATED_USER_ID_ALREADY_LINKED`, `EMAIL_EXISTS`, token errors of `idToken`.
    func resolveIdpAccount(_ idp: IdpProfile, linkTo idToken: String?, project: String) throws(AuthError)
        -> IdpResolution
    {
        let byProvider = try store.user(.provider(id: idp.providerId, rawId: idp.rawId), in: project)
        let config = try store.config(in: project)
        if let idToken {
            var user = try parseIdToken(idToken, project: project).user
            try require(byProvider == nil, "FEDERATED_USER_ID_ALREADY_LINKED")
            if !config.allowDuplicateEmails, let email = idp.email {
                let other = try store.user(.email(email), in: project)
                try require(other == nil || other?.localId == user.localId, "EMAIL_EXISTS")
                if user.email == nil {
                    user.email = email
                    user.emailVerified = idp.emailVerified
                }
            }
            if let email = idp.email, idp.emailVerified, user.email == email { user.emailVerified = true }
            return .signIn(user, isNewUser: false)
        }
        if let byProvider { return .signIn(byProvider, isNewUser: false) }
        if !config.allowDuplicateEmails, let email = idp.email, var byEmail = try store.user(.email(email), in: project)
        {
            guard idp.emailVerified else { return .needConfirmation(byEmail) }
            if byEmail.emailVerified != true {
                // An unverified owner of the email loses its other sign-in methods to the IdP.
                byEmail.passwordHash = nil
                byEmail.salt = nil
                byEmail.phoneNumber = nil
                byEmail.validSince = nowSeconds
                byEmail.providerUserInfo = []
            }
            byEmail.displayName = idp.displayName
            byEmail.photoUrl = idp.photoUrl
            byEmail.emailVerified = true
            return .signIn(byEmail, isNewUser: false)
        }
        var user = UserRecord(localId: try newLocalId(in: project), createdAt: nowMilliseconds)
        user.displayName = idp.displayName
        user.photoUrl = idp.photoUrl
        if !config.allowDuplicateEmails, let email = idp.email {
            user.email = email
            user.emailVerified = idp.emailVerified
        }
        return .signIn(user, isNewUser: true)
    }

    /// The merged parameters of `requestUri` (query, then fragment) and `postBody`; later
    /// sources win (the emulator sets post-body fields over the URI's). Nil when `requestUri`
    /// is not absolute (`scheme:`).
    static func normalizedParameters(requestUri: String, postBody: String?) -> [(name: String, value: String)]? {
        guard let colon = requestUri.firstIndex(of: ":"), colon != requestUri.startIndex,
            requestUri[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) })
        else { return nil }
        var uri = Substring(requestUri)
        var fragment: Substring = ""
        if let hash = uri.firstIndex(of: "#") {
            fragment = uri[uri.index(after: hash)...]
            uri = uri[..<hash]
        }
        var params: [(name: String, value: String)] = []
        if let q = uri.firstIndex(of: "?") { params += FormURLEncoding.decode(String(uri[uri.index(after: q)...])) }
        if let postBody { params += FormURLEncoding.decode(postBody) }
        params += FormURLEncoding.decode(String(fragment))
        return params
    }

    /// The claims of an IdP token: `{…}` is strict JSON; anything else is decoded as a JWT
    /// (nil when it is not one). `sub` must be a non-empty string.
    /// - Throws: `INVALID_IDP_RESPONSE : …` for bad JSON or a missing/non-string `sub`.
    static func idpClaims(_ token: String?) throws(AuthError) -> JSONValue? {
        guard let token else { return nil }
        let claims: JSONValue
        if token.hasPrefix("{") {
            guard let c = try? JSONValue.parse(token), case .object = c else {
                throw .badRequest(
                    "INVALID_IDP_RESPONSE : Unable to parse id_token: \(token) ((Auth Emulator failed to parse fake id_token as strict JSON.))"
                )
            }
            claims = c
        } else {
            guard let (_, payload) = EmulatorJWT.decode(token) else { return nil }
            claims = payload
        }
        guard let sub = claims["sub"], !(sub == .string("")), !(sub == .null) else {
            throw .badRequest(
                "INVALID_IDP_RESPONSE : Invalid Idp Response: id_token missing required fields. ((Missing \"sub\" field. This field is required and must be a unique identifier.))"
            )
        }
        guard case .string = sub else {
            throw .badRequest("INVALID_IDP_RESPONSE : ((The \"sub\" field must be a string.))")
        }
        return claims
    }
}
