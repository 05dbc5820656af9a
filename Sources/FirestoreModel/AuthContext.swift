/// Who is making a request, as the Firestore emulator decides it from `Authorization`.
///
/// Source: docs/reference/firestore-wire.md §2.2 — `Bearer owner` is admin and bypasses rules; any other bearer is a
/// JWT whose claims become `request.auth` (`uid` from `sub`, else `user_id`; `token` = claims).
public enum AuthContext: Sendable, Hashable {
    /// `Bearer owner` (or in-process Admin clients): bypasses security rules.
    case admin
    /// No `Authorization` header: `request.auth == null`.
    case unauthenticated
    /// A decoded ID token.
    case user(uid: String, token: FieldMap)

    /// True for `.admin`.
    public var isAdmin: Bool { self == .admin }
}
