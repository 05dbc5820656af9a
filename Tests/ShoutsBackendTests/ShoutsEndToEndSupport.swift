import FirestoreModel
import Foundation
import GoogleWire
import Hearth
import ShoutsBackend
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The app's `firebase/firebase.json` (and beside it `firestore.rules`), found from this file.
let shoutsFirebaseJSON = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("firebase").appendingPathComponent("firebase.json").path

/// A place on Earth, degrees.
struct Spot: Sendable, CustomStringConvertible {
    var lat: Double
    var lng: Double

    init(_ lat: Double, _ lng: Double) {
        self.lat = lat
        self.lng = lng
    }

    /// The point `meters` away along the great circle leaving at `bearing` degrees (0 north,
    /// 90 east), on the 6,371 km sphere of geofire-common's haversine; longitude wrapped.
    func moved(_ bearing: Double, _ meters: Double) -> Spot {
        let lat1 = lat * .pi / 180
        let lng1 = lng * .pi / 180
        let b = bearing * .pi / 180
        let a = meters / 6_371_000
        let lat2 = asin(sin(lat1) * cos(a) + cos(lat1) * sin(a) * cos(b))
        var lng2 = (lng1 + atan2(sin(b) * sin(a) * cos(lat1), cos(a) - sin(lat1) * sin(lat2))) * 180 / .pi
        if lng2 > 180 { lng2 -= 360 }
        if lng2 < -180 { lng2 += 360 }
        return Spot(lat2 * 180 / .pi, lng2)
    }

    /// The 9-character geohash the app stores.
    var geohash: String {
        guard let location = try? GeoLocation(latitude: lat, longitude: lng) else { return "" }
        return Geohash.forLocation(location, precision: 9)
    }

    var description: String { "(\(lat), \(lng))" }
}

/// The World Clock on Alexanderplatz, Berlin.
let alexanderplatz = Spot(52.52133, 13.41348)

/// One HTTP answer.
struct E2EReply: Sendable {
    let status: Int
    let body: [UInt8]
    var json: JSONValue { (try? JSONValue.parse(body)) ?? .null }
    var text: String { String(decoding: body, as: UTF8.self) }
    /// `error.status` of a Firestore or callable error body.
    var errorStatus: String? { json["error"]?["status"]?.e2eString }
    /// `result.messageId` of a `sendMessage` answer.
    var messageID: String? { json["result"]?["messageId"]?.e2eString }
    /// `result.recipientCount` of a `sendMessage` answer.
    var recipientCount: Int? { json["result"]?["recipientCount"]?.e2eNumber.map { Int($0) } }
}

/// Hearth on the app's `firebase/` directory (rules included), in memory, every emulator on an
/// ephemeral port, driven only through Firebase-standard interfaces: Firestore REST with
/// unsigned ID tokens (or `Bearer owner`), the callable endpoint, the emulator endpoints of
/// the functions port.
struct ShoutsWorld: Sendable {
    let project = "demo-shouts"
    /// Where the emulators listen.
    let ports: HearthApp.BoundPorts
    /// The functions port (the app's config runs Functions).
    let functions: Int
    var firestore: Int { ports.firestore }

    var documents: String { "/v1/projects/\(project)/databases/(default)/documents" }
    func name(_ path: String) -> String { "projects/\(project)/databases/(default)/documents/\(path)" }

