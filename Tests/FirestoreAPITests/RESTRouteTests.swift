import FirestoreModel
import Testing

@testable import FirestoreAPI

/// How a REST path splits into a document path and a custom verb. Production's rule (googleapis
/// `google/api/http.proto`: a verb is the `:LITERAL` at the end of the template) with
/// Firestore's verbs; the emulator's answers for the same paths are in rest_paths.json.
@Suite struct RESTRouteTests {
    let root = "/v1/projects/p/databases/(default)/documents"

    func route(_ method: String, _ tail: String) throws -> RESTRoute? { try RESTRoute.parse(root + tail, method: method) }

    @Test("a colon in an id is part of the id for GET, PATCH and DELETE, even before a verb's name", arguments: [
        ("/c/a:b", ["c", "a:b"]), ("/c/x:runQuery", ["c", "x:runQuery"]), ("/c/a:commit", ["c", "a:commit"]),
        ("/c/a:b:c", ["c", "a:b:c"]), ("/c/a:", ["c", "a:"]), ("/c/a%3Ab", ["c", "a:b"]),
    ])
    func colonsInIDs(_ tail: String, _ segments: [String]) throws {
        for method in ["GET", "PATCH", "DELETE"] {
            let r = try #require(try route(method, tail))
            #expect(r.path == ResourcePath(segments), "\(method) \(tail)")
            #expect(r.verb == nil, "\(method) \(tail)")
        }
    }

    @Test("POST splits a known verb at the last colon; an unknown suffix stays in the id", arguments: [
        ("/c/a:b:listCollectionIds", ["c", "a:b"], "listCollectionIds"),
        ("/c/x:runQuery", ["c", "x"], "runQuery"),
        ("/c/a%3Ab:runAggregationQuery", ["c", "a:b"], "runAggregationQuery"),
        (":commit", [], "commit"), (":batchGet", [], "batchGet"), (":beginTransaction", [], "beginTransaction"),
        (":rollback", [], "rollback"), (":batchWrite", [], "batchWrite"), (":listen", [], "listen"), (":write", [], "write"),
        (":runQuery", [], "runQuery"), ("/c/d:partitionQuery", ["c", "d"], "partitionQuery"),
        ("/c:b", ["c:b"], nil), ("/c/a:unknownVerb", ["c", "a:unknownVerb"], nil), ("/c/a%3ArunQuery", ["c", "a:runQuery"], nil),
        ("/c/a:b/sub", ["c", "a:b", "sub"], nil),
    ] as [(String, [String], String?)])
    func verbs(_ tail: String, _ segments: [String], _ verb: String?) throws {
        let r = try #require(try route("POST", tail))
        #expect(r.path == ResourcePath(segments))
        #expect(r.verb == verb)
    }

    @Test("ids production allows decode one segment at a time", arguments: [
        ("a%20b", "a b"), ("a@b", "a@b"), ("a+b", "a+b"), ("a=b", "a=b"), ("h%C3%A9llo", "héllo"), ("a%25b", "a%b"),
        ("a,b;c", "a,b;c"), ("a(b)~*$&!'", "a(b)~*$&!'"), ("%F0%9F%98%80", "😀"),
    ])
    func characters(_ raw: String, _ id: String) throws {
        let r = try #require(try route("GET", "/c/" + raw))
        #expect(r.path == ResourcePath(["c", id]))
    }

    @Test("%2F, a slash inside one id, is INVALID_ARGUMENT, never a path separator", arguments: ["/c/a%2Fb", "/c/a%2fb", "/c%2Fd/x"])
    func encodedSlash(_ tail: String) {
        for method in ["GET", "PATCH", "DELETE", "POST"] {
            let e = #expect(throws: FirestoreError.self) { try route(method, tail) }
            #expect(e?.code == .invalidArgument)
        }
    }

    @Test("bad escapes are INVALID_ARGUMENT; other prefixes are not Firestore routes")
    func malformed() throws {
        #expect(throws: FirestoreError.self) { try route("GET", "/c/a%zz") }
        #expect(throws: FirestoreError.self) { try route("GET", "/c/%FF") }
        #expect(try RESTRoute.parse("/v2/projects/p/databases/(default)/documents/c/d", method: "GET") == nil)
    }
}
