import FirestoreEngine
import FirestoreModel
import GoogleWire
import HTTPServer
import ProtoWire

/// `google.firestore.v1.Firestore` over gRPC: every RPC the REST adapter serves, on the same
/// engine with the same rules decisions, plus the Listen and Write streams. Protobuf is
/// decoded to the domain model at the door (ProtoWire); errors leave through `ErrorTable`'s
/// codes as `grpc-status`.
/// Source: googleapis `google/firestore/v1/firestore.proto`; reference grpc-and-listen §4, §7–§10.
public struct FirestoreGRPCService: Sendable {
    /// The engine.
    public let engine: FirestoreEngine
    /// Receives one line per finished call (`"/google.firestore.v1.Firestore/Commit" 0 1.2ms`).
    let log: @Sendable (String) -> Void

    /// Creates the service.
    public init(engine: FirestoreEngine, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.engine = engine
        self.log = log
    }

    static let prefix = "/google.firestore.v1.Firestore/"

    /// Serves one gRPC call on `stream` and ends it with a status.
    public func serve(_ stream: HTTP2Stream) async {
        let started = ContinuousClock.now
        var status: FirestoreError?
        do throws(FirestoreError) {
            let call = try GRPCCall(stream: stream)
            status = await run(call)
            await call.finish(status)
        } catch {
            status = error
            // Headers are not sent yet: a Trailers-Only response.
            var headers = HTTPHeaders()
            headers.add("content-type", "application/grpc")
            headers.add("grpc-status", String(error.code.rawValue))
            headers.add("grpc-message", GRPCCall.percentEncode(error.message))
            try? await stream.sendHeaders(status: 200, headers, endStream: true)
        }
        let elapsed = (ContinuousClock.now - started).components
        let ms = Double(elapsed.seconds) * 1000 + Double(elapsed.attoseconds) / 1e15
        log("\(stream.remoteAddress) \"\(stream.path)\" \(status?.code.name ?? "OK") \(String(format: "%.1f", ms))ms")
    }

    /// Runs the method; returns the status to end with (nil = OK).
    func run(_ call: GRPCCall) async -> FirestoreError? {
        let stream = call.stream
        guard stream.method == "POST", stream.path.hasPrefix(Self.prefix) else {
            return FirestoreError(.unimplemented, "Unknown gRPC method \(stream.path).")
        }
        let method = String(stream.path.dropFirst(Self.prefix.count))
        do throws(FirestoreError) {
            let auth = try BearerToken.authContext(fromHeader: stream.headers["authorization"])
            if let deadline = call.deadline, ContinuousClock.now >= deadline {
                throw FirestoreError(.deadlineExceeded, "Deadline exceeded before the call started.")
            }
            switch method {
            case "Listen":
                try await GRPCListenCall(call: call, engine: engine, auth: auth).run()
                return nil
            case "Write":
                try await GRPCWriteCall(call: call, engine: engine, auth: auth).run()
                return nil
            default:
                let request = try await call.singleRequest()
                let responses = try unary(method, request, auth: auth)
                if let deadline = call.deadline, ContinuousClock.now >= deadline {
                    throw FirestoreError(.deadlineExceeded, "Deadline exceeded.")
                }
                for r in responses { try await call.send(r) }
                return nil
            }
        } catch {
            return error
        }
    }

