import FirestoreModel

/// A `UserRecord` as the fields of a Firestore document (`DocumentUserStore`).
///
/// Strings and booleans map to their Firestore types, times to integers in the record's
/// units, `providerUserInfo` to an array of maps; `providerKeys` (`"{providerId}:{rawId}"`
/// strings) is written beside them so an `array-contains` query finds an identity.
extension UserRecord {
    /// The document fields.
    public var fields: FieldMap {
        var f: FieldMap = ["localId": .string(localId), "createdAt": .integer(createdAt)]
        func put(_ k: String, _ v: String?) { if let v { f[k] = .string(v) } }
        func put(_ k: String, _ v: Int64?) { if let v { f[k] = .integer(v) } }
        put("email", email)
        if let emailVerified { f["emailVerified"] = .boolean(emailVerified) }
        put("displayName", displayName)
        put("photoUrl", photoUrl)
        put("phoneNumber", phoneNumber)
        put("passwordHash", passwordHash)
        put("salt", salt)
        put("passwordUpdatedAt", passwordUpdatedAt)
        put("validSince", validSince)
        if disabled { f["disabled"] = .boolean(true) }
        put("lastLoginAt", lastLoginAt)
        put("lastRefreshAt", lastRefreshAt)
        put("customAttributes", customAttributes)
        if customAuth { f["customAuth"] = .boolean(true) }
        f["providerUserInfo"] = .array(providerUserInfo.map { .map($0.fields) })
        f["providerKeys"] = .array(providerKeys.map(Value.string))
        return f
    }

    /// Reads fields written by `fields`.
    /// - Throws: `AuthError.internalError` when `localId` is missing (a corrupt record).
    public init(fields f: FieldMap) throws(AuthError) {
        guard case .string(let localId)? = f["localId"] else {
            throw .internalError("INTERNAL_ERROR : stored account without localId")
        }
        func str(_ k: String) -> String? {
            if case .string(let s)? = f[k] { return s }
            return nil
        }
        func int(_ k: String) -> Int64? {
            if case .integer(let n)? = f[k] { return n }
            return nil
        }
        func bool(_ k: String) -> Bool? {
            if case .boolean(let b)? = f[k] { return b }
            return nil
        }
        self.init(localId: localId, createdAt: int("createdAt") ?? 0)
        email = str("email")
        emailVerified = bool("emailVerified")
        displayName = str("displayName")
        photoUrl = str("photoUrl")
        phoneNumber = str("phoneNumber")
        passwordHash = str("passwordHash")
        salt = str("salt")
        passwordUpdatedAt = int("passwordUpdatedAt")
        validSince = int("validSince")
        disabled = bool("disabled") ?? false
        lastLoginAt = int("lastLoginAt")
        lastRefreshAt = str("lastRefreshAt")
        customAttributes = str("customAttributes")
        customAuth = bool("customAuth") ?? false
        if case .array(let list)? = f["providerUserInfo"] {
            for case .map(let m) in list { if let p = ProviderUserInfo(fields: m) { providerUserInfo.append(p) } }
        }
    }
}

extension ProviderUserInfo {
    /// The entry as a map.
    var fields: FieldMap {
        var f: FieldMap = ["providerId": .string(providerId), "rawId": .string(rawId)]
        for (k, v) in [
            ("federatedId", federatedId), ("displayName", displayName), ("photoUrl", photoUrl), ("email", email),
            ("phoneNumber", phoneNumber), ("screenName", screenName),
        ] {
            if let v { f[k] = .string(v) }
        }
        return f
    }

    /// Reads a map written by `fields`; nil without `providerId`/`rawId`.
    init?(fields f: FieldMap) {
        func str(_ k: String) -> String? {
            if case .string(let s)? = f[k] { return s }
            return nil
        }
        guard let providerId = str("providerId"), let rawId = str("rawId") else { return nil }
        self.init(
            providerId: providerId, rawId: rawId, federatedId: str("federatedId"), displayName: str("displayName"),
            photoUrl: str("photoUrl"), email: str("email"), phoneNumber: str("phoneNumber"),
            screenName: str("screenName"))
    }
}
