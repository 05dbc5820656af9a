import GoogleWire

extension UserRecord {
    /// The claims of an ID token for this user, in the emulator's order: `name?`, `picture?`,
    /// custom claims (`customAttributes`, then `extraClaims`), then the reserved `email?`,
    /// `email_verified?`, `phone_number?`, `provider_id` (anonymous only), `auth_time`,
    /// `user_id`, `firebase {identities, sign_in_provider}`, `iat`, `exp = iat + 3600`,
    /// `aud = project`, `iss = https://securetoken.google.com/{project}`, `sub = localId`.
    ///
    /// `identities` holds `email: [email]` and, per linked provider other than `password`,
    /// `providerId: [rawId]`. `auth_time` is `lastLoginAt` in seconds (else `iat`).
    /// Source: docs/reference/firestore-wire.md §4.4.
    /// - Parameters:
    ///   - signInProvider: `password`, `google.com`, `anonymous`, `custom`, …
    ///   - issuedAt: `iat`, seconds since the epoch.
    ///   - extraClaims: a JSON object of session claims (custom-token `claims`).
    public func idTokenClaims(project: String, signInProvider: String, issuedAt: Int64, extraClaims: JSONValue? = nil)
        -> JSONValue
    {
        var claims = ClaimsBuilder()
        claims.set("name", displayName.map(JSONValue.string))
        claims.set("picture", photoUrl.map(JSONValue.string))
        if let text = customAttributes, case .object(let members)? = try? JSONValue.parse(text) {
            for m in members { claims.set(m.key, m.value) }
        }
        if case .object(let members)? = extraClaims {
            for m in members { claims.set(m.key, m.value) }
        }
        claims.set("email", email.map(JSONValue.string))
        claims.set("email_verified", emailVerified.map(JSONValue.bool))
        claims.set("phone_number", phoneNumber.map(JSONValue.string))
        claims.set("provider_id", signInProvider == ProviderUserInfo.anonymous ? .string(signInProvider) : nil)
        claims.set("auth_time", .integer(lastLoginAt.map { $0 / 1000 } ?? issuedAt))
        claims.set("user_id", .string(localId))
        var identities: [JSONValue.Member] = []
        if let email { identities.append(.init("email", .array([.string(email)]))) }
        for p in providerUserInfo where p.providerId != ProviderUserInfo.password {
            if let i = identities.firstIndex(where: { $0.key == p.providerId }),
                case .array(let ids) = identities[i].value
            {
                identities[i].value = .array(ids + [.string(p.rawId)])
            } else {
                identities.append(.init(p.providerId, .array([.string(p.rawId)])))
            }
        }
        claims.set(
            "firebase",
            .object([.init("identities", .object(identities)), .init("sign_in_provider", .string(signInProvider))]))
        claims.set("iat", .integer(issuedAt))
        claims.set("exp", .integer(issuedAt + 3600))
        claims.set("aud", .string(project))
        claims.set("iss", .string("https://securetoken.google.com/" + project))
        claims.set("sub", .string(localId))
        return claims.value
    }
}

/// Object members where a later `set` of the same key replaces the value in place (JS object
/// spread semantics), and nil removes nothing and adds nothing.
struct ClaimsBuilder {
    private var members: [JSONValue.Member] = []

    var value: JSONValue { .object(members) }

    mutating func set(_ key: String, _ value: JSONValue?) {
        guard let value else { return }
        if let i = members.firstIndex(where: { $0.key == key }) {
            members[i].value = value
        } else {
            members.append(.init(key, value))
        }
    }
}
