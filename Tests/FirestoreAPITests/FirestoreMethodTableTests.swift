import FirestoreModel
import FirestoreRPC
import HTTPServer
import ProtoWire
import Testing

@testable import FirestoreAPI
@testable import Hearth

/// The RPC table is the one list every transport derives from, and REST and gRPC decode
/// the same call into the same `FirestoreRequest` (issue 11: one request model).
@Suite struct FirestoreMethodTableTests {
    @Test func grpcPathsRoundTripThroughTheTable() {
        for method in FirestoreMethod.allCases {
            #expect(method.grpcPath == "/google.firestore.v1.Firestore/\(method.name)")
            #expect(FirestoreMethod(grpcPath: method.grpcPath) == method)
        }
        #expect(FirestoreMethod(grpcPath: "/google.firestore.v1.Firestore/Bogus") == nil)
        #expect(FirestoreMethod(grpcPath: "/google.firestore.v1beta1.Firestore/GetDocument") == nil)
        #expect(FirestoreMethod.allCases.count == 16)
    }

    @Test func webChannelPathsExistOnlyForTheBidirectionalStreams() {
        #expect(FirestoreMethod.listen.webChannelPath == "/google.firestore.v1.Firestore/Listen/channel")
        #expect(FirestoreMethod.write.webChannelPath == "/google.firestore.v1.Firestore/Write/channel")
        let others = FirestoreMethod.allCases.filter { $0 != .listen && $0 != .write }
        #expect(others.allSatisfy { $0.webChannelPath == nil })
    }

    @Test func restVerbsAreTheTablesVerbs() {
        #expect(RESTRoute.verbs == [
            "batchGet", "beginTransaction", "commit", "rollback", "runQuery", "runAggregationQuery", "partitionQuery",
            "listCollectionIds", "batchWrite", "listen", "write",
        ])
    }

    @Test(arguments: [
        ("GET", 2, nil, FirestoreMethod.getDocument), ("GET", 4, nil, .getDocument), ("GET", 1, nil, .listDocuments),
        ("GET", 3, nil, .listDocuments), ("POST", 1, nil, .createDocument), ("PATCH", 2, nil, .updateDocument),
        ("DELETE", 2, nil, .deleteDocument), ("POST", 0, "commit", .commit), ("POST", 0, "batchGet", .batchGetDocuments),
        ("POST", 0, "runQuery", .runQuery), ("POST", 2, "runQuery", .runQuery),
        ("POST", 2, "listCollectionIds", .listCollectionIds), ("POST", 0, "listen", .listen),
    ] as [(String, Int, String?, FirestoreMethod)])
    func restBindingsReachTheirMethod(httpMethod: String, segments: Int, verb: String?, method: FirestoreMethod) {
        let resource = HTTPBinding.Resource(segmentCount: segments)
        #expect(FirestoreMethod.rest(httpMethod: httpMethod, resource: resource, verb: verb) == method)
    }

    @Test(arguments: [("POST", 2, nil), ("PATCH", 1, nil), ("POST", 1, "runQuery"), ("POST", 2, "commit"), ("GET", 0, nil)]
        as [(String, Int, String?)])
    func restCallsWithoutABindingReachNothing(httpMethod: String, segments: Int, verb: String?) {
        let resource = HTTPBinding.Resource(segmentCount: segments)
        #expect(FirestoreMethod.rest(httpMethod: httpMethod, resource: resource, verb: verb) == nil)
    }

    /// Decodes a REST call the way `FirestoreRESTService` does.
    func restRequest(_ method: String, _ target: String, body: String = "") throws -> FirestoreRequest {
        let request = HTTPRequest(method: method, target: target, body: Array(body.utf8))
        let route = try #require(try RESTRoute.parse(request.path, method: method))
        let rpc = try FirestoreRESTService.method(route, request)
        return try RESTRequestDecoder(route: route, query: QueryParameters(request.queryItems), body: request.body).decode(rpc)
    }

    let root = "projects/p/databases/(default)/documents"

    @Test func getDocumentDecodesAlikeFromRESTAndGRPC() throws {
        let rest = try restRequest("GET", "/v1/\(root)/rooms/r1?mask.fieldPaths=title&readTime=2026-01-02T03:04:05.000006Z")
        var w = ProtoWriter()
        w.writeStringField(1, "\(root)/rooms/r1")
        w.writeMessageField(2) { $0.writeStringField(1, "title") }
        w.writeMessageField(5) { t in
            t.writeInt64Field(1, 1_767_323_045)
            t.writeInt32Field(2, 6_000)
        }
        let grpc = try FirestoreProto.request(.getDocument, from: w.bytes)
        #expect(rest == grpc)
        guard case .getDocument(let r) = rest else {
            Issue.record("not a GetDocument: \(rest)")
            return
        }
        #expect(r.path == ResourcePath(["rooms", "r1"]))
        #expect(r.mask == [FieldPath(["title"])])
    }

    @Test func runQueryDecodesAlikeFromRESTAndGRPC() throws {
        let rest = try restRequest(
            "POST", "/v1/\(root)/rooms/r1:runQuery",
            body: #"{"structuredQuery":{"from":[{"collectionId":"messages"}],"limit":3},"newTransaction":{"readOnly":{}}}"#)
        var w = ProtoWriter()
        w.writeStringField(1, "\(root)/rooms/r1")
        w.writeMessageField(2) { q in
            q.writeMessageField(2) { $0.writeStringField(2, "messages") }
            q.writeMessageField(5) { $0.writeInt32Field(1, 3) }
        }
        w.writeMessageField(6) { $0.writeMessageField(2) { _ in } }
        let grpc = try FirestoreProto.request(.runQuery, from: w.bytes)
        #expect(rest == grpc)
        guard case .runQuery(let r) = rest else {
            Issue.record("not a RunQuery: \(rest)")
            return
        }
        #expect(r.consistency == .newTransaction(.readOnly(readTime: nil)))
        #expect(r.target.parent == ResourcePath(["rooms", "r1"]))
    }

    @Test func createDocumentDecodesAlikeFromRESTAndGRPC() throws {
        let rest = try restRequest(
            "POST", "/v1/\(root)/rooms?documentId=r9", body: #"{"fields":{"title":{"stringValue":"hi"}}}"#)
        var w = ProtoWriter()
        w.writeStringField(1, root)
        w.writeStringField(2, "rooms")
        w.writeStringField(3, "r9")
        w.writeMessageField(4) { d in
            d.writeMessageField(2) { e in
                e.writeStringField(1, "title")
                e.writeMessageField(2) { $0.writeStringField(17, "hi") }
            }
        }
        #expect(rest == (try FirestoreProto.request(.createDocument, from: w.bytes)))
    }
}

/// Hearth's ports answer transport errors in the Google error shape from GoogleWire's one table.
@Suite struct TransportErrorShapeTests {
    @Test(arguments: [
        (431, "INVALID_ARGUMENT"), (413, "INVALID_ARGUMENT"), (400, "INVALID_ARGUMENT"), (408, "DEADLINE_EXCEEDED"),
        (505, "UNIMPLEMENTED"), (501, "UNIMPLEMENTED"), (500, "INTERNAL"),
    ] as [(Int, String)])
    func transportErrorsUseTheErrorTable(status: Int, name: String) {
        let response = googleTransportError(status, "bad \"x\"")
        #expect(response.status == status)
        #expect(
            String(decoding: response.body, as: UTF8.self)
                == #"{"error":{"code":\#(status),"message":"bad \"x\"","status":"\#(name)"}}"#)
    }
}
