import GoogleWire

extension AuthService {
    /// `POST /securetoken.googleapis.com/v1/token`: `grantType`/`grant_type` must be
    /// `refresh_token` (`MISSING_GRANT_TYPE`, `INVALID_GRANT_TYPE`), `refreshToken` an emulator
    /// refresh token of this project whose account exists (`MISSING_REFRESH_TOKEN`,
    /// `INVALID_REFRESH_TOKEN`) and is enabled (`USER_DISABLED`). The body may be form-encoded
    /// (JS SDK) or JSON (iOS SDK). Response (snake_case): `{id_token, access_token (same JWT),
    /// expires_in: "3600", refresh_token, token_type: "Bearer", user_id, project_id: "12345"}`.
    /// Source: docs/reference/firestore-wire.md §4.2.
    /// - Throws: `AuthError` with the codes above.
    func grantToken(_ body: AuthRequestBody, project: String) throws(AuthError) -> JSONValue {
        guard let grantType = body.nonEmptyString("grantType") else { throw .badRequest("MISSING_GRANT_TYPE") }
        try require(grantType == "refresh_token", "INVALID_GRANT_TYPE")
        guard let text = body.nonEmptyString("refreshToken") else { throw .badRequest("MISSING_REFRESH_TOKEN") }
        let record = try RefreshToken(decoding: text)
        try require(record.projectId == project, "INVALID_REFRESH_TOKEN")
        guard let user = try store.user(.localId(record.localId), in: project) else {
            throw .badRequest("INVALID_REFRESH_TOKEN")
        }
        try require(!user.disabled, "USER_DISABLED")
        let tokens = try issueTokens(user, provider: record.provider, project: project, extraClaims: record.extraClaims)
        func member(_ name: String) -> JSONValue { tokens.members.first { $0.key == name }?.value ?? .null }
        return .object([
            .init("id_token", member("idToken")), .init("access_token", member("idToken")),
            .init("expires_in", member("expiresIn")), .init("refresh_token", member("refreshToken")),
            .init("token_type", .string("Bearer")), .init("user_id", .string(user.localId)),
            .init("project_id", .string("12345")),
        ])
    }
}
