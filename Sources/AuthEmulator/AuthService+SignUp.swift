import GoogleWire

extension AuthService {
    /// Minimum password length (`WEAK_PASSWORD` below it).
    static let minimumPasswordLength = 6

    /// `accounts:signUp`.
    ///
    /// Client form: no email/password/idToken → an anonymous account with tokens; email and
    /// password → a password account with tokens (`MISSING_EMAIL`, `MISSING_PASSWORD`,
    /// `INVALID_EMAIL`, `EMAIL_EXISTS`, `WEAK_PASSWORD : …`); with `idToken` the account of
    /// that token is upgraded instead of created; `localId` → `UNEXPECTED_PARAMETER : User ID`.
    /// Privileged form (Admin `createUser`): optional `localId` (`DUPLICATE_LOCAL_ID`),
    /// profile fields, `emailVerified`, `phoneNumber` (`PHONE_NUMBER_EXISTS`), `disabled`; no tokens.
    /// Response: `{kind: "identitytoolkit#SignupNewUserResponse", localId, displayName?, email?,
    /// idToken?, refreshToken?, expiresIn?}`. Source: docs/reference/firestore-wire.md §4.2.
    /// - Throws: `AuthError` with the codes above.
    func signUp(_ body: AuthRequestBody, project: String, privileged: Bool) throws(AuthError) -> JSONValue {
        var provider: String?
        let now = nowMilliseconds
        var fields = UserRecord(localId: "", createdAt: now)
        fields.lastLoginAt = now
        if privileged {
            if body.nonEmptyString("idToken") != nil {
                try require(body.nonEmptyString("localId") == nil, "UNEXPECTED_PARAMETER : User ID")
            }
            if let id = body.nonEmptyString("localId") {
                try require(try store.user(.localId(id), in: project) == nil, "DUPLICATE_LOCAL_ID")
            }
            fields.displayName = body.string("displayName")
            fields.photoUrl = body.string("photoUrl")
            fields.emailVerified = body.bool("emailVerified") ?? false
            if let phone = body.nonEmptyString("phoneNumber") {
                try require(PhoneNumber.isValid(phone), "INVALID_PHONE_NUMBER : Invalid format.")
                try require(try store.user(.phoneNumber(phone), in: project) == nil, "PHONE_NUMBER_EXISTS")
                fields.phoneNumber = phone
            }
            if body.bool("disabled") == true { fields.disabled = true }
        } else {
            try require(body.nonEmptyString("localId") == nil, "UNEXPECTED_PARAMETER : User ID")
            if body.nonEmptyString("idToken") != nil || body.nonEmptyString("password") != nil
                || body.nonEmptyString("email") != nil
            {
                fields.displayName = body.string("displayName")
                fields.emailVerified = false
                try require(body.nonEmptyString("email") != nil, "MISSING_EMAIL")
                try require(body.nonEmptyString("password") != nil, "MISSING_PASSWORD")
                provider = ProviderUserInfo.password
            } else {
                provider = ProviderUserInfo.anonymous
            }
        }
        if let raw = body.string("email"), !raw.isEmpty || provider != nil {
            try require(EmailAddress.isValid(raw), "INVALID_EMAIL")
            let email = EmailAddress.canonical(raw)
            try require(try store.user(.email(email), in: project) == nil, "EMAIL_EXISTS")
            fields.email = email
        }
        if let password = body.nonEmptyString("password") {
            try require(
                password.count >= Self.minimumPasswordLength,
                "WEAK_PASSWORD : Password should be at least \(Self.minimumPasswordLength) characters")
            let (hash, salt) = PasswordHasher.hash(password)
            fields.passwordHash = hash
            fields.salt = salt
            fields.passwordUpdatedAt = now
            fields.validSince = nowSeconds
        }

        var user: UserRecord
        if let token = body.nonEmptyString("idToken") {
            user = try parseIdToken(token, project: project).user
            user.merge(fields, createdAt: false)
        } else {
            var localId = body.nonEmptyString("localId") ?? ""
            if localId.isEmpty { localId = try newLocalId(in: project) }
            user = fields
            user.localId = localId
        }
        user.syncDerivedProviders()
        if provider == nil { try store.put(user, in: project) }  // else issueTokens stores it

        var members: [JSONValue.Member] = [
            .init("kind", .string("identitytoolkit#SignupNewUserResponse")), .init("localId", .string(user.localId)),
        ]
        if let d = user.displayName { members.append(.init("displayName", .string(d))) }
        if let e = user.email { members.append(.init("email", .string(e))) }
        if let provider { members += try issueTokens(user, provider: provider, project: project).members }
        return .object(members)
    }
}

extension UserRecord {
    /// Copies the fields `other` sets (non-nil) over this account's: the emulator's
    /// `updateUserByLocalId(localId, updates)` for sign-up updates. `createdAt` only when asked.
    mutating func merge(_ other: UserRecord, createdAt copyCreatedAt: Bool) {
        if let v = other.email { email = v }
        if let v = other.emailVerified { emailVerified = v }
        if let v = other.displayName { displayName = v }
        if let v = other.photoUrl { photoUrl = v }
        if let v = other.phoneNumber { phoneNumber = v }
        if let v = other.passwordHash { passwordHash = v }
        if let v = other.salt { salt = v }
        if let v = other.passwordUpdatedAt { passwordUpdatedAt = v }
        if let v = other.validSince { validSince = v }
        if let v = other.lastLoginAt { lastLoginAt = v }
        if other.disabled { disabled = true }
        if copyCreatedAt { createdAt = other.createdAt }
    }
}

/// Phone number syntax as the emulator checks it: `+` then digits (E.164-like, 1–15 digits
/// after the `+`, spaces, dashes and parentheses tolerated).
enum PhoneNumber {
    static func isValid(_ s: String) -> Bool {
        guard s.hasPrefix("+") else { return false }
        let digits = s.dropFirst().filter(\.isNumber)
        let others = s.dropFirst().filter { !$0.isNumber && !" -()".contains($0) }
        return others.isEmpty && (1...15).contains(digits.count)
    }
}
