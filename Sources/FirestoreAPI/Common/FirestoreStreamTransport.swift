import FirestoreModel
import FirestoreRPC

/// What a transport supplies to serve one of Firestore's bidirectional streams (Listen,
/// Write): the next request decoded into the domain, and a way to send a response. gRPC
/// adapts one HTTP/2 stream (`GRPCStreamTransport`); WebChannel (`WebChannelTransport`) adapts its
/// session of many HTTP/1.1 requests. The stream logic itself (`ListenStream`, `WriteStream`) is shared.
/// Source: googleapis `google/firestore/v1/firestore.proto` Listen, Write.
protocol FirestoreStreamTransport: Sendable {
    /// The next request, or nil when the client half-closed the stream.
    /// - Parameter streamDatabase: the database an earlier request of the stream named, used
    ///   when this one names none.
    /// - Throws: `.invalidArgument` for a malformed request; the transport's error when the
    ///   client went away.
    func nextListenRequest(streamDatabase: DatabaseID?) async throws(FirestoreError) -> ListenRequest?
    /// The next Write-stream request, or nil at half-close (as `nextListenRequest`).
    func nextWriteRequest(streamDatabase: DatabaseID?) async throws(FirestoreError) -> WriteRequest?
    /// Sends one Listen response with names in `database`.
    /// - Throws: when the client reset the stream or went away.
    func send(_ response: ListenResponse, database: DatabaseID) async throws(FirestoreError)
    /// Sends one Write-stream response.
    /// - Throws: when the client reset the stream or went away.
    func send(_ response: WriteResponse) async throws(FirestoreError)
}