    /// Unary and server-streaming methods: the serialized response messages, in order.
    func unary(_ method: String, _ bytes: [UInt8], auth: AuthContext) throws(FirestoreError) -> [[UInt8]] {
        typealias P = FirestoreProto
        switch method {
        case "GetDocument":
            let r = try P.GetDocumentRequest(serializedBytes: bytes)
            let doc = try engine.getDocument(r.path, in: r.database, consistency: Self.consistency(r.consistency), auth: auth)
            return [P.serializedDocument(doc.value.masked(r.mask), database: r.database)]
        case "ListDocuments":
            let r = try P.ListDocumentsRequest(serializedBytes: bytes)
            let page = try DocumentListing.page(
                engine: engine, database: r.database, collection: r.collection, pageSize: Int(r.pageSize),
                pageToken: r.pageToken, orderBy: r.orderBy, showMissing: r.showMissing,
                consistency: Self.consistency(r.consistency), auth: auth)
            let items = page.items.map { item -> P.ListDocumentsResponse.Item in
                switch item {
                case .document(let d): return .document(d.masked(r.mask))
                case .missing(let p): return .missing(p)
                }
            }
            return [P.ListDocumentsResponse(documents: items, nextPageToken: page.nextPageToken ?? "").serializedBytes(database: r.database)]
        case "CreateDocument":
            let r = try P.CreateDocumentRequest(serializedBytes: bytes)
            let id = r.documentID.isEmpty ? AutoID.make() : r.documentID
            let path = r.parent.appending(r.collectionID).appending(id)
            try path.validateIDs()
            let write = Write(operation: .update(path: path, fields: r.fields), currentDocument: .exists(false))
            let response = try engine.commit([write], in: r.database, auth: auth)
            guard let doc = response.documents[0] else { throw .internalError("Created document vanished.") }
            return [P.serializedDocument(doc.masked(r.mask), database: r.database)]
        case "UpdateDocument":
            let r = try P.UpdateDocumentRequest(serializedBytes: bytes)
            let response = try engine.commit([r.write], in: r.database, auth: auth)
            guard let doc = response.documents[0] else { throw .internalError("Updated document vanished.") }
            return [P.serializedDocument(doc.masked(r.mask), database: r.database)]
        case "DeleteDocument":
            let r = try P.DeleteDocumentRequest(serializedBytes: bytes)
            _ = try engine.commit([r.write], in: r.database, auth: auth)
            return [P.serializedEmpty]
        case "BatchGetDocuments":
            let r = try P.BatchGetDocumentsRequest(serializedBytes: bytes)
            let result = try engine.batchGet(r.paths, in: r.database, consistency: Self.consistency(r.consistency), auth: auth)
            var out: [[UInt8]] = []
            if let t = result.transaction {
                out.append(P.BatchGetDocumentsResponse(result: nil, transaction: t, readTime: nil).serializedBytes(database: r.database))
            }
            for item in result.value {
                let res: P.BatchGetDocumentsResponse.Result
                switch item {
                case .found(let d): res = .found(d.masked(r.mask))
                case .missing(let p): res = .missing(p)
                }
                out.append(P.BatchGetDocumentsResponse(result: res, readTime: result.readTime).serializedBytes(database: r.database))
            }
            return out
        case "BeginTransaction":
            let r = try P.BeginTransactionRequest(serializedBytes: bytes)
            let id = try engine.beginTransaction(in: r.database, mode: Self.mode(r.options))
            return [P.BeginTransactionResponse(transaction: id).serializedBytes()]
        case "Commit":
            let r = try P.CommitRequest(serializedBytes: bytes)
            let response = try engine.commit(r.writes, in: r.database, transaction: r.transaction, auth: auth)
            return [P.CommitResponse(writeResults: response.writeResults, commitTime: response.commitTime).serializedBytes()]
        case "Rollback":
            let r = try P.RollbackRequest(serializedBytes: bytes)
            try engine.rollback(r.transaction, in: r.database)
            return [P.serializedEmpty]
        case "RunQuery":
            let r = try P.RunQueryRequest(serializedBytes: bytes)
            let result = try engine.runQuery(r.target, in: r.database, consistency: Self.consistency(r.consistency), auth: auth)
            var out: [[UInt8]] = []
            if let t = result.transaction {
                out.append(P.RunQueryResponse(document: nil, transaction: t, readTime: result.readTime).serializedBytes(database: r.database))
            }
            let docs = result.value.documents
            let select = r.target.query.select
            for (i, d) in docs.enumerated() {
                out.append(
                    P.RunQueryResponse(
                        document: d.masked(select), readTime: result.readTime,
                        skippedResults: i == 0 ? Int32(clamping: result.value.skipped) : 0, done: i == docs.count - 1
                    ).serializedBytes(database: r.database))
            }
            if docs.isEmpty {
                out.append(
                    P.RunQueryResponse(
                        document: nil, readTime: result.readTime, skippedResults: Int32(clamping: result.value.skipped), done: true
                    ).serializedBytes(database: r.database))
            }
            return out
        case "RunAggregationQuery":
            let r = try P.RunAggregationQueryRequest(serializedBytes: bytes)
            let result = try engine.runAggregation(
                r.target, aggregations: r.aggregations, in: r.database, consistency: Self.consistency(r.consistency), auth: auth)
            return [P.RunAggregationQueryResponse(aggregateFields: result.value, transaction: result.transaction, readTime: result.readTime).serializedBytes()]
        case "PartitionQuery":
            let r = try P.PartitionQueryRequest(serializedBytes: bytes)
            try engine.checkReadTime(r.readTime, in: r.database)
            return [P.PartitionQueryResponse().serializedBytes()]
        case "ListCollectionIds":
            let r = try P.ListCollectionIdsRequest(serializedBytes: bytes)
            var ids = try engine.listCollectionIDs(under: r.parent, in: r.database, readTime: r.readTime, auth: auth)
            if !r.pageToken.isEmpty { ids = ids.filter { utf8Less(r.pageToken, $0) } }
            var next = ""
            if r.pageSize > 0, ids.count > Int(r.pageSize) {
                ids.removeLast(ids.count - Int(r.pageSize))
                next = ids.last ?? ""
            }
            return [P.ListCollectionIdsResponse(collectionIDs: ids, nextPageToken: next).serializedBytes()]
        case "BatchWrite":
            let r = try P.BatchWriteRequest(serializedBytes: bytes)
            let results = try engine.batchWrite(r.writes, in: r.database, auth: auth)
            return [P.BatchWriteResponse(results: results).serializedBytes()]
        default:
            throw FirestoreError(.unimplemented, "Method google.firestore.v1.Firestore/\(method) is not implemented.")
        }
    }

    static func consistency(_ c: FirestoreProto.ConsistencySelector) -> ReadConsistency {
        switch c {
        case .strong: return .strong
        case .transaction(let t): return .transaction(t)
        case .newTransaction(let o): return .newTransaction(mode(o))
        case .readTime(let t): return .readTime(t)
        }
    }

    static func mode(_ o: FirestoreProto.TransactionOptions) -> TransactionMode {
        switch o {
        case .readOnly(let t): return .readOnly(readTime: t)
        case .readWrite(let r): return .readWrite(retrying: r)
        }
    }
}
