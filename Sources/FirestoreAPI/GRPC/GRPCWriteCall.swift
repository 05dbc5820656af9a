import FirestoreEngine
import FirestoreModel
import ProtoWire

/// The Write stream of the mobile SDKs: a handshake answered with a stream id and token,
/// then one response per non-empty batch (one result per write, the commit time), no
/// response to the empty teardown request; a failed batch ends the stream with its status.
/// Source: reference grpc-and-listen §9.
struct GRPCWriteCall {
    let call: GRPCCall
    let engine: FirestoreEngine
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
        while let bytes = try await call.nextMessage() {
            let request = try FirestoreProto.WriteRequest(serializedBytes: bytes, streamDatabase: database)
            if database == nil {
                guard let db = request.database else {
                    throw FirestoreError(.invalidArgument, "The first WriteRequest must name the database.")
                }
                database = db
                let streamID = AutoID.make()
                try await call.send(FirestoreProto.WriteResponse(streamID: streamID, streamToken: token()).serializedBytes())
                if request.writes.isEmpty { continue }
            }
            guard let db = database, !request.writes.isEmpty else { continue }
            let response = try engine.commit(request.writes, in: db, auth: auth)
            let results = response.writeResults.map { r in
                WriteResult(updateTime: r.updateTime ?? response.commitTime, transformResults: r.transformResults)
            }
            try await call.send(
                FirestoreProto.WriteResponse(streamToken: token(), writeResults: results, commitTime: response.commitTime)
                    .serializedBytes())
        }
    }
}
