import FirestoreEngine
import FirestoreModel
import FirestoreRPC
import FoundationEssentials
import GoogleWire
import HTTPServer

/// Firestore REST v1 over HTTP/1.1: finds the method in `FirestoreMethod`'s table from the
/// HTTP method and `RESTRoute`, decodes the URL, query string and proto3 JSON body into the
/// domain's `FirestoreRequest` (`RESTRequestDecoder`), runs it on the `FirestoreExecutor` gRPC
/// shares, and encodes the `FirestoreResponse` as JSON (`RESTCodec.encodeResponse`). Every
/// error leaves through `ErrorTable` as `{error:{code,message,status}}`.
///
/// Source: docs/reference/firestore-wire.md §1.2 (method table), §1.3 (per-method details), §1.8 (errors).
public struct FirestoreRESTService: Sendable {
    /// Runs every request.
    public let executor: FirestoreExecutor

    /// Creates the service; `queryLog` receives each query's `EXPLAIN` line (nil: none).
    public init(engine: FirestoreEngine, queryLog: (@Sendable (String) -> Void)? = nil) {
        self.executor = FirestoreExecutor(engine: engine, queryLog: queryLog)
    }

    /// Answers one request whose path starts with `/v1/` or `/v1beta1/`.
    ///
    /// A body over 10 MiB is refused before it is parsed (`DocumentLimits.checkRequestSize`,
    /// 400 INVALID_ARGUMENT), as production refuses API requests over its 10 MiB limit.
    public func handle(_ request: HTTPRequest) async -> HTTPResponse {
        do throws(FirestoreError) {
            guard let d = try decode(request) else {
                throw FirestoreError(.notFound, "No Firestore method at \(request.method) \(request.path).")
            }
            if case .runQuery(let query) = d.request, FirestoreExecutor.streams(query) {
                return .json(200, try await runQueryInPages(query, auth: d.auth))
            }
            let response = try await executor.perform(d.request, auth: d.auth)
            return .json(200, RESTCodec.serializeResponse(response, database: d.route.database))
        } catch {
            return Self.errorResponse(error)
        }
    }

    /// A request as `handle` and its two shortcuts read it.
    private struct Decoded {
        var route: RESTRoute
        var auth: AuthContext
        var request: FirestoreRequest
    }

    /// The route, the caller and the decoded request of `request`; nil when no Firestore method
    /// is at its path or `accepts` turns its method down (then the body is not decoded).
    /// - Throws: `.invalidArgument` for a body over 10 MiB or one the method cannot decode, the
    ///   route's and the authorization header's errors, `method(_:_:)`'s.
    private func decode(_ request: HTTPRequest, accepts: (FirestoreMethod) -> Bool = { _ in true }) throws(FirestoreError)
        -> Decoded?
    {
        try DocumentLimits.checkRequestSize(request.body.count)
        guard let route = try RESTRoute.parse(request.path, method: request.method) else { return nil }
        let auth = try BearerToken.authContext(fromHeader: request.headers["authorization"])
        let method = try Self.method(route, request)
        guard accepts(method) else { return nil }
        let decoded = try RESTRequestDecoder(route: route, query: QueryParameters(request.queryItems), body: request.body)
            .decode(method)
        return Decoded(route: route, auth: auth, request: decoded)
    }

