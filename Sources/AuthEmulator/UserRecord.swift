/// One account of the Auth emulator: the `UserInfo` of Identity Toolkit v1, minus MFA and tenants.
///
/// Times keep the wire's units: `createdAt`/`lastLoginAt`/`passwordUpdatedAt` in milliseconds
/// since the Unix epoch, `validSince` in seconds, `lastRefreshAt` as an RFC 3339 string.
/// Passwords are never stored: `passwordHash` is PBKDF2-HMAC-SHA256 (`PasswordHasher`) of the
/// password with `salt`, both base64.
/// Source: docs/reference/firestore-wire.md §4.2 (UserInfo fields); firebase-tools `src/emulator/auth/state.ts`.
public struct UserRecord: Sendable, Hashable {
    /// The uid: 28 random letters and digits unless an Admin client chose it.
    public var localId: String
    /// Canonical (lower-case) email.
    public var email: String?
    /// Whether the email is verified; nil when never set (anonymous users).
    public var emailVerified: Bool?
    /// Display name.
    public var displayName: String?
    /// Photo URL.
    public var photoUrl: String?
    /// E.164 phone number.
    public var phoneNumber: String?
    /// Base64 PBKDF2-HMAC-SHA256 of the password.
    public var passwordHash: String?
    /// Base64 salt of `passwordHash`.
    public var salt: String?
    /// When the password last changed, milliseconds since the epoch.
    public var passwordUpdatedAt: Int64?
    /// Linked identities (`password`, `phone`, `google.com`, …), one per provider.
    public var providerUserInfo: [ProviderUserInfo]
    /// Tokens issued before this instant (seconds since the epoch) are revoked.
    public var validSince: Int64?
    /// A disabled account cannot sign in or refresh.
    public var disabled: Bool
    /// Creation time, milliseconds since the epoch.
    public var createdAt: Int64
    /// Last sign-in, milliseconds since the epoch.
    public var lastLoginAt: Int64?
    /// Last token issue, RFC 3339 with milliseconds.
    public var lastRefreshAt: String?
    /// Custom claims as a JSON object text, e.g. `{"admin":true}`.
    public var customAttributes: String?
    /// True once the account signed in with a custom token.
    public var customAuth: Bool

    /// Creates a user with no profile.
    public init(localId: String, createdAt: Int64) {
        self.localId = localId
        self.createdAt = createdAt
        providerUserInfo = []
        disabled = false
        customAuth = false
    }

    /// The provider entry for `providerId`, if linked.
    public func provider(_ providerId: String) -> ProviderUserInfo? {
        providerUserInfo.first { $0.providerId == providerId }
    }

    /// Adds `info`, replacing the entry of the same provider.
    public mutating func upsertProvider(_ info: ProviderUserInfo) {
        if let i = providerUserInfo.firstIndex(where: { $0.providerId == info.providerId }) {
            providerUserInfo[i] = info
        } else {
            providerUserInfo.append(info)
        }
    }

    /// Removes the entries of `providerIds`.
    public mutating func removeProviders(_ providerIds: [String]) {
        providerUserInfo.removeAll { providerIds.contains($0.providerId) }
    }

    /// Keeps the `password` and `phone` entries in step with the account fields, as the emulator
    /// does after every change: `password` exists exactly when there is an email and a password
    /// hash; `phone` exactly when there is a phone number.
    public mutating func syncDerivedProviders() {
        if let email, passwordHash != nil {
            upsertProvider(
                ProviderUserInfo(
                    providerId: ProviderUserInfo.password, rawId: email, federatedId: email, displayName: displayName,
                    photoUrl: photoUrl, email: email))
        } else {
            removeProviders([ProviderUserInfo.password])
        }
        if let phoneNumber {
            upsertProvider(
                ProviderUserInfo(providerId: ProviderUserInfo.phone, rawId: phoneNumber, phoneNumber: phoneNumber))
        } else {
            removeProviders([ProviderUserInfo.phone])
        }
    }

    /// `"{providerId}:{rawId}"` for every linked identity — the keys `UserLookup.provider` finds.
    public var providerKeys: [String] { providerUserInfo.map { ProviderUserInfo.key($0.providerId, $0.rawId) } }
}

/// One identity linked to an account. Source: Identity Toolkit v1 `ProviderUserInfo`.
public struct ProviderUserInfo: Sendable, Hashable {
    /// `password`.
    public static let password = "password"
    /// `phone`.
    public static let phone = "phone"
    /// `anonymous` (a sign-in provider, never linked).
    public static let anonymous = "anonymous"
    /// `custom` (custom tokens; a sign-in provider, never linked).
    public static let custom = "custom"

    /// e.g. `google.com`.
    public var providerId: String
    /// The identity's id at the provider (the IdP's `sub`; the email for `password`).
    public var rawId: String
    /// The emulator sets it to `rawId` for IdPs and to the email for `password`.
    public var federatedId: String?
    /// Name at the provider.
    public var displayName: String?
    /// Photo at the provider.
    public var photoUrl: String?
    /// Email at the provider.
    public var email: String?
    /// Phone number (for `phone`).
    public var phoneNumber: String?
    /// Screen name at the provider.
    public var screenName: String?

    /// Creates an entry.
    public init(
        providerId: String, rawId: String, federatedId: String? = nil, displayName: String? = nil,
        photoUrl: String? = nil, email: String? = nil, phoneNumber: String? = nil, screenName: String? = nil
    ) {
        self.providerId = providerId
        self.rawId = rawId
        self.federatedId = federatedId
        self.displayName = displayName
        self.photoUrl = photoUrl
        self.email = email
        self.phoneNumber = phoneNumber
        self.screenName = screenName
    }

    /// The lookup key of an identity: `"{providerId}:{rawId}"`.
    public static func key(_ providerId: String, _ rawId: String) -> String { providerId + ":" + rawId }
}
