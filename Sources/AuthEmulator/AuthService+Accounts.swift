import GoogleWire

extension AuthService {
    /// `accounts:lookup`. Client form: `{idToken}` (`MISSING_ID_TOKEN`, token errors) → that
    /// account. Privileged form: any of `localId[]`, `email[]`, `phoneNumber[]`,
    /// `federatedUserId[{providerId, rawId}]`, each account once. Response
    /// `{kind: "identitytoolkit#GetAccountInfoResponse", users?}` (`users` omitted when none,
    /// which the Node Admin SDK relies on). Source: docs/reference/firestore-wire.md §4.2.
    /// - Throws: `AuthError` with the codes above.
    func lookup(_ body: AuthRequestBody, project: String, privileged: Bool) throws(AuthError) -> JSONValue {
        var users: [UserRecord] = []
        func add(_ u: UserRecord?) {
            if let u, !users.contains(where: { $0.localId == u.localId }) { users.append(u) }
        }
        if privileged {
            if body.has("initialEmail") { throw .notImplemented("Lookup by initialEmail is not implemented.") }
            for id in body.stringList("localId") { add(try store.user(.localId(id), in: project)) }
            for e in body.stringList("email") { add(try store.user(.email(EmailAddress.canonical(e)), in: project)) }
            for p in body.stringList("phoneNumber") { add(try store.user(.phoneNumber(p), in: project)) }
            for f in body.objectList("federatedUserId") {
                guard let id = f.nonEmptyString("providerId"), let raw = f.nonEmptyString("rawId") else { continue }
                add(try store.user(.provider(id: id, rawId: raw), in: project))
            }
            if let token = body.nonEmptyString("idToken") { add(try parseIdToken(token, project: project).user) }
        } else {
            guard let token = body.nonEmptyString("idToken") else { throw .badRequest("MISSING_ID_TOKEN") }
            add(try parseIdToken(token, project: project).user)
        }
        var members: [JSONValue.Member] = [.init("kind", .string("identitytoolkit#GetAccountInfoResponse"))]
        if !users.isEmpty { members.append(.init("users", .array(users.map(\.json)))) }
        return .object(members)
    }