    /// RunQuery's JSON array written page by page (`FirestoreExecutor.streamQuery`): the scan
    /// gives the reader threads back between pages, and only one page's documents are held
    /// while the answer's text grows (the HTTP/1.1 answer itself is sent whole).
    /// - Throws: as `FirestoreExecutor.streamQuery`.
    func runQueryInPages(_ query: RunQueryRequest, auth: AuthContext) async throws(FirestoreError) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "[")]
        var first = true
        try await executor.streamQuery(query, auth: auth) { (messages) throws(FirestoreError) in
            if first { out.reserveCapacity(64 + messages.count * 768) }
            RESTCodec.appendRunQueryElements(messages, database: query.database, into: &out, first: first)
            first = false
        }
        out.append(UInt8(ascii: "]"))
        return out
    }

    /// `handle`'s answer when `request` is a GetDocument of the latest state (nil for anything
    /// else): one point read, so it is answered on the caller's thread (`HTTPHandler.handleInline`).
    public func handleInline(_ request: HTTPRequest) -> HTTPResponse? {
        guard request.method == "GET" else { return nil }
        do throws(FirestoreError) {
            // A read in a transaction may wait for the transaction registry, which a query in a
            // read-only transaction holds while it scans: not on the event loop.
            guard let d = try decode(request, accepts: { $0 == .getDocument }),
                case .getDocument(let get) = d.request, case .strong = get.consistency
            else { return nil }
            let response = try executor.execute(d.request, auth: d.auth)
            return .json(200, RESTCodec.serializeResponse(response, database: d.route.database))
        } catch {
            return Self.errorResponse(error)
        }
    }

    /// Takes a Commit, CreateDocument, UpdateDocument or DeleteDocument and answers it through
    /// `respond` from the writer's thread once its group is durable (`HTTPHandler.handleDeferred`):
    /// the request reaches the group commit with no task hand-off. Anything else, and any request
    /// that fails before it reaches the commit, is left to `handle` (false), which answers it
    /// the same way it always has.
    public func handleDeferred(_ request: HTTPRequest, respond: @escaping @Sendable (HTTPResponse) -> Void) -> Bool {
        guard request.method == "POST" || request.method == "PATCH" || request.method == "DELETE" else { return false }
        let writes: (FirestoreMethod) -> Bool = { [.commit, .createDocument, .updateDocument, .deleteDocument].contains($0) }
        guard let d = try? decode(request, accepts: writes), let plan = try? CommitPlan(d.request) else { return false }
        let database = d.route.database
        executor.engine.groupCommit(plan.writes, in: plan.database, transaction: plan.transaction, auth: d.auth) { result in
            do throws(FirestoreError) {
                let response = try plan.respond(try result.get())
                respond(.json(200, RESTCodec.serializeResponse(response, database: database)))
            } catch {
                respond(Self.errorResponse(error))
            }
        }
        return true
    }

    /// The Firestore JSON error response for `error`.
    public static func errorResponse(_ error: FirestoreError) -> HTTPResponse {
        let status = ErrorTable.httpStatus(error.code)
        return .json(status, RESTCodec.encodeError(error, httpStatus: status).serialized())
    }

    /// The method `request` reaches on `route`, from `FirestoreMethod`'s REST bindings.
    /// - Throws: the emulator's answers where no binding fits: `.invalidArgument` for a
    ///   create under a document or a PATCH/DELETE of a collection, `.unimplemented` for the
    ///   Listen and Write streams (gRPC only on this port), `.notFound` otherwise.
    static func method(_ route: RESTRoute, _ request: HTTPRequest) throws(FirestoreError) -> FirestoreMethod {
        let resource = HTTPBinding.Resource(segmentCount: route.path.segments.count)
        if let method = FirestoreMethod.rest(httpMethod: request.method, resource: resource, verb: route.verb),
            method.streaming != .bidirectional
        {
            return method
        }
        let db = route.database
        switch (request.method, route.verb) {
        case ("POST", nil) where route.path.isDocument:
            // CreateDocument into collection `lastSegment` of `parent`, which is a collection
            // here (e.g. `POST …/c/a:unknownVerb`): INVALID_ARGUMENT, as the emulator answers.
            throw FirestoreError(
                .invalidArgument, "Document parent name \"\(db.resourceName(route.path.parent))\" is not a document.")
        case ("PATCH", nil), ("DELETE", nil):
            throw FirestoreError(
                .invalidArgument, "Document name \"\(db.resourceName(route.path))\" has odd number of segments.")
        case ("POST", "listen"), ("POST", "write"):
            throw FirestoreError(
                .unimplemented, "The \(route.verb ?? "") stream is served over gRPC (HTTP/2) on this port, not REST.")
        case (_, let verb?):
            throw FirestoreError(.notFound, "No Firestore method \(request.method) :\(verb) on \(request.path).")
        default:
            throw FirestoreError(.notFound, "No Firestore method \(request.method) on \(request.path).")
        }
    }
}
