import DocumentStore
import FirestoreEngine
import FirestoreModel
import Foundation
import Functions
import GoogleWire
import HTTPServer
import Synchronization

/// A wall clock tests move by hand; starts at 2026-01-01T00:00:00Z.
final class ManualClock: Sendable {
    private let now = Mutex(Timestamp(seconds: 1_767_225_600, nanos: 0))

    /// The closure engines and hosts take.
    var closure: @Sendable () -> Timestamp { { self.read() } }

    func read() -> Timestamp { now.withLock { $0 } }

    func advance(seconds: Int64) { now.withLock { $0 = Timestamp(seconds: $0.seconds + seconds, nanos: $0.nanos) } }
}

/// An engine over a fresh test store, a host on `project`, and the clock they share.
struct Fixture {
    let clock = ManualClock()
    let engine: FirestoreEngine
    let host: FunctionsHost
    let errors = Recorder<String>()

    init(project: String = "demo-test") throws {
        engine = try FirestoreEngine(store: InMemoryDocumentStore(), clock: clock.closure)
        let errors = self.errors
        host = FunctionsHost(project: project, engine: engine, clock: clock.closure) { name, error in
            errors.append("\(name): \(error)")
        }
    }

    var handler: FunctionsPortHandler { FunctionsPortHandler(host: host) }
}

/// An unsigned JWT (`alg: none`) carrying `claims`, as the Auth emulator issues.
func unsignedJWT(_ claims: [String: Any]) throws -> String {
    let header = try JSONSerialization.data(withJSONObject: ["alg": "none", "typ": "JWT"])
    let payload = try JSONSerialization.data(withJSONObject: claims)
    return BearerToken.base64URLEncode(header) + "." + BearerToken.base64URLEncode(payload) + "."
}

/// A POST to a callable with a raw body and optional bearer token.
func callableRequest(
    _ path: String, body: String, token: String? = nil, extraHeaders: [(String, String)] = []
) -> HTTPRequest {
    var headers = HTTPHeaders([("content-type", "application/json")] + extraHeaders)
    if let token { headers.add("authorization", "Bearer \(token)") }
    return HTTPRequest(method: "POST", target: path, headers: headers, body: Array(body.utf8))
}

/// The response body parsed as a JSON object.
func jsonObject(_ response: HTTPResponse) throws -> [String: Any] {
    let object = try JSONSerialization.jsonObject(with: Data(response.body))
    guard let dict = object as? [String: Any] else { throw TestFailure("body is not a JSON object: \(text(response))") }
    return dict
}

/// The response body as text.
func text(_ response: HTTPResponse) -> String { String(decoding: response.body, as: UTF8.self) }

/// `error.status` of a callable error body, or nil.
func errorStatus(_ response: HTTPResponse) -> String? {
    ((try? jsonObject(response))?["error"] as? [String: Any])?["status"] as? String
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

/// A thread-safe list tests append to from handlers.
final class Recorder<T: Sendable>: Sendable {
    private let items = Mutex<[T]>([])
    func append(_ item: T) { items.withLock { $0.append(item) } }
    var values: [T] { items.withLock { $0 } }
    var last: T? { values.last }
    var isEmpty: Bool { values.isEmpty }
}
