import GoogleWire

/// What an IdP credential says about the user, as the emulator derives it from the token's
/// claims without contacting the IdP: `sub` is the raw id; `email` (canonical),
/// `email_verified` (`true` or `"true"`), `name`, `picture`, `given_name`, `family_name`,
/// `screen_name` fill the profile. Source: docs/reference/firestore-wire.md §4.2 (response fields).
struct IdpProfile {
    let providerId: String
    let rawId: String
    let email: String?
    let emailVerified: Bool
    let displayName: String?
    let photoUrl: String?
    let firstName: String?
    let lastName: String?
    let screenName: String?
    let claims: JSONValue
    var oauthIdToken: String?
    var oauthAccessToken: String?

    /// Reads `claims` (which `AuthService.idpClaims` checked has a string `sub`).
    init(providerId: String, claims: JSONValue) {
        func str(_ k: String) -> String? {
            if case .string(let s)? = claims[k] { return s }
            return nil
        }
        self.providerId = providerId
        self.claims = claims
        rawId = str("sub") ?? ""
        email = str("email").map(EmailAddress.canonical)
        switch claims["email_verified"] {
        case .bool(true)?, .string("true")?: emailVerified = true
        default: emailVerified = false
        }
        displayName = str("name")
        photoUrl = str("picture")
        firstName = str("given_name")
        lastName = str("family_name")
        screenName = str("screen_name")
    }

    /// `https://accounts.google.com/{sub}` for Google, else the raw id.
    var federatedId: String { providerId == "google.com" ? "https://accounts.google.com/" + rawId : rawId }

    /// The identity to link (the emulator stores `federatedId = rawId` here).
    var providerUserInfo: ProviderUserInfo {
        ProviderUserInfo(
            providerId: providerId, rawId: rawId, federatedId: rawId, displayName: displayName, photoUrl: photoUrl,
            email: email, screenName: screenName)
    }

    /// `rawUserInfo`: Google's userinfo shape for `google.com`, else the claims themselves.
    var rawUserInfo: String {
        guard providerId == "google.com" else { return claims.serializedString }
        var scopes = "openid https://www.googleapis.com/auth/userinfo.profile"
        if email != nil { scopes += " https://www.googleapis.com/auth/userinfo.email" }
        var o = JSONObjectBuilder()
        o.add("granted_scopes", scopes)
        o.add("id", rawId)
        o.add("name", displayName)
        o.add("given_name", firstName)
        o.add("family_name", lastName)
        o.add("verified_email", emailVerified)
        o.add("locale", "en")
        o.add("email", email)
        o.add("picture", photoUrl)
        return o.value.serializedString
    }

    /// The VerifyAssertionResponse members before tokens: `kind, context, providerId,
    /// displayName?, fullName?, screenName?, email?, emailVerified, photoUrl?, firstName?,
    /// lastName?, rawUserInfo, federatedId, oauthAccessToken, oauthIdToken?, localId?`.
    func responseMembers(localId: String?) -> [JSONValue.Member] {
        var o = JSONObjectBuilder()
        o.add("kind", "identitytoolkit#VerifyAssertionResponse")
        o.add("context", "")
        o.add("providerId", providerId)
        o.add("displayName", displayName)
        o.add("fullName", displayName)
        o.add("screenName", screenName)
        o.add("email", email)
        o.add("emailVerified", emailVerified)
        o.add("photoUrl", photoUrl)
        o.add("firstName", firstName)
        o.add("lastName", lastName)
        o.add("rawUserInfo", rawUserInfo)
        o.add("federatedId", federatedId)
        o.add("oauthAccessToken", oauthAccessToken)
        o.add("oauthIdToken", oauthIdToken)
        o.add("localId", localId)
        return o.members
    }
}