    /// Sends one request (`Connection: close`, so stopping Hearth does not wait on idle connections).
    func request(_ method: String, port: Int, _ path: String, json: JSONValue? = nil, bearer: String? = nil)
        async throws -> E2EReply
    {
        var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:\(port)\(path)")))
        request.httpMethod = method
        request.setValue("close", forHTTPHeaderField: "Connection")
        if let json {
            request.httpBody = Data(json.serialized())
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        let (data, response) = try await URLSession.shared.data(for: request)
        return E2EReply(status: (response as? HTTPURLResponse)?.statusCode ?? 0, body: Array(data))
    }

    /// An unsigned emulator ID token (`alg: none`) for `uid`, with Google-like `name` and
    /// `picture` claims, as rules-unit-testing and the Auth emulator build them.
    func token(_ uid: String, name: String? = nil, picture: String? = nil) -> String {
        var claims: [JSONValue.Member] = [
            .init("iss", .string("https://securetoken.google.com/\(project)")), .init("aud", .string(project)),
            .init("iat", .integer(0)), .init("exp", .integer(4_000_000_000)), .init("auth_time", .integer(0)),
            .init("sub", .string(uid)), .init("user_id", .string(uid)),
            .init("firebase", .object(["sign_in_provider": .string("google.com"), "identities": .object([])])),
        ]
        if let name { claims.append(.init("name", .string(name))) }
        if let picture { claims.append(.init("picture", .string(picture))) }
        return BearerToken.base64URLEncode(Data(#"{"alg":"none","typ":"JWT"}"#.utf8)) + "."
            + BearerToken.base64URLEncode(Data(JSONValue.object(claims).serialized())) + "."
    }

    /// A REST double value.
    static func double(_ d: Double) -> JSONValue { .object(["doubleValue": .number("\(d)")]) }

    /// A REST string value.
    static func string(_ s: String) -> JSONValue { .object(["stringValue": .string(s)]) }

    /// A REST timestamp value.
    static func timestamp(_ t: Timestamp) -> JSONValue { .object(["timestampValue": .string(t.rfc3339)]) }

    /// `POST …/documents:commit` with `writes`, as `bearer`.
    func commit(_ writes: [JSONValue], bearer: String) async throws -> E2EReply {
        try await request(
            "POST", port: firestore, documents + ":commit", json: .object(["writes": .array(writes)]), bearer: bearer)
    }

    /// A merge write of `fields` (mask: their names) plus server-time transforms on
    /// `serverTimeFields`, to `presence/{uid}`.
    func presenceWrite(_ uid: String, _ fields: [JSONValue.Member], serverTimeFields: [String] = [], mask: [String]? = nil)
        -> JSONValue
    {
        var write: [JSONValue.Member] = [
            .init("update", .object(["name": .string(name("presence/\(uid)")), "fields": .object(fields)])),
            .init("updateMask", .object(["fieldPaths": .array((mask ?? fields.map(\.key)).map(JSONValue.string))])),
        ]
        if !serverTimeFields.isEmpty {
            write.append(
                .init(
                    "updateTransforms",
                    .array(
                        serverTimeFields.map {
                            .object(["fieldPath": .string($0), "setToServerValue": .string("REQUEST_TIME")])
                        })))
        }
        return .object(write)
    }

    /// The app's heartbeat for `uid` at `spot`, through the rules: merge of `{lat, lng,
    /// geohash}` with `updatedAt` = server time (docs/app/shouts-and-whispers.md §5, §6).
    @discardableResult
    func heartbeat(_ uid: String, at spot: Spot) async throws -> E2EReply {
        let reply = try await commit(
            [
                presenceWrite(
                    uid,
                    [
                        .init("lat", Self.double(spot.lat)), .init("lng", Self.double(spot.lng)),
                        .init("geohash", Self.string(spot.geohash)),
                    ], serverTimeFields: ["updatedAt"])
            ], bearer: token(uid))
        #expect(reply.status == 200, "heartbeat of \(uid) at \(spot): \(reply.text)")
        return reply
    }

    /// The app's token save for `uid`, through the rules: merge of `{fcmToken}` alone.
    func saveToken(_ uid: String, _ fcmToken: JSONValue) async throws -> E2EReply {
        try await commit([presenceWrite(uid, [.init("fcmToken", fcmToken)])], bearer: token(uid))
    }

    /// `presence/{uid}` written as administrator (`Bearer owner`, rules bypassed) with an
    /// arbitrary `updatedAt`: how a test makes presence stale or old.
    func ownerPresence(_ uid: String, at spot: Spot?, updatedAt: Timestamp?, fcmToken: String? = nil) async throws {
        var fields: [JSONValue.Member] = []
        if let spot {
            fields += [
                .init("lat", Self.double(spot.lat)), .init("lng", Self.double(spot.lng)),
                .init("geohash", Self.string(spot.geohash)),
            ]
        }
        if let updatedAt { fields.append(.init("updatedAt", Self.timestamp(updatedAt))) }
        if let fcmToken { fields.append(.init("fcmToken", Self.string(fcmToken))) }
        let reply = try await request(
            "PATCH", port: firestore, documents + "/presence/\(uid)", json: .object(["fields": .object(fields)]),
            bearer: "owner")
        #expect(reply.status == 200, "owner write of presence/\(uid): \(reply.text)")
    }

    /// `sendMessage` as `uid` from `spot` over the callable endpoint.
    func send(
        _ uid: String, _ kind: MessageKind, from spot: Spot, text: String = "hello", idempotencyKey: String? = nil,
        name: String? = nil, picture: String? = nil
    ) async throws -> E2EReply {
        var data: [JSONValue.Member] = [
            .init("text", .string(text)), .init("kind", .string(kind.rawValue)), .init("lat", .number("\(spot.lat)")),
            .init("lng", .number("\(spot.lng)")),
        ]
        if let idempotencyKey { data.append(.init("idempotencyKey", .string(idempotencyKey))) }
        return try await request(
            "POST", port: functions, "/\(project)/us-central1/sendMessage", json: .object(["data": .object(data)]),
            bearer: token(uid, name: name, picture: picture))
    }

    /// `sendMessage` expected to succeed.
    /// - Returns: the message id and recipient count.
    func sent(_ uid: String, _ kind: MessageKind, from spot: Spot, idempotencyKey: String? = nil) async throws
        -> (id: String, count: Int)
    {
        let reply = try await send(uid, kind, from: spot, idempotencyKey: idempotencyKey)
        #expect(reply.status == 200, "\(reply.text)")
        return (try #require(reply.messageID), try #require(reply.recipientCount))
    }

    /// The feed query of the app (`users/{uid}/feed` by `sentAt` desc) as `bearer` (default:
    /// the owner of the feed).
    func feedQuery(_ uid: String, as bearer: String? = nil) async throws -> E2EReply {
        let query = JSONValue.object([
            "structuredQuery": .object([
                "from": .array([.object(["collectionId": .string("feed")])]),
                "orderBy": .array([
                    .object(["field": .object(["fieldPath": .string("sentAt")]), "direction": .string("DESCENDING")])
                ]),
            ])
        ])
        return try await request(
            "POST", port: firestore, documents + "/users/\(uid):runQuery", json: query, bearer: bearer ?? token(uid))
    }

    /// `uid`'s feed documents, newest first, read by `uid` through the rules.
    func feed(_ uid: String) async throws -> [JSONValue] {
        let reply = try await feedQuery(uid)
        #expect(reply.status == 200, "\(reply.text)")
        return reply.json.e2eElements.compactMap { $0["document"] }
    }

    /// The message ids in `uid`'s feed.
    func feedIDs(_ uid: String) async throws -> [String] {
        try await feed(uid).compactMap { $0.field("messageId")?.restString }
    }

    /// `uid`'s feed copy of `messageID`, or nil.
    func feedEntry(_ uid: String, _ messageID: String) async throws -> JSONValue? {
        try await feed(uid).first { $0.field("messageId")?.restString == messageID }
    }

    /// `presence/{uid}` read as administrator; nil when missing.
    func presence(_ uid: String) async throws -> JSONValue? {
        let reply = try await request("GET", port: firestore, documents + "/presence/\(uid)", bearer: "owner")
        if reply.status == 404 { return nil }
        #expect(reply.status == 200, "\(reply.text)")
        return reply.json
    }

    /// The FCM outbox, oldest first.
    func outbox() async throws -> [JSONValue] {
        let reply = try await request("GET", port: functions, "/emulator/v1/projects/\(project)/fcm/outbox")
        #expect(reply.status == 200)
        return reply.json["messages"]?.e2eElements ?? []
    }

    /// The tokens of the outbox messages about `messageID`, sorted.
    func pushedTokens(_ messageID: String) async throws -> [String] {
        try await outbox().filter { $0["data"]?["messageId"]?.e2eString == messageID }.compactMap {
            $0["token"]?.e2eString
        }.sorted()
    }
}

/// Runs `body` against a fresh Hearth on the app's `firebase/` directory; stops it afterwards.
func withShouts(_ body: (ShoutsWorld) async throws -> Void) async throws {
    var options = StartOptions()
    options.configPath = shoutsFirebaseJSON
    options.project = "demo-shouts"
    options.inMemory = true
    options.quiet = true
    options.firestorePort = 0
    options.functionsPort = 0
    options.authPort = 0
    options.hubPort = 0
    let app = try HearthApp(options: options)
    let ports = try await app.start()
    do {
        try await body(
            ShoutsWorld(ports: ports, functions: try #require(ports.functions)))
    } catch {
        await app.stop()
        throw error
    }
    await app.stop()
}

/// Now, on the wall clock Hearth uses, shifted by `seconds`.
func wallClock(offsetSeconds seconds: Int64) -> Timestamp {
    let now = Date().timeIntervalSince1970
    return Timestamp(seconds: Int64(now) + seconds, nanos: 0)
}

extension JSONValue {
    /// The string, if this is one.
    var e2eString: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The number, if this is one.
    var e2eNumber: Double? {
        if case .number(let text) = self { return Double(text) }
        return nil
    }

    /// The elements, if this is an array (else empty).
    var e2eElements: [JSONValue] {
        if case .array(let a) = self { return a }
        return []
    }

    /// Field `name` of a REST document.
    func field(_ name: String) -> JSONValue? { self["fields"]?[name] }

    /// `integerValue` (string or number) or `doubleValue` of a REST value.
    var restNumber: Double? {
        if let s = self["integerValue"]?.e2eString { return Double(s) }
        return self["integerValue"]?.e2eNumber ?? self["doubleValue"]?.e2eNumber
    }

    /// `stringValue` of a REST value.
    var restString: String? { self["stringValue"]?.e2eString }

    /// `booleanValue` of a REST value.
    var restBool: Bool? {
        if case .bool(let b)? = self["booleanValue"] { return b }
        return nil
    }
}
