import FirestoreEngine
import FirestoreModel
import FirestoreRPC

/// The Write stream of the mobile SDKs: a handshake answered with a stream id and token,
/// then one response per non-empty batch (one result per write, the commit time), no
/// response to the empty teardown request; a failed batch ends the stream with its status.
/// Runs on any transport. Source: docs/reference/grpc-and-listen.md §9.
struct WriteStream<Transport: FirestoreStreamTransport> {
    /// Where requests come from and responses go.
    let transport: Transport
    /// The engine every batch commits on.
    let engine: FirestoreEngine
    /// Who writes (rules are judged for them).
    let auth: AuthContext

    /// Serves the stream until the client half-closes.
    /// - Throws: the status of a failed batch, or `INVALID_ARGUMENT` for a malformed request.
    func run() async throws(FirestoreError) {
        var database: DatabaseID?
        var counter: UInt64 = 0
        func token() -> [UInt8] {
            counter += 1
            return withUnsafeBytes(of: counter.bigEndian, Array.init)
        }
        while let request = try await transport.nextWriteRequest(streamDatabase: database) {
            if database == nil {
                guard let db = request.database else {
                    throw FirestoreError(.invalidArgument, "The first WriteRequest must name the database.")
                }
                database = db
                let streamID = AutoID.make()
                try await transport.send(WriteResponse(streamID: streamID, streamToken: token()))
                if request.writes.isEmpty { continue }
            }
            guard let db = database, !request.writes.isEmpty else { continue }
            // The emulator's stream takes a verify beside a write of the same document, or two
            // verifies of one (Commit refuses both); a verify still needs its precondition.
            let response = try await engine.groupCommit(
                request.writes, in: db, auth: auth, checksVerifyCombinations: false)
            // As Commit answers: a delete's result has no update time (emulator 1.19.9, over
            // gRPC and WebChannel alike; the SDKs fall back to the commit time).
            try await transport.send(
                WriteResponse(streamToken: token(), writeResults: response.writeResults, commitTime: response.commitTime))
        }
    }
}
