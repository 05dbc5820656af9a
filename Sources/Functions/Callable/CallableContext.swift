import FirestoreModel

/// The verified identity of a callable's caller: `request.auth` in firebase-functions.
///
/// Built from the `Authorization: Bearer <ID token>` header, decoded the same way the Firestore
/// side does (JWT, signature not verified in the emulator). Source: docs/reference/firestore-wire.md §3.2, §2.2.
public struct CallableAuth: Sendable, Hashable {
    /// The user id: the token's `sub` claim (else `user_id`).
    public var uid: String
    /// Every claim of the token (`name`, `picture`, `email`, `firebase`, custom claims, …).
    public var token: FieldMap

    /// Creates an identity.
    public init(uid: String, token: FieldMap) {
        self.uid = uid
        self.token = token
    }

    /// The `name` claim (display name), when it is a string.
    public var name: String? { stringClaim("name") }
    /// The `picture` claim (photo URL), when it is a string.
    public var picture: String? { stringClaim("picture") }
    /// The `email` claim, when it is a string.
    public var email: String? { stringClaim("email") }

    /// The claim `key` when it is a string.
    public func stringClaim(_ key: String) -> String? {
        if case .string(let s)? = token[key] { return s }
        return nil
    }
}

/// Everything about a callable invocation besides its `data`.
/// Source: docs/reference/firestore-wire.md §3.2 (headers); firebase-functions `CallableRequest`.
public struct CallableContext: Sendable {
    /// The caller, or nil when the request carried no `Authorization` header.
    public var auth: CallableAuth?
    /// `Firebase-Instance-ID-Token`: the caller's FCM registration token, if sent.
    public var instanceIDToken: String?
    /// `X-Firebase-AppCheck`: the App Check token, passed through unverified.
    public var appCheckToken: String?
    /// The project the function was called in.
    public var project: String
    /// The region in the URL, e.g. `us-central1`.
    public var region: String
    /// The function name in the URL.
    public var functionName: String

    /// Creates a context.
    public init(
        auth: CallableAuth?, instanceIDToken: String? = nil, appCheckToken: String? = nil, project: String,
        region: String, functionName: String
    ) {
        self.auth = auth
        self.instanceIDToken = instanceIDToken
        self.appCheckToken = appCheckToken
        self.project = project
        self.region = region
        self.functionName = functionName
    }
}

/// One callable invocation as a handler sees it: the decoded `data` and its context.
public struct CallableRequest: Sendable {
    /// The request's `data`, with Int64Value wrappers already decoded.
    public var data: CallableValue
    /// Who called, and where.
    public var context: CallableContext

    /// Creates a request.
    public init(data: CallableValue, context: CallableContext) {
        self.data = data
        self.context = context
    }

    /// Shorthand for `context.auth`.
    public var auth: CallableAuth? { context.auth }
}