    /// `accounts:update` (setAccountInfo) for an `idToken` (client) or a `localId`
    /// (privileged): `email` (`INVALID_EMAIL`, `EMAIL_EXISTS`; becomes unverified), `password`
    /// (`WEAK_PASSWORD : …`; issues new tokens, earlier ones are revoked), `displayName`,
    /// `photoUrl`, `deleteAttribute` (`DISPLAY_NAME`, `PHOTO_URL`, `PASSWORD`, `EMAIL`),
    /// `deleteProvider`; privileged only: `disableUser`, `phoneNumber`, `emailVerified`,
    /// `customAttributes` (`INVALID_CLAIMS`, `CLAIMS_TOO_LARGE`, `FORBIDDEN_CLAIM : x`),
    /// `createdAt`, `lastLoginAt`, `validSince`, `linkProviderUserInfo`. Without either
    /// credential: `INVALID_REQ_TYPE : …` (client) / `MISSING_LOCAL_ID` (privileged).
    /// Response: `{kind: "identitytoolkit#SetAccountInfoResponse", localId, emailVerified,
    /// providerUserInfo, email?, displayName?, photoUrl?, newEmail?, passwordHash?}` plus
    /// tokens when credentials changed. Source: docs/reference/firestore-wire.md §4.1; firebase-tools setAccountInfo.
    /// - Throws: `AuthError` with the codes above; 501 for `provider`, `upgradeToFederatedLogin`,
    ///   `oobCode` flows and `deleteAttribute` `PROVIDER`/`RAW_USER_INFO`.
    func update(_ body: AuthRequestBody, project: String, privileged: Bool) throws(AuthError) -> JSONValue {
        for field in ["provider", "upgradeToFederatedLogin"] where body.has(field) {
            throw .notImplemented("\(field) is not implemented yet.")
        }
        if privileged {
            try require(body.nonEmptyString("localId") != nil, "MISSING_LOCAL_ID")
        } else {
            try require(
                body.nonEmptyString("idToken") != nil || body.nonEmptyString("oobCode") != nil,
                "INVALID_REQ_TYPE : Unsupported request parameters.")
            try require(!body.has("customAttributes"), "INSUFFICIENT_PERMISSION")
        }
        if let claims = body.string("customAttributes") { try Self.validateSerializedClaims(claims) }
        let deleteAttributes = body.stringList("deleteAttribute")
        for attr in deleteAttributes where attr == "PROVIDER" || attr == "RAW_USER_INFO" {
            throw .notImplemented("deleteAttribute: \(attr)")
        }
        if body.nonEmptyString("oobCode") != nil { throw .badRequest("INVALID_OOB_CODE") }

        var user: UserRecord
        var signInProvider: String?
        if let token = body.nonEmptyString("idToken") {
            (user, signInProvider) = try parseIdToken(token, project: project)
            try require(!body.has("disableUser"), "OPERATION_NOT_ALLOWED")
        } else {
            guard let id = body.nonEmptyString("localId"), let u = try store.user(.localId(id), in: project) else {
                throw .badRequest("USER_NOT_FOUND")
            }
            user = u
        }
        var newEmail: String?
        var revoke = body.has("validSince")
        if let raw = body.nonEmptyString("email") {
            try require(EmailAddress.isValid(raw), "INVALID_EMAIL")
            let email = EmailAddress.canonical(raw)
            newEmail = email
            if email != user.email {
                try require(try store.user(.email(email), in: project) == nil, "EMAIL_EXISTS")
                user.email = email
                user.emailVerified = false
                revoke = true
            }
        }
        if let password = body.nonEmptyString("password") {
            try require(
                password.count >= Self.minimumPasswordLength,
                "WEAK_PASSWORD : Password should be at least \(Self.minimumPasswordLength) characters")
            (user.passwordHash, user.salt) = PasswordHasher.hash(password)
            user.passwordUpdatedAt = nowMilliseconds
            signInProvider = ProviderUserInfo.password
            revoke = true
        }
        if revoke { user.validSince = nowSeconds }
        if let v = body.string("displayName") { user.displayName = v }
        if let v = body.string("photoUrl") { user.photoUrl = v }
        if privileged {
            if let v = body.bool("disableUser") { user.disabled = v }
            if let phone = body.nonEmptyString("phoneNumber"), phone != user.phoneNumber {
                try require(PhoneNumber.isValid(phone), "INVALID_PHONE_NUMBER : Invalid format.")
                try require(try store.user(.phoneNumber(phone), in: project) == nil, "PHONE_NUMBER_EXISTS")
                user.phoneNumber = phone
            }
            if let v = body.bool("emailVerified") { user.emailVerified = v }
            if let v = body.string("customAttributes") { user.customAttributes = v }
            if let v = try body.int64("createdAt") { user.createdAt = v }
            if let v = try body.int64("lastLoginAt") { user.lastLoginAt = v }
            if let v = try body.int64("validSince") { user.validSince = v }
        }
        for attr in deleteAttributes {
            switch attr {
            case "DISPLAY_NAME": user.displayName = nil
            case "PHOTO_URL": user.photoUrl = nil
            case "PASSWORD":
                user.passwordHash = nil
                user.salt = nil
            case "EMAIL":
                user.email = nil
                user.emailVerified = nil
            default: break
            }
        }
        let deleteProviders = body.stringList("deleteProvider")
        if deleteProviders.contains(ProviderUserInfo.password) {
            user.email = nil
            user.emailVerified = nil
            user.passwordHash = nil
            user.salt = nil
        }
        if deleteProviders.contains(ProviderUserInfo.phone) { user.phoneNumber = nil }
        user.removeProviders(deleteProviders)
        if let link = body.object("linkProviderUserInfo") {
            try require(link.nonEmptyString("providerId") != nil, "MISSING_PROVIDER_ID")
            try require(link.nonEmptyString("rawId") != nil, "MISSING_RAW_ID")
            user.upsertProvider(try ProviderUserInfo(body: link))
        }
        user.syncDerivedProviders()
        try store.put(user, in: project)

        var o = JSONObjectBuilder()
        o.add("kind", "identitytoolkit#SetAccountInfoResponse")
        o.add("localId", user.localId)
        o.add("emailVerified", user.emailVerified)
        o.add("providerUserInfo", .array(user.providerUserInfo.map(\.json)))
        o.add("email", user.email)
        o.add("displayName", user.displayName)
        o.add("photoUrl", user.photoUrl)
        o.add("newEmail", newEmail)
        o.add("passwordHash", user.passwordHash)
        var members = o.members
        if revoke, let signInProvider {
            members += try issueTokens(user, provider: signInProvider, project: project).members
        }
        return .object(members)
    }

    /// `customAttributes` text: at most 1000 characters of a JSON object without reserved claims.
    /// - Throws: `CLAIMS_TOO_LARGE`, `INVALID_CLAIMS`, `FORBIDDEN_CLAIM : name`.
    static func validateSerializedClaims(_ text: String) throws(AuthError) {
        try require(text.count <= 1000, "CLAIMS_TOO_LARGE")
        guard let json = try? JSONValue.parse(text) else { throw .badRequest("INVALID_CLAIMS") }
        try validateCustomClaims(json)
    }

