import FoundationEssentials
import FirestoreModel

/// Turns an `Authorization` header into an `AuthContext` the way the Firestore emulator does.
///
/// `Bearer owner` is admin. Any other bearer must be a JWT (`header.payload.signature`,
/// base64url, signature not verified — unsigned emulator tokens end in `.`); its claims
/// become `request.auth.token`, and `uid` is `sub`, else `user_id`. Source: docs/reference/firestore-wire.md §2.2, §2.7.
public enum BearerToken {
    /// Decodes the header value.
    /// - Parameter header: the `Authorization` value, or nil when absent (→ `.unauthenticated`).
    /// - Throws: `.invalidArgument` ("invalid jwt …") for a non-JWT bearer, a non-Bearer
    ///   scheme, undecodable base64url, a payload that is not a JSON object, or a token
    ///   without `sub`/`user_id`.
    public static func authContext(fromHeader header: String?) throws(FirestoreError) -> AuthContext {
        guard let header = header.map(trimmedOfWhitespace), !header.isEmpty else { return .unauthenticated }
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw .invalidArgument("invalid jwt: the Authorization header must be \"Bearer <token>\".")
        }
        let token = trimmedOfWhitespace(String(parts[1]))
        if token == "owner" { return .admin }
        // Google OAuth access tokens (server credentials): the emulator treats the caller as
        // signed out rather than rejecting the call (observed on emulator 1.19.9).
        if token.hasPrefix("ya29.") { return .unauthenticated }
        return try authContext(fromJWT: token)
    }

    /// `s` without leading and trailing `.whitespaces` (Unicode `Zs` and tab). A header that
    /// starts and ends with visible ASCII, as every real one does, is returned as it is
    /// without Foundation's character-set scan (every request pays this).
    static func trimmedOfWhitespace(_ s: String) -> String {
        if let first = s.utf8.first, let last = s.utf8.last, first > 0x20, first < 0x7F, last > 0x20, last < 0x7F {
            return s
        }
        return String(s.trimmingASCII())
    }

    /// Decodes a JWT's claims into an `AuthContext.user`.
    /// - Throws: `.invalidArgument` as `authContext(fromHeader:)`.
    public static func authContext(fromJWT token: String) throws(FirestoreError) -> AuthContext {
        let claims = try claims(ofJWT: token)
        let uid: String
        if case .string(let s)? = claims["sub"], !s.isEmpty {
            uid = s
        } else if case .string(let s)? = claims["user_id"], !s.isEmpty {
            uid = s
        } else {
            throw .invalidArgument("invalid jwt: the token has no \"sub\" or \"user_id\" claim.")
        }
        return .user(uid: uid, token: claims)
    }

    /// The claims of a JWT as Firestore values (numbers with no fraction become ints).
    /// - Throws: `.invalidArgument` when the token is not three base64url parts with JSON objects.
    public static func claims(ofJWT token: String) throws(FirestoreError) -> FieldMap {
        let segments = token.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3 || segments.count == 2,
            let headerData = base64URLDecode(String(segments[0])),
            case .object? = try? JSONValue.parse(Array(headerData)),
            let payloadData = base64URLDecode(String(segments[1])),
            case .object(let payload)? = try? JSONValue.parse(Array(payloadData))
        else {
            throw .invalidArgument("invalid jwt: the bearer token is neither \"owner\" nor a decodable JWT.")
        }
        var out: FieldMap = [:]
        for member in payload { out[member.key] = value(fromJSON: member.value) }
        return out
    }

    /// Decodes base64url (RFC 4648 §5) with or without padding; nil when it is not base64url.
    public static func base64URLDecode(_ s: String) -> Data? {
        var t = String(s.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        while t.utf8.count % 4 != 0 { t += "=" }
        return Data(base64Encoded: t)
    }

    /// Encodes bytes as base64url (RFC 4648 §5) without padding.
    public static func base64URLEncode(_ data: Data) -> String {
        String(data.base64EncodedString().compactMap { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 == "=" ? nil : $0 })
    }

    /// Converts a JSON value to a Firestore value (token claims): a number without fraction
    /// or exponent that fits in 64 bits becomes an integer, any other number a double; an
    /// object's later duplicate member wins.
    public static func value(fromJSON v: JSONValue) -> Value {
        switch v {
        case .null: return .null
        case .bool(let b): return .boolean(b)
        case .string(let s): return .string(s)
        case .number(let text):
            if let i = Int64(text) { return .integer(i) }
            return .double(Double(text) ?? .nan)
        case .array(let elements): return .array(elements.map(value(fromJSON:)))
        case .object(let members):
            var out: FieldMap = [:]
            for member in members { out[member.key] = value(fromJSON: member.value) }
            return .map(out)
        case .fragment(let bytes): return (try? JSONValue.parse(bytes)).map(value(fromJSON:)) ?? .null
        }
    }
}
