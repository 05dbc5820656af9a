import GoogleWire

/// The per-project settings the emulator lets a test change (`PATCH /emulator/v1/projects/{p}/config`).
///
/// Defaults as the emulator's: one account per email; improved email privacy off (so a bad
/// password is `INVALID_PASSWORD`, not `INVALID_LOGIN_CREDENTIALS`). Anonymous and password
/// sign-in are always enabled. Source: docs/reference/firestore-wire.md §4.3.
public struct AuthProjectConfig: Sendable, Hashable {
    /// `signIn.allowDuplicateEmails`.
    public var allowDuplicateEmails = false
    /// `emailPrivacyConfig.enableImprovedEmailPrivacy`.
    public var enableImprovedEmailPrivacy = false

    /// The defaults.
    public init() {}

    /// `{"signIn":{"allowDuplicateEmails":…},"emailPrivacyConfig":{"enableImprovedEmailPrivacy":…}}`.
    public var json: JSONValue {
        .object([
            .init("signIn", .object([.init("allowDuplicateEmails", .bool(allowDuplicateEmails))])),
            .init(
                "emailPrivacyConfig", .object([.init("enableImprovedEmailPrivacy", .bool(enableImprovedEmailPrivacy))])),
        ])
    }

    /// Applies the members present in `body` (a PATCH); absent members keep their value.
    public mutating func apply(_ body: AuthRequestBody) {
        if let v = body.object("signIn")?.bool("allowDuplicateEmails") { allowDuplicateEmails = v }
        if let v = body.object("emailPrivacyConfig")?.bool("enableImprovedEmailPrivacy") {
            enableImprovedEmailPrivacy = v
        }
    }
}
