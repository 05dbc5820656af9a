import FoundationEssentials
import GoogleWire
import ShoutsBackend

/// What the Shouts & Whispers app sends, over Hearth's public ports only (docs/app/shouts-and-whispers.md §5,
/// §6): Google sign-in through the Auth emulator, presence writes through the security
/// rules with the user's ID token, `sendMessage` through the callable endpoint, the feed
/// query; plus the two reads a developer makes: the FCM outbox and presence with the
/// administrator bearer `owner`.
struct DemoAppClient: Sendable {
    /// The HTTP client (host of every emulator).
    let http: DemoHTTPClient
    /// The bound ports.
    let ports: DemoPorts
    /// The project served.
    let project: String

    /// A signed-in user: the account id and the Firebase ID token to send as bearer.
    struct Session: Sendable {
        /// `localId` of the Auth account (the ID token's `sub`).
        var uid: String
        /// The Firebase ID token.
        var idToken: String
    }

    /// Signs `person` in with Google as the Flutter `google_sign_in` + Firebase Auth plugins
    /// do: `POST /identitytoolkit.googleapis.com/v1/accounts:signInWithIdp` with the Google
    /// ID token (here an unsigned JWT carrying `sub`, `email`, `name`, `picture`) in
    /// `postBody`. Source: docs/reference/firestore-wire.md §4.2.
    /// - Throws: `DemoError` when Auth does not run or refuses.
    func signInWithGoogle(_ person: DemoPerson) async throws -> Session {
        guard let port = ports.auth else { throw DemoError("the Auth emulator is not running") }
        let claims = JSONValue.object([
            "iss": .string("https://accounts.google.com"), "aud": .string("demo.apps.googleusercontent.com"),
            "sub": .string("google-\(person.key)"), "email": .string("\(person.key)@example.com"),
            "email_verified": .bool(true), "name": .string(person.name), "picture": .string(person.photoURL),
        ])
        let googleToken =
            BearerToken.base64URLEncode(Data(#"{"alg":"none","typ":"JWT"}"#.utf8)) + "."
            + BearerToken.base64URLEncode(Data(claims.serialized())) + "."
        // Form-encoded: every byte but ASCII letters and digits as %XX (RFC 3986 §2.1).
        let escaped = googleToken.utf8.map { byte -> String in
            let isAlphanumeric = (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            return isAlphanumeric ? String(UnicodeScalar(byte)) : "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
        }.joined()
        let form = "providerId=google.com&id_token=" + escaped
        let reply = try await http.send(
            "POST", port: port, "/identitytoolkit.googleapis.com/v1/accounts:signInWithIdp?key=demo-api-key",
            json: .object([
                "requestUri": .string("http://localhost"), "returnSecureToken": .bool(true), "postBody": .string(form),
            ]))
        guard reply.status == 200, let uid = DemoFields.string(reply.json["localId"]),
            let idToken = DemoFields.string(reply.json["idToken"])
        else { throw DemoError("Google sign-in of \(person.name) failed: HTTP \(reply.status) \(reply.text)") }
        return Session(uid: uid, idToken: idToken)
    }

    /// The presence heartbeat as the app writes it (docs/app/shouts-and-whispers.md §6 LocationService): a merge write
    /// of `{lat, lng, geohash (9 chars)}` with `updatedAt` set to the server time — one REST
    /// `commit` whose write has `updateMask` `[lat, lng, geohash]` and an `updatedAt`
    /// `REQUEST_TIME` transform, which is what the SDKs send for `set(…, merge: true)` with
    /// `FieldValue.serverTimestamp()`.
    /// - Returns: the commit's answer (403 when the rules refuse).
    func heartbeat(_ session: Session, latitude: Double, longitude: Double) async throws -> DemoHTTPClient.Reply {
        let location = try GeoLocation(latitude: latitude, longitude: longitude)
        let geohash = Geohash.forLocation(location, precision: ShoutsConstants.presenceGeohashPrecision)
        let write = JSONValue.object([
            "update": .object([
                "name": .string(documentName("presence/\(session.uid)")),
                "fields": .object([
                    "lat": DemoFields.double(latitude), "lng": DemoFields.double(longitude),
                    "geohash": DemoFields.string(geohash),
                ]),
            ]),
            "updateMask": .object(["fieldPaths": .array([.string("lat"), .string("lng"), .string("geohash")])]),
            "updateTransforms": .array([
                .object(["fieldPath": .string("updatedAt"), "setToServerValue": .string("REQUEST_TIME")])
            ]),
        ])
        return try await commit([write], bearer: session.idToken)
    }

    /// The token save as the app writes it (docs/app/shouts-and-whispers.md §6 PushService): a merge write of
    /// `{fcmToken}` alone (`updateMask` `[fcmToken]`), which leaves `updatedAt` untouched.
    /// - Returns: the commit's answer.
    func saveToken(_ session: Session, token: String) async throws -> DemoHTTPClient.Reply {
        let write = JSONValue.object([
            "update": .object([
                "name": .string(documentName("presence/\(session.uid)")),
                "fields": .object(["fcmToken": DemoFields.string(token)]),
            ]),
            "updateMask": .object(["fieldPaths": .array([.string("fcmToken")])]),
        ])
        return try await commit([write], bearer: session.idToken)
    }

    /// Calls `sendMessage` as the Firebase callable SDKs do: `POST /{project}/us-central1/sendMessage`
    /// with `{"data": {text, kind, lat, lng}}` and the ID token as bearer (docs/app/shouts-and-whispers.md §4).
    /// - Returns: the answer: 200 `{"result": {messageId, recipientCount}}` or an error body.
    func sendMessage(_ session: Session, text: String, kind: MessageKind, latitude: Double, longitude: Double)
        async throws -> DemoHTTPClient.Reply
    {
        guard let port = ports.functions else { throw DemoError("the Functions emulator is not running") }
        let data = JSONValue.object([
            "text": .string(text), "kind": .string(kind.rawValue), "lat": .number(DemoFields.jsonNumber(latitude)),
            "lng": .number(DemoFields.jsonNumber(longitude)),
        ])
        return try await http.send(
            "POST", port: port, "/\(project)/us-central1/\(ShoutsBackend.sendMessageName)",
            json: .object(["data": data]), bearer: session.idToken)
    }

    /// The feed as the app's live stream reads it: `users/{me}/feed` ordered by `sentAt`
    /// descending, with the user's own ID token (a `runQuery` the rules must allow).
    /// - Returns: the feed documents, newest first.
    /// - Throws: `DemoError` when the query is refused.
    func feed(_ session: Session) async throws -> [JSONValue] {
        let query = JSONValue.object([
            "structuredQuery": .object([
                "from": .array([.object(["collectionId": .string("feed")])]),
                "orderBy": .array([
                    .object(["field": .object(["fieldPath": .string("sentAt")]), "direction": .string("DESCENDING")])
                ]),
            ])
        ])
        let reply = try await http.send(
            "POST", port: ports.firestore, documentsPath + "/users/\(session.uid):runQuery", json: query,
            bearer: session.idToken)
        guard reply.status == 200 else {
            throw DemoError("reading the feed of \(session.uid) failed: HTTP \(reply.status) \(reply.text)")
        }
        return DemoFields.array(reply.json).compactMap { $0["document"] }
    }

    /// `presence/{uid}` read with `Bearer owner` (administrator: bypasses the rules, which
    /// let no client read presence); nil when the document does not exist.
    /// - Throws: `DemoError` for any answer but 200 or 404.
    func presenceAsOwner(_ uid: String) async throws -> JSONValue? {
        let reply = try await http.send("GET", port: ports.firestore, documentsPath + "/presence/\(uid)", bearer: "owner")
        if reply.status == 404 { return nil }
        guard reply.status == 200 else { throw DemoError("reading presence/\(uid) failed: HTTP \(reply.status)") }
        return reply.json
    }

    /// `GET /emulator/v1/projects/{p}/fcm/outbox`: every push accepted, oldest first.
    /// - Throws: `DemoError` when the endpoint does not answer 200.
    func outbox() async throws -> [JSONValue] {
        guard let port = ports.functions else { throw DemoError("the Functions emulator is not running") }
        let reply = try await http.send("GET", port: port, "/emulator/v1/projects/\(project)/fcm/outbox")
        guard reply.status == 200 else { throw DemoError("reading the FCM outbox failed: HTTP \(reply.status)") }
        return DemoFields.array(reply.json["messages"])
    }

    /// `POST …/documents:commit` with `writes`.
    func commit(_ writes: [JSONValue], bearer: String) async throws -> DemoHTTPClient.Reply {
        try await http.send(
            "POST", port: ports.firestore, documentsPath + ":commit", json: .object(["writes": .array(writes)]), bearer: bearer)
    }

    /// `/v1/projects/{p}/databases/(default)/documents`.
    var documentsPath: String { "/v1/projects/\(project)/databases/(default)/documents" }

    /// The full resource name of `path`.
    func documentName(_ path: String) -> String { "projects/\(project)/databases/(default)/documents/\(path)" }
}
