import FirestoreEngine
import FirestoreModel
import FirestoreRPC
import GoogleWire
import HTTPServer
import ProtoWire

/// `google.firestore.v1.Firestore` over gRPC: the method comes from `FirestoreMethod`'s table,
/// the request is decoded by ProtoWire into the domain's `FirestoreRequest`, run by
/// `FirestoreExecutor` (the same executor logic REST runs), and its `FirestoreResponse` encoded back; the Listen and
/// Write streams run on their own calls. Errors leave through `ErrorTable`'s codes as `grpc-status`.
/// Source: googleapis `google/firestore/v1/firestore.proto`; docs/reference/grpc-and-listen.md §4, §7–§10.
public struct FirestoreGRPCService: Sendable {
    /// Runs every unary and server-streaming call.
    public let executor: FirestoreExecutor
    /// Receives one line per finished call (`"/google.firestore.v1.Firestore/Commit" 0 1.2ms`).
    let log: @Sendable (String) -> Void

    /// Creates the service; `queryLog` receives each query's `EXPLAIN` line (nil: none).
    public init(
        engine: FirestoreEngine, log: @escaping @Sendable (String) -> Void = { _ in },
        queryLog: (@Sendable (String) -> Void)? = nil
    ) {
        self.executor = FirestoreExecutor(engine: engine, queryLog: queryLog)
        self.log = log
    }

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
        log("\(stream.remoteAddress) \"\(stream.path)\" \(status?.code.name ?? "OK") \(LogFormat.milliseconds(ms))ms")
    }

    /// Runs the method; returns the status to end with (nil = OK).
    func run(_ call: GRPCCall) async -> FirestoreError? {
        let stream = call.stream
        guard stream.method == "POST", let method = FirestoreMethod(grpcPath: stream.path) else {
            if stream.path.hasPrefix(FirestoreMethod.grpcPrefix) {
                return FirestoreError(.unimplemented, "Method \(stream.path.dropFirst()) is not implemented.")
            }
            return FirestoreError(.unimplemented, "Unknown gRPC method \(stream.path).")
        }
        do throws(FirestoreError) {
            let auth = try BearerToken.authContext(fromHeader: stream.headers["authorization"])
            if let deadline = call.deadline, ContinuousClock.now >= deadline {
                throw FirestoreError(.deadlineExceeded, "Deadline exceeded before the call started.")
            }
            switch method {
            case .listen:
                try await ListenStream(transport: GRPCStreamTransport(call: call), engine: executor.engine, auth: auth).run()
            case .write:
                try await WriteStream(transport: GRPCStreamTransport(call: call), engine: executor.engine, auth: auth).run()
            default:
                let request = try FirestoreProto.request(method, from: try await call.singleRequest())
                if case .runQuery(let query) = request, FirestoreExecutor.streams(query) {
                    // Page by page: each page is sent (at the pace HTTP/2 flow control allows)
                    // before the next is read.
                    try await executor.streamQuery(query, auth: auth) { (messages) throws(FirestoreError) in
                        if let deadline = call.deadline, ContinuousClock.now >= deadline {
                            throw FirestoreError(.deadlineExceeded, "Deadline exceeded.")
                        }
                        for message in FirestoreProto.messages(.runQuery(messages), database: request.database) {
                            try await call.send(message)
                        }
                    }
                    return nil
                }
                let response = try await executor.perform(request, auth: auth)
                if let deadline = call.deadline, ContinuousClock.now >= deadline {
                    throw FirestoreError(.deadlineExceeded, "Deadline exceeded.")
                }
                for message in FirestoreProto.messages(response, database: request.database) { try await call.send(message) }
            }
            return nil
        } catch {
            return error
        }
    }
}
