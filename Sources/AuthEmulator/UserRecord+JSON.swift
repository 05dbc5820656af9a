import GoogleWire

/// `UserInfo` JSON as `accounts:lookup`, `accounts:batchGet` and Hearth's export write it, and
/// its reading back (import). Absent optionals are omitted.
/// Source: docs/reference/firestore-wire.md §4.2 (UserInfo fields and their string encodings).
extension UserRecord {
    /// The UserInfo object: `localId, email, emailVerified, displayName, photoUrl, phoneNumber,
    /// providerUserInfo, passwordHash, salt, passwordUpdatedAt, validSince (seconds string),
    /// disabled, lastLoginAt (ms string), createdAt (ms string), lastRefreshAt, customAttributes,
    /// customAuth`. `passwordHash` is a salted PBKDF2 hash, never the password.
    public var json: JSONValue {
        var o = JSONObjectBuilder()
        o.add("localId", localId)
        o.add("email", email)
        o.add("emailVerified", emailVerified)
        o.add("displayName", displayName)
        o.add("photoUrl", photoUrl)
        o.add("phoneNumber", phoneNumber)
        o.add("providerUserInfo", .array(providerUserInfo.map(\.json)))
        o.add("passwordHash", passwordHash)
        o.add("salt", salt)
        if let passwordUpdatedAt { o.add("passwordUpdatedAt", .integer(passwordUpdatedAt)) }
        o.add("validSince", validSince.map { String($0) })
        if disabled { o.add("disabled", true) }
        o.add("lastLoginAt", lastLoginAt.map { String($0) })
        o.add("createdAt", String(createdAt))
        o.add("lastRefreshAt", lastRefreshAt)
        o.add("customAttributes", customAttributes)
        if customAuth { o.add("customAuth", true) }
        return o.value
    }

    /// Reads a UserInfo object written by `json` (or by the Firebase emulator's export, whose
    /// fields have the same names). Unknown members are ignored.
    /// - Throws: `AuthError.invalidArgument` when `localId` is missing or a field has the wrong type.
    public init(json: JSONValue) throws(AuthError) {
        let body = try AuthRequestBody(json: json)
        guard let localId = body.string("localId"), !localId.isEmpty else {
            throw .invalidArgument("a user needs a localId")
        }
        self.init(localId: localId, createdAt: try body.int64("createdAt") ?? 0)
        email = body.string("email")
        emailVerified = body.bool("emailVerified")
        displayName = body.string("displayName")
        photoUrl = body.string("photoUrl")
        phoneNumber = body.string("phoneNumber")
        passwordHash = body.string("passwordHash")
        salt = body.string("salt")
        passwordUpdatedAt = try body.int64("passwordUpdatedAt")
        validSince = try body.int64("validSince")
        disabled = body.bool("disabled") ?? false
        lastLoginAt = try body.int64("lastLoginAt")
        lastRefreshAt = body.string("lastRefreshAt")
        customAttributes = body.string("customAttributes")
        customAuth = body.bool("customAuth") ?? false
        for p in body.objectList("providerUserInfo") { providerUserInfo.append(try ProviderUserInfo(body: p)) }
    }
}

extension ProviderUserInfo {
    /// `{providerId, rawId, federatedId?, displayName?, photoUrl?, email?, phoneNumber?, screenName?}`.
    public var json: JSONValue {
        var o = JSONObjectBuilder()
        o.add("providerId", providerId)
        o.add("rawId", rawId)
        o.add("federatedId", federatedId)
        o.add("displayName", displayName)
        o.add("photoUrl", photoUrl)
        o.add("email", email)
        o.add("phoneNumber", phoneNumber)
        o.add("screenName", screenName)
        return o.value
    }

    /// Reads an entry.
    /// - Throws: `AuthError.invalidArgument` without `providerId` and `rawId`.
    init(body: AuthRequestBody) throws(AuthError) {
        guard let providerId = body.nonEmptyString("providerId"), let rawId = body.nonEmptyString("rawId") else {
            throw .invalidArgument("providerUserInfo needs providerId and rawId")
        }
        self.init(
            providerId: providerId, rawId: rawId, federatedId: body.string("federatedId"),
            displayName: body.string("displayName"), photoUrl: body.string("photoUrl"), email: body.string("email"),
            phoneNumber: body.string("phoneNumber"), screenName: body.string("screenName"))
    }
}

/// Builds a JSON object member by member, skipping nil values.
struct JSONObjectBuilder {
    private(set) var members: [JSONValue.Member] = []

    /// The object.
    var value: JSONValue { .object(members) }

    mutating func add(_ key: String, _ value: JSONValue?) {
        if let value { members.append(.init(key, value)) }
    }

    mutating func add(_ key: String, _ value: String?) {
        if let value { members.append(.init(key, .string(value))) }
    }

    mutating func add(_ key: String, _ value: Bool?) {
        if let value { members.append(.init(key, .bool(value))) }
    }
}
