import GoogleWire

/// Where an Auth emulator request goes, decided from its method and path alone (no I/O).
///
/// The emulator embeds production hosts in the path (docs/reference/firestore-wire.md §4.1):
/// `/identitytoolkit.googleapis.com/v1/accounts:{op}` (client SDKs, `?key=`),
/// `/identitytoolkit.googleapis.com/v1/projects/{p}/accounts[:{op}]` (Admin SDKs, `Bearer owner`),
/// `/www.googleapis.com/identitytoolkit/v3/relyingparty/{legacyOp}` (older iOS SDK, rewritten
/// to the v1 operation), `/securetoken.googleapis.com/v1/token` (refresh) and the emulator's own
/// `/emulator/v1/projects/{p}/{accounts|config|oobCodes|verificationCodes}`.
public enum AuthRoute: Sendable, Equatable {
    /// Which credentials an operation accepts.
    public enum Security: Sendable, Equatable {
        /// None (emulator-only endpoints).
        case none
        /// An API key (`?key=` or `X-Goog-Api-Key`) or `Bearer owner`; neither → 403 "The request
        /// is missing a valid API key."
        case apiKey
        /// `Bearer owner` or an API key; neither → 401 "Request is missing required
        /// authentication credential."
        case oauthOrApiKey
    }

    /// `GET /`: the readiness document.
    case root
    /// An implemented operation; `project` is nil when the API key decides it.
    case call(AuthOperation, project: String?, security: Security)
    /// A known endpoint outside the emulated subset (501 with this message).
    case unsupported(String)
    /// No such endpoint (404).
    case notFound

    /// v1 `accounts:{op}` names → operations.
    static let accountOperations: [String: AuthOperation] = [
        "signUp": .signUp, "signInWithPassword": .signInWithPassword, "signInWithIdp": .signInWithIdp,
        "signInWithCustomToken": .signInWithCustomToken, "lookup": .lookup, "update": .update, "delete": .delete,
        "createAuthUri": .createAuthUri,
    ]

    /// Known v1 `accounts:{op}` names Hearth does not implement.
    static let unsupportedAccountOperations: Set<String> = [
        "sendOobCode", "resetPassword", "signInWithEmailLink", "signInWithPhoneNumber", "sendVerificationCode",
        "signInWithGameCenter", "mfaEnrollment:start", "mfaEnrollment:finalize", "mfaEnrollment:withdraw",
        "mfaSignIn:start", "mfaSignIn:finalize", "batchCreate", "batchDelete", "query", "issueSamlResponse",
    ]

    /// The legacy v3 relyingparty names and the v1 `accounts:` operation each becomes
    /// (docs/reference/firestore-wire.md §4.1 rewrite table).
    static let legacyOperations: [String: String] = [
        "createAuthUri": "createAuthUri", "deleteAccount": "delete", "emailLinkSignin": "signInWithEmailLink",
        "getAccountInfo": "lookup", "getOobConfirmationCode": "sendOobCode", "resetPassword": "resetPassword",
        "sendVerificationCode": "sendVerificationCode", "setAccountInfo": "update", "signupNewUser": "signUp",
        "verifyAssertion": "signInWithIdp", "verifyCustomToken": "signInWithCustomToken",
        "verifyPassword": "signInWithPassword", "verifyPhoneNumber": "signInWithPhoneNumber",
    ]

