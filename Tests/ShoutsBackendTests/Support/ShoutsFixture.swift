import DocumentStore
import FirestoreEngine
import FirestoreModel
import Foundation
import Functions
import GoogleWire
import HTTPServer
import Synchronization

@testable import ShoutsBackend

/// A wall clock tests move by hand; starts at 2026-01-01T00:00:00Z.
final class ManualClock: Sendable {
    private let now = Mutex(Timestamp(seconds: 1_767_225_600, nanos: 0))
    var closure: @Sendable () -> Timestamp { { self.read() } }
    func read() -> Timestamp { now.withLock { $0 } }
    func advance(seconds: Int64) { now.withLock { $0 = Timestamp(seconds: $0.seconds + seconds, nanos: $0.nanos) } }
    /// `now − seconds`.
    func ago(seconds: Int64) -> Timestamp {
        let t = read()
        return Timestamp(seconds: t.seconds - seconds, nanos: t.nanos)
    }
}

/// A thread-safe list handlers and observers append to.
final class Recorder<T: Sendable>: Sendable {
    private let items = Mutex<[T]>([])
    func append(_ item: T) { items.withLock { $0.append(item) } }
    var values: [T] { items.withLock { $0 } }
}

/// Shouts & Whispers registered on a host over a test engine, with helpers to seed presence
/// and call `sendMessage` through the public callable HTTP handler.
struct ShoutsFixture {
    static let project = "demo-shouts"
    let clock = ManualClock()
    let engine: FirestoreEngine
    let host: FunctionsHost
    let handler: FunctionsPortHandler
    let errors = Recorder<String>()
    /// Number of document changes of every commit, in commit order.
    let commitSizes = Recorder<Int>()
    /// Centre used by most tests: San Francisco.
    let center = (lat: 37.7749, lng: -122.4194)

    /// A fixture over `store` (the in-memory store by default).
    init(store: any DocumentStore = InMemoryDocumentStore()) throws {
        engine = try FirestoreEngine(store: store, clock: clock.closure)
        let errors = self.errors
        host = FunctionsHost(project: Self.project, engine: engine, clock: clock.closure) { name, error in
            errors.append("\(name): \(error)")
        }
        ShoutsBackend.register(into: host)
        handler = FunctionsPortHandler(host: host)
        let sizes = commitSizes
        _ = engine.addObserver { sizes.append($0.changes.count) }
    }

    var db: AdminClient { host.admin }

    /// Degrees of latitude per metre on geofire-common's sphere.
    static let degreesPerMeter = 180 / (Double.pi * 6_371_000)

    /// Writes `presence/{uid}` as the client does, `meters` north of the centre.
    func seedPresence(
        _ uid: String, metersNorth meters: Double, updatedAt: Timestamp? = nil, token: String? = nil,
        lat: Double? = nil, lng: Double? = nil
    ) throws {
        let location = try GeoLocation(
            latitude: lat ?? center.lat + meters * Self.degreesPerMeter, longitude: lng ?? center.lng)
        var fields: [String: FieldValue] = [
            "lat": .double(location.latitude), "lng": .double(location.longitude),
            "geohash": .string(Geohash.forLocation(location, precision: 9)),
            "updatedAt": .timestamp(updatedAt ?? clock.read()),
        ]
        if let token { fields["fcmToken"] = .string(token) }
        try db.collection("presence").document(uid).set(fields, merge: true)
    }

    /// An ID token for `uid` with optional `name`/`picture`.
    func token(_ uid: String, name: String? = "Ann", picture: String? = nil) throws -> String {
        var claims: [String: Any] = ["sub": uid, "user_id": uid, "iat": 0, "exp": 3600]
        if let name { claims["name"] = name }
        if let picture { claims["picture"] = picture }
        let header = try JSONSerialization.data(withJSONObject: ["alg": "none", "typ": "JWT"])
        let payload = try JSONSerialization.data(withJSONObject: claims)
        return BearerToken.base64URLEncode(header) + "." + BearerToken.base64URLEncode(payload) + "."
    }

    /// POSTs `body` to `sendMessage`.
    func post(_ body: String, token: String?) async -> HTTPResponse {
        var headers: HTTPHeaders = ["content-type": "application/json"]
        if let token { headers.add("authorization", "Bearer \(token)") }
        return await handler.handle(HTTPRequest(
            method: "POST", target: "/\(Self.project)/us-central1/sendMessage", headers: headers, body: Array(body.utf8)))
    }

    /// Sends from `uid` at the centre (or `lat`/`lng`).
    func send(
        from uid: String, text: String = "hello", kind: String = "whisper", lat: Double? = nil, lng: Double? = nil,
        idempotencyKey: String? = nil, name: String? = "Ann", picture: String? = nil
    ) async throws -> HTTPResponse {
        var data: [String: Any] = ["text": text, "kind": kind, "lat": lat ?? center.lat, "lng": lng ?? center.lng]
        if let idempotencyKey { data["idempotencyKey"] = idempotencyKey }
        let body = String(decoding: try JSONSerialization.data(withJSONObject: ["data": data]), as: UTF8.self)
        return await post(body, token: try token(uid, name: name, picture: picture))
    }

    /// The documents of `users/{uid}/feed`.
    func feed(_ uid: String) throws -> [DocumentSnapshot] {
        try db.collection("users").document(uid).collection("feed").get().documents
    }

    /// Uids holding a feed copy of `messageID`.
    func holders(of messageID: String) throws -> Set<String> {
        Set(try db.collectionGroup("feed").get().documents.filter { $0.documentID == messageID }
            .map { $0.reference.path.segments[1] })
    }
}

/// The response body as a JSON object.
func json(_ response: HTTPResponse) throws -> [String: Any] {
    guard let o = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any] else {
        throw ShoutsTestFailure("not a JSON object: \(String(decoding: response.body, as: UTF8.self))")
    }
    return o
}

/// `result` of a successful call.
func result(_ response: HTTPResponse) throws -> (messageId: String, recipientCount: Int) {
    guard response.status == 200, let r = try json(response)["result"] as? [String: Any],
        let id = r["messageId"] as? String, let count = r["recipientCount"] as? Int
    else { throw ShoutsTestFailure("not a success: \(response.status) \(String(decoding: response.body, as: UTF8.self))") }
    return (id, count)
}

/// `error.status` of a failed call.
func errorStatus(_ response: HTTPResponse) -> String? {
    ((try? json(response))?["error"] as? [String: Any])?["status"] as? String
}

struct ShoutsTestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}
