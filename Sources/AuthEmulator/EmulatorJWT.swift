import FoundationEssentials
import GoogleWire

/// Unsigned JWTs as the Auth emulator writes and reads them (no I/O).
///
/// Written tokens have header `{"alg":"none","typ":"JWT"}` and an empty signature, so they
/// end in `.`. Reading accepts any `header.payload[.signature]` whose first two parts are
/// base64url JSON objects; the signature and `alg` are ignored, as in the emulator.
/// Source: docs/reference/firestore-wire.md §4.4; RFC 7519 §6.1 (unsecured JWTs).
public enum EmulatorJWT {
    /// The header of every token Hearth issues.
    static let header: JSONValue = .object([.init("alg", .string("none")), .init("typ", .string("JWT"))])

    /// `base64url(header) + "." + base64url(payload) + "."`.
    public static func encode(_ payload: JSONValue) -> String {
        BearerToken.base64URLEncode(Data(header.serialized())) + "."
            + BearerToken.base64URLEncode(Data(payload.serialized())) + "."
    }

    /// The header and payload of `token`, or nil when it is not a JWT with JSON object parts.
    public static func decode(_ token: String) -> (header: JSONValue, payload: JSONValue)? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3,
            let h = BearerToken.base64URLDecode(String(parts[0])),
            let p = BearerToken.base64URLDecode(String(parts[1])),
            let header = try? JSONValue.parse(Array(h)), case .object = header,
            let payload = try? JSONValue.parse(Array(p)), case .object = payload
        else { return nil }
        return (header, payload)
    }
}

/// The emulator's refresh token: standard base64 of
/// `{"_AuthEmulatorRefreshToken":"DO NOT MODIFY","localId","provider","extraClaims","projectId"}`.
/// Nothing is stored server-side; refreshing re-reads the account. Source: docs/reference/firestore-wire.md §4.2.
public struct RefreshToken: Sendable, Hashable {
    /// The account.
    public var localId: String
    /// The sign-in provider the token was issued for (`password`, `google.com`, …).
    public var provider: String
    /// Extra claims (custom-token `claims`) to repeat in refreshed ID tokens, as a JSON object.
    public var extraClaims: JSONValue
    /// The project it belongs to.
    public var projectId: String

    /// Creates a record.
    public init(localId: String, provider: String, extraClaims: JSONValue = .object([]), projectId: String) {
        self.localId = localId
        self.provider = provider
        self.extraClaims = extraClaims
        self.projectId = projectId
    }

    /// The token text.
    public var encoded: String {
        let json: JSONValue = .object([
            .init("_AuthEmulatorRefreshToken", .string("DO NOT MODIFY")), .init("localId", .string(localId)),
            .init("provider", .string(provider)), .init("extraClaims", extraClaims),
            .init("projectId", .string(projectId)),
        ])
        return Base64.encode(json.serialized())
    }

    /// Reads a token.
    /// - Throws: `AuthError` `INVALID_REFRESH_TOKEN` for anything that is not such a record.
    public init(decoding text: String) throws(AuthError) {
        guard let bytes = Base64.decode(text), let json = try? JSONValue.parse(bytes), case .object = json,
            json["_AuthEmulatorRefreshToken"] != nil,
            case .string(let localId)? = json["localId"], case .string(let provider)? = json["provider"],
            case .string(let projectId)? = json["projectId"]
        else { throw .badRequest("INVALID_REFRESH_TOKEN") }
        var extra = json["extraClaims"] ?? .object([])
        if case .object = extra {} else { extra = .object([]) }
        self.init(localId: localId, provider: provider, extraClaims: extra, projectId: projectId)
    }
}