    /// Routes one request.
    /// - Parameters:
    ///   - method: the HTTP method.
    ///   - path: the percent-encoded path (no query).
    public static func parse(method: String, path: String) -> AuthRoute {
        if path == "/" || path.isEmpty { return method == "GET" ? .root : .notFound }
        if let rest = path.dropPrefix("/www.googleapis.com/identitytoolkit/v3/relyingparty/") {
            if let v1 = legacyOperations[rest] { return account(v1, project: nil, security: .apiKey) }
            if rest == "getProjectConfig" { return .call(.getProjects, project: nil, security: .apiKey) }
            return .unsupported("\(rest) is not implemented in Hearth's Auth emulator.")
        }
        if let rest = path.dropPrefix("/identitytoolkit.googleapis.com/v1/") {
            if let op = rest.dropPrefix("accounts:") { return account(op, project: nil, security: .apiKey) }
            if rest == "projects" { return .call(.getProjects, project: nil, security: .apiKey) }
            if rest == "recaptchaParams" || rest == "publicKeys" || rest == "sessionCookiePublicKeys" {
                return .unsupported("\(rest) is not implemented in Hearth's Auth emulator.")
            }
            if let inProject = rest.dropPrefix("projects/") {
                let segments = inProject.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
                guard let first = segments.first, !first.isEmpty else { return .notFound }
                var projectPart = String(first)
                var tail = segments.count > 1 ? String(segments[1]) : ""
                if let colon = projectPart.firstIndex(of: ":") {
                    // projects/{p}:createSessionCookie, projects/{p}:queryAccounts
                    tail = String(projectPart[colon...])
                    projectPart = String(projectPart[..<colon])
                }
                let project = PercentEncoding.decode(projectPart) ?? projectPart
                if tail == "accounts" {
                    return method == "POST" ? .call(.signUp, project: project, security: .oauthOrApiKey) : .notFound
                }
                if let op = tail.dropPrefix("accounts:") {
                    if op == "batchGet" { return .call(.batchGet, project: project, security: .oauthOrApiKey) }
                    return account(op, project: project, security: .oauthOrApiKey)
                }
                if tail.hasPrefix("tenants") {
                    return .unsupported("Tenants are not implemented in Hearth's Auth emulator.")
                }
                if tail.hasPrefix(":") {
                    return .unsupported("\(tail.dropFirst()) is not implemented in Hearth's Auth emulator.")
                }
                return .notFound
            }
            return .notFound
        }
        if path.hasPrefix("/identitytoolkit.googleapis.com/v2/") {
            return .unsupported("Identity Toolkit v2 endpoints are not implemented in Hearth's Auth emulator.")
        }
        if path == "/securetoken.googleapis.com/v1/token" {
            return method == "POST" ? .call(.grantToken, project: nil, security: .apiKey) : .notFound
        }
        if let rest = path.dropPrefix("/emulator/v1/projects/") {
            let segments = rest.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            guard segments.count >= 2, !segments[0].isEmpty else { return .notFound }
            let project = PercentEncoding.decode(segments[0]) ?? segments[0]
            switch (method, Array(segments.dropFirst())) {
            case ("DELETE", ["accounts"]): return .call(.clearAccounts, project: project, security: .none)
            case ("GET", ["config"]): return .call(.getConfig, project: project, security: .none)
            case ("PATCH", ["config"]): return .call(.updateConfig, project: project, security: .none)
            case ("GET", ["oobCodes"]): return .call(.listOobCodes, project: project, security: .none)
            case ("GET", ["verificationCodes"]): return .call(.listVerificationCodes, project: project, security: .none)
            default:
                if segments[1] == "tenants" {
                    return .unsupported("Tenants are not implemented in Hearth's Auth emulator.")
                }
                return .notFound
            }
        }
        if path == "/emulator/openapi.json" || path.hasPrefix("/emulator/auth/") || path == "/emulator/action" {
            return .unsupported("\(path) is not implemented in Hearth's Auth emulator.")
        }
        return .notFound
    }

    private static func account(_ op: String, project: String?, security: Security) -> AuthRoute {
        if let operation = accountOperations[op] { return .call(operation, project: project, security: security) }
        if unsupportedAccountOperations.contains(op) {
            return .unsupported("accounts:\(op) is not implemented in Hearth's Auth emulator.")
        }
        return .notFound
    }
}

extension String {
    /// The rest of the string after `prefix`, or nil when it does not start with it.
    fileprivate func dropPrefix(_ prefix: String) -> String? {
        hasPrefix(prefix) ? String(dropFirst(prefix.count)) : nil
    }
}
