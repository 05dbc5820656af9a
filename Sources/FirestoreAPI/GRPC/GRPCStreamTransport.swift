import FirestoreModel
import FirestoreRPC
import ProtoWire

/// A gRPC call as the transport of a bidirectional Firestore stream: protobuf messages in
/// and out of one HTTP/2 stream. Reads and sends may run concurrently (see `GRPCCall`).
/// Source: repo grpc/grpc doc/PROTOCOL-HTTP2.md; docs/reference/grpc-and-listen.md §8, §9.
struct GRPCStreamTransport: FirestoreStreamTransport {
    /// The call.
    let call: GRPCCall

    func nextListenRequest(streamDatabase: DatabaseID?) async throws(FirestoreError) -> ListenRequest? {
        guard let bytes = try await call.nextMessage() else { return nil }
        return try ListenRequest(serializedBytes: bytes, streamDatabase: streamDatabase)
    }

    func nextWriteRequest(streamDatabase: DatabaseID?) async throws(FirestoreError) -> WriteRequest? {
        guard let bytes = try await call.nextMessage() else { return nil }
        return try WriteRequest(serializedBytes: bytes, streamDatabase: streamDatabase)
    }

    func send(_ response: ListenResponse, database: DatabaseID) async throws(FirestoreError) {
        try await call.send(response.serializedBytes(database: database))
    }

    func send(_ response: WriteResponse) async throws(FirestoreError) {
        try await call.send(response.serializedBytes())
    }
}