    /// `accounts:delete` by `idToken` (client; `MISSING_ID_TOKEN`) or `localId` (privileged;
    /// `MISSING_LOCAL_ID`, `USER_NOT_FOUND`). Response `{kind: "identitytoolkit#DeleteAccountResponse"}`.
    /// - Throws: `AuthError` with the codes above.
    func deleteAccount(_ body: AuthRequestBody, project: String, privileged: Bool) throws(AuthError) -> JSONValue {
        let user: UserRecord
        if privileged, body.nonEmptyString("idToken") == nil {
            guard let id = body.nonEmptyString("localId") else { throw .badRequest("MISSING_LOCAL_ID") }
            guard let u = try store.user(.localId(id), in: project) else { throw .badRequest("USER_NOT_FOUND") }
            user = u
        } else {
            guard let token = body.nonEmptyString("idToken") else { throw .badRequest("MISSING_ID_TOKEN") }
            user = try parseIdToken(token, project: project).user
        }
        try store.delete(localId: user.localId, in: project)
        return .object([.init("kind", .string("identitytoolkit#DeleteAccountResponse"))])
    }

    /// `accounts:createAuthUri` for an email `identifier` (fetchSignInMethodsForEmail):
    /// `{kind, registered, allProviders, signinMethods, sessionId}` (only `kind`, `sessionId`
    /// with improved email privacy). Errors: `MISSING_IDENTIFIER`, `MISSING_CONTINUE_URI`,
    /// `INVALID_IDENTIFIER`, `INVALID_CONTINUE_URI`; 501 with `providerId`.
    /// - Throws: `AuthError` with the codes above.
    func createAuthUri(_ body: AuthRequestBody, project: String) throws(AuthError) -> JSONValue {
        if body.has("providerId") { throw .notImplemented("Sign-in with IDP is not yet supported.") }
        guard let identifier = body.nonEmptyString("identifier") else { throw .badRequest("MISSING_IDENTIFIER") }
        guard let continueUri = body.nonEmptyString("continueUri") else { throw .badRequest("MISSING_CONTINUE_URI") }
        try require(EmailAddress.isValid(identifier), "INVALID_IDENTIFIER")
        try require(Self.normalizedParameters(requestUri: continueUri, postBody: nil) != nil, "INVALID_CONTINUE_URI")
        var sessionId = body.nonEmptyString("sessionId") ?? ""
        if sessionId.isEmpty { sessionId = String(try newLocalId(in: project).prefix(27)) }
        if try store.config(in: project).enableImprovedEmailPrivacy {
            return .object([
                .init("kind", .string("identitytoolkit#CreateAuthUriResponse")), .init("sessionId", .string(sessionId)),
            ])
        }
        var providers: [String] = []
        var methods: [String] = []
        let user = try store.user(.email(EmailAddress.canonical(identifier)), in: project)
        for p in user?.providerUserInfo ?? [] {
            if p.providerId == ProviderUserInfo.password {
                providers.append(p.providerId)
                if user?.passwordHash != nil { methods.append(p.providerId) }
            } else if p.providerId != ProviderUserInfo.phone {
                providers.append(p.providerId)
                methods.append(p.providerId)
            }
        }
        return .object([
            .init("kind", .string("identitytoolkit#CreateAuthUriResponse")), .init("registered", .bool(user != nil)),
            .init("allProviders", .array(providers.map(JSONValue.string))), .init("sessionId", .string(sessionId)),
            .init("signinMethods", .array(methods.map(JSONValue.string))),
        ])
    }

    /// `projects/{p}/accounts:batchGet?maxResults=N&nextPageToken=T` (privileged): accounts
    /// ascending by `localId` after `T`, at most `N` (default 20, at most 1000; `-1` = all, an
    /// emulator extension). Response `{kind: "identitytoolkit#DownloadAccountResponse", users,
    /// nextPageToken?}`. Source: docs/reference/firestore-wire.md §2.5 (export uses `maxResults=-1`).
    /// - Throws: `AuthError.internalError` when storage fails.
    func batchGet(_ query: [(name: String, value: String)], project: String) throws(AuthError) -> JSONValue {
        let requested = query.first { $0.name == "maxResults" }.flatMap { Int($0.value) } ?? 20
        let maxResults = requested == 0 ? 20 : min(requested, 1000)
        let after = query.first { $0.name == "nextPageToken" }?.value ?? ""
        var users = try store.users(in: project).filter { after.isEmpty || $0.localId > after }
        var next: String?
        if maxResults >= 0, users.count >= maxResults {
            users.removeLast(users.count - maxResults)
            next = users.last?.localId
        }
        var members: [JSONValue.Member] = [
            .init("kind", .string("identitytoolkit#DownloadAccountResponse")),
            .init("users", .array(users.map(\.json))),
        ]
        if let next { members.append(.init("nextPageToken", .string(next))) }
        return .object(members)
    }
}
