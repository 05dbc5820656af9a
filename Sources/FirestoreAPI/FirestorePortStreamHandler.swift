import FirestoreEngine
import HTTPServer

/// HTTP/2 streams on the Firestore port: gRPC (`content-type: application/grpc…`) to the
/// gRPC service, anything else (REST over h2) to the HTTP/1.1 handler through the adapter.
public struct FirestorePortStreamHandler: HTTP2StreamHandler {
    let grpc: FirestoreGRPCService
    let rest: HTTPHandlerStreamAdapter

    /// Creates the router.
    public init(grpc: FirestoreGRPCService, rest: any HTTPHandler) {
        self.grpc = grpc
        self.rest = HTTPHandlerStreamAdapter(rest)
    }

    public func handle(_ stream: HTTP2Stream) async {
        if stream.headers["content-type"]?.hasPrefix("application/grpc") == true {
            await grpc.serve(stream)
        } else {
            await rest.handle(stream)
        }
    }
}
