import FirestoreModel
import FirestoreRPC
import GoogleWire

/// Decodes one Firestore REST v1 call — its `RESTRoute`, query string and proto3 JSON body —
/// into the domain's `FirestoreRequest`. Decoding only: what a request means is
/// `FirestoreExecutor`'s, so gRPC's decoder and this one produce the same request.
/// Source: googleapis `google/firestore/v1/firestore.proto` HTTP bindings;
/// docs/reference/firestore-wire.md §1.3 (per-method details).
struct RESTRequestDecoder {
    /// The parsed URL.
    let route: RESTRoute
    /// The query string.
    let query: QueryParameters
    /// The raw body (parsed only by the methods that take one).
    let bodyBytes: [UInt8]

    init(route: RESTRoute, query: QueryParameters, body: [UInt8]) {
        self.route = route
        self.query = query
        self.bodyBytes = body
    }

    /// The request of `method`.
    /// - Throws: `.invalidArgument` naming the field for a malformed URL parameter or body;
    ///   `.unimplemented` for the Listen and Write streams.
    func decode(_ method: FirestoreMethod) throws(FirestoreError) -> FirestoreRequest {
        switch method {
        case .getDocument: return .getDocument(try getDocument())
        case .listDocuments: return .listDocuments(try listDocuments())
        case .createDocument: return .createDocument(try createDocument())
        case .updateDocument: return .updateDocument(try updateDocument())
        case .deleteDocument: return .deleteDocument(try deleteDocument())
        case .batchGetDocuments: return .batchGetDocuments(try batchGetDocuments())
        case .beginTransaction: return .beginTransaction(try beginTransaction())
        case .commit: return .commit(try commit())
        case .rollback: return .rollback(try rollback())
        case .runQuery: return .runQuery(try runQuery())
        case .runAggregationQuery: return .runAggregationQuery(try runAggregationQuery())
        case .partitionQuery: return .partitionQuery(try partitionQuery())
        case .listCollectionIds: return .listCollectionIds(try listCollectionIds())
        case .batchWrite: return .batchWrite(try batchWrite())
        case .listen, .write:
            throw FirestoreError(.unimplemented, "The \(method.name) stream is served over gRPC (HTTP/2) on this port, not REST.")
        }
    }

    /// The body as JSON; an empty (or all-whitespace) body is `{}`.
    func body() throws(FirestoreError) -> JSONValue {
        if bodyBytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return .object([]) }
        return try JSONValue.parse(bodyBytes)
    }
}
