import FirestoreModel
import HTTPServer
import Testing

@testable import Functions

@Suite("CallableHTTPHandler: the callable protocol over HTTP (docs/reference/firestore-wire.md §3)")
struct CallableHTTPHandlerTests {
    let fixture: Fixture
    let seen = Recorder<CallableRequest>()

    init() throws {
        fixture = try Fixture()
        let seen = self.seen
        fixture.host.onCall("echo") { request async throws(CallableError) -> CallableValue in
            seen.append(request)
            return ["data": request.data, "uid": request.auth.map { .string($0.uid) } ?? .null]
        }
        fixture.host.onCall("fail", region: "europe-west1") { _ async throws(CallableError) -> CallableValue in
            throw CallableError(.resourceExhausted, "too fast", details: ["retryAfterSeconds": 5])
        }
        fixture.host.onCall("nan") { _ async throws(CallableError) -> CallableValue in .double(.nan) }
    }

    func handle(_ request: HTTPRequest) async -> HTTPResponse { await fixture.handler.handle(request) }

    @Test("a POST with {data} answers 200 {result}")
    func success() async throws {
        let r = await handle(callableRequest("/demo-test/us-central1/echo", body: #"{"data":{"x":[1,"a"]}}"#))
        #expect(r.status == 200)
        #expect(r.headers["content-type"]?.hasPrefix("application/json") == true)
        #expect(text(r) == #"{"result":{"data":{"x":[1,"a"]},"uid":null}}"#)
    }

    @Test("the bearer token becomes auth: uid from sub (else user_id), claims kept, name and picture readable")
    func authFromToken() async throws {
        let token = try unsignedJWT(["sub": "u1", "user_id": "u1", "name": "Ann", "picture": "https://p/a.png", "iat": 0])
        let r = await handle(callableRequest(
            "/demo-test/us-central1/echo", body: #"{"data":null}"#, token: token,
            extraHeaders: [("Firebase-Instance-ID-Token", "iid-1"), ("X-Firebase-AppCheck", "ac-1")]))
        #expect(r.status == 200)
        let request = try #require(seen.last)
        #expect(request.auth?.uid == "u1")
        #expect(request.auth?.name == "Ann")
        #expect(request.auth?.picture == "https://p/a.png")
        #expect(request.auth?.token["iat"] == .integer(0))
        #expect(request.context.instanceIDToken == "iid-1")
        #expect(request.context.appCheckToken == "ac-1")
        #expect(request.context.region == "us-central1")
        let onlyUserID = try unsignedJWT(["user_id": "u2"])
        _ = await handle(callableRequest("/demo-test/us-central1/echo", body: #"{"data":1}"#, token: onlyUserID))
        #expect(seen.last?.auth?.uid == "u2")
    }

    @Test("an undecodable token, or the admin token 'owner', is 401 UNAUTHENTICATED", arguments: ["garbage", "owner", "a.b.c", ""])
    func invalidToken(_ token: String) async {
        let r = await handle(callableRequest("/demo-test/us-central1/echo", body: #"{"data":1}"#, token: token))
        #expect(r.status == 401)
        #expect(text(r) == #"{"error":{"message":"Unauthenticated","status":"UNAUTHENTICATED"}}"#)
        #expect(seen.isEmpty)
    }

    @Test("malformed bodies and non-POST methods are 400 INVALID_ARGUMENT, never 500")
    func badRequests() async {
        for body in ["nope", #"{"data":1,"x":2}"#, "{}", #"{"data":1e400}"#] {
            let r = await handle(callableRequest("/demo-test/us-central1/echo", body: body))
            #expect(r.status == 400, "\(body)")
            #expect(errorStatus(r) == "INVALID_ARGUMENT")
        }
        let get = await handle(HTTPRequest(method: "GET", target: "/demo-test/us-central1/echo"))
        #expect(get.status == 400)
        #expect(errorStatus(get) == "INVALID_ARGUMENT")
        #expect(seen.isEmpty)
    }

    /// Source: https://firebase.google.com/docs/functions/callable-reference — "Required:
    /// Content-Type: application/json" (a charset is allowed); a request "in the wrong format,
    /// such as not being JSON, having invalid fields, or missing the data field" is rejected
    /// with 400 Bad Request and INVALID_ARGUMENT.
    @Test("a Content-Type other than application/json is 400 Bad Request", arguments: [
        nil, "text/plain", "application/x-www-form-urlencoded", "application/jsonx", "text/json", "",
    ] as [String?])
    func wrongContentType(_ contentType: String?) async {
        var headers = HTTPHeaders()
        if let contentType { headers.add("content-type", contentType) }
        let r = await handle(HTTPRequest(
            method: "POST", target: "/demo-test/us-central1/echo", headers: headers, body: Array(#"{"data":2}"#.utf8)))
        #expect(r.status == 400)
        #expect(text(r) == #"{"error":{"message":"Bad Request","status":"INVALID_ARGUMENT"}}"#)
        #expect(seen.isEmpty)
    }

    @Test("application/json in any case, with parameters, is accepted", arguments: [
        "application/json", "application/json; charset=utf-8", "Application/JSON;charset=UTF-8", " application/json ;x=y",
    ])
    func jsonContentType(_ contentType: String) async {
        let r = await handle(HTTPRequest(
            method: "POST", target: "/demo-test/us-central1/echo", headers: ["content-type": contentType],
            body: Array(#"{"data":2}"#.utf8)))
        #expect(r.status == 200)
    }

    @Test("a body that is not JSON, or JSON without data, is exactly the spec's Bad Request body")
    func badRequestBody() async {
        for body in ["", "nope", "[1]", #"{"dat":1}"#, "null", #""data""#] {
            let r = await handle(callableRequest("/demo-test/us-central1/echo", body: body))
            #expect(r.status == 400, "\(body)")
            #expect(text(r) == #"{"error":{"message":"Bad Request","status":"INVALID_ARGUMENT"}}"#, "\(body)")
        }
        #expect(seen.isEmpty)
    }

    @Test("handler errors answer the code table's status with status, message and details")
    func handlerError() async throws {
        let r = await handle(callableRequest("/demo-test/europe-west1/fail", body: #"{"data":null}"#))
        #expect(r.status == 429)
        #expect(text(r) == #"{"error":{"details":{"retryAfterSeconds":5},"message":"too fast","status":"RESOURCE_EXHAUSTED"}}"#)
    }

    @Test("a result that cannot be encoded is 500 INTERNAL with no detail")
    func unencodableResult() async {
        let r = await handle(callableRequest("/demo-test/us-central1/nan", body: #"{"data":null}"#))
        #expect(r.status == 500)
        #expect(text(r) == #"{"error":{"message":"INTERNAL","status":"INTERNAL"}}"#)
    }

    @Test("unknown function or region: 404 plain text naming the valid functions; other project: 404")
    func notFound() async {
        let unknown = await handle(callableRequest("/demo-test/us-central1/nope", body: #"{"data":1}"#))
        #expect(unknown.status == 404)
        #expect(text(unknown)
            == "Function us-central1-nope does not exist, valid functions are: europe-west1-fail, us-central1-echo, us-central1-nan")
        let wrongRegion = await handle(callableRequest("/demo-test/europe-west1/echo", body: #"{"data":1}"#))
        #expect(wrongRegion.status == 404)
        let otherProject = await handle(callableRequest("/other/us-central1/echo", body: #"{"data":1}"#))
        #expect(otherProject.status == 404)
        let short = await handle(callableRequest("/demo-test/us-central1", body: #"{"data":1}"#))
        #expect(short.status == 404)
        let badEscape = await handle(callableRequest("/demo-test/us-central1/%zz", body: #"{"data":1}"#))
        #expect(badEscape.status == 404)
    }

    @Test("percent-encoded segments are decoded before routing")
    func percentDecoding() async {
        let r = await handle(callableRequest("/demo%2Dtest/us-central1/ech%6F", body: #"{"data":1}"#))
        #expect(r.status == 200)
    }

    @Test("OPTIONS preflight: 204 reflecting origin and requested headers")
    func preflight() async {
        let r = await handle(HTTPRequest(
            method: "OPTIONS", target: "/demo-test/us-central1/echo",
            headers: ["origin": "http://localhost:3000", "access-control-request-headers": "authorization,content-type"]))
        #expect(r.status == 204)
        #expect(r.headers["access-control-allow-origin"] == "http://localhost:3000")
        #expect(r.headers["access-control-allow-methods"] == "GET,HEAD,PUT,PATCH,POST,DELETE")
        #expect(r.headers["access-control-allow-headers"] == "authorization,content-type")
        #expect(r.headers["vary"] == "Origin, Access-Control-Request-Headers")
        #expect(r.headers["access-control-allow-credentials"] == "true")
        #expect(r.body.isEmpty)
    }

    @Test("actual responses reflect Origin too")
    func corsOnResponses() async {
        let r = await handle(callableRequest(
            "/demo-test/us-central1/echo", body: #"{"data":1}"#, extraHeaders: [("Origin", "http://app.test")]))
        #expect(r.headers["access-control-allow-origin"] == "http://app.test")
        #expect(r.headers["access-control-allow-credentials"] == "true")
        #expect(r.headers["access-control-allow-methods"] == "GET,HEAD,PUT,PATCH,POST,DELETE")
        #expect(r.headers["vary"] == "Origin")
        let plain = await handle(callableRequest("/demo-test/us-central1/echo", body: #"{"data":1}"#))
        #expect(plain.headers["access-control-allow-origin"] == nil)
    }

    @Test("Accept: text/event-stream gets the outcome as one server-sent event")
    func eventStream() async {
        let ok = await handle(callableRequest(
            "/demo-test/us-central1/echo", body: #"{"data":7}"#, extraHeaders: [("accept", "text/event-stream")]))
        #expect(ok.status == 200)
        #expect(ok.headers["content-type"] == "text/event-stream")
        #expect(text(ok) == "data: {\"result\":{\"data\":7,\"uid\":null}}\n\n")
        let failed = await handle(callableRequest(
            "/demo-test/europe-west1/fail", body: #"{"data":7}"#, extraHeaders: [("accept", "text/event-stream")]))
        #expect(failed.status == 200)
        #expect(text(failed).hasPrefix("data: {\"error\":"))
    }

    @Test("GET / on the functions port answers Ok")
    func readiness() async {
        let r = await handle(HTTPRequest(method: "GET", target: "/"))
        #expect(r.status == 200)
        #expect(text(r) == "Ok")
    }
}
