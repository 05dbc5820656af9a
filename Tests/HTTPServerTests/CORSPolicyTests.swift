import Testing

@testable import HTTPServer

/// `CORSPolicy`: the one CORS implementation of the Firestore, Auth, Functions and hub ports.
@Suite struct CORSPolicyTests {
    static let sdkHeaders =
        "google-cloud-resource-prefix, x-goog-request-params, x-goog-api-client, authorization, content-type, "
        + "x-firebase-gmpid"

    static func request(_ method: String, _ headers: HTTPHeaders) -> HTTPRequest {
        HTTPRequest(method: method, target: "/v1/projects/p/databases/(default)/documents:commit", headers: headers)
    }

    @Test func anAnswerWithAnOriginEchoesItWithCredentialsAndMethods() {
        var response = HTTPResponse.json(404, Array("{}".utf8))
        CORSPolicy.firestore.apply(to: &response, for: Self.request("GET", ["Origin": "http://localhost:5173"]))
        #expect(response.headers["access-control-allow-origin"] == "http://localhost:5173")
        #expect(response.headers["access-control-allow-credentials"] == "true")
        #expect(response.headers["access-control-allow-methods"] == "DELETE,GET,HEAD,PATCH,POST,PUT")
        #expect(response.headers["vary"] == nil)
        #expect(response.status == 404)
    }

    @Test func aPreflightEchoesTheRequestedHeaders() {
        let firestore = CORSPolicy.firestore.preflight(
            Self.request(
                "OPTIONS",
                [
                    "Origin": "http://localhost:5173", "Access-Control-Request-Method": "POST",
                    "Access-Control-Request-Headers": Self.sdkHeaders,
                ]))
        #expect(firestore.status == 200)
        #expect(firestore.body.isEmpty)
        #expect(firestore.headers["access-control-allow-headers"] == Self.sdkHeaders)
        #expect(firestore.headers["access-control-allow-origin"] == "http://localhost:5173")
        #expect(firestore.headers["access-control-allow-credentials"] == "true")
        #expect(firestore.headers["access-control-max-age"] == nil)
        let node = CORSPolicy.auth.preflight(
            Self.request("OPTIONS", ["Origin": "http://a.test", "Access-Control-Request-Headers": "content-type"]))
        #expect(node.status == 204)
        #expect(node.headers["access-control-allow-methods"] == "GET,HEAD,PUT,PATCH,POST,DELETE")
        #expect(node.headers["access-control-allow-headers"] == "content-type")
        #expect(node.headers["vary"] == "Origin, Access-Control-Request-Headers")
    }

    @Test func withoutAnOriginOnlyTheFallbackIsSent() {
        var firestore = HTTPResponse.text(200, "Ok\n")
        CORSPolicy.firestore.apply(to: &firestore, for: Self.request("GET", [:]))
        #expect(firestore.headers["access-control-allow-origin"] == "*")
        #expect(firestore.headers["access-control-allow-credentials"] == nil)
        var functions = HTTPResponse.text(200, "Ok\n")
        CORSPolicy.functions.apply(to: &functions, for: Self.request("GET", [:]))
        #expect(!functions.headers.contains("access-control-allow-origin"))
    }

    @Test func aHandlersOwnCORSHeadersAreReplacedNotRepeated() {
        var response = HTTPResponse(status: 200, headers: ["access-control-allow-origin": "*"])
        CORSPolicy.auth.apply(to: &response, for: Self.request("POST", ["Origin": "http://a.test"]))
        #expect(response.headers.values("access-control-allow-origin") == ["http://a.test"])
        #expect(response.headers["vary"] == "Origin")
    }
}
