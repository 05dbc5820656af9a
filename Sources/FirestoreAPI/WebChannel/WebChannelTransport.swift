import FirestoreModel
import FirestoreRPC
import GoogleWire

/// Serves a Listen or Write stream over a WebChannel session: each forward map is one
/// request in proto3 JSON, each response one back-channel array `[<response JSON>]`. A
/// decoder and an encoder only; the stream logic is `ListenStream` / `WriteStream`, as on gRPC.
/// Source: googleapis `firestore.proto` Listen, Write; Tests/WebClients/PROTOCOL.md.
struct WebChannelTransport: FirestoreStreamTransport {
    let session: WebChannelSession

    func nextListenRequest(streamDatabase: DatabaseID?) async throws(FirestoreError) -> ListenRequest? {
        guard let text = await session.nextMap() else { return nil }
        return try RESTCodec.decodeListenRequest(try JSONValue.parse(text), streamDatabase: streamDatabase)
    }

    func nextWriteRequest(streamDatabase: DatabaseID?) async throws(FirestoreError) -> WriteRequest? {
        guard let text = await session.nextMap() else { return nil }
        return try RESTCodec.decodeWriteRequest(try JSONValue.parse(text), streamDatabase: streamDatabase)
    }

    func send(_ response: ListenResponse, database: DatabaseID) async throws(FirestoreError) {
        try send(RESTCodec.encodeListenResponse(response, database: database))
    }

    func send(_ response: WriteResponse) async throws(FirestoreError) {
        try send(RESTCodec.encodeWriteResponse(response))
    }

    private func send(_ message: JSONValue) throws(FirestoreError) {
        var payload: [UInt8] = [UInt8(ascii: "[")]
        message.write(into: &payload)
        payload.append(UInt8(ascii: "]"))
        guard session.send(payload: payload, now: .now) else {
            throw FirestoreError(.cancelled, "The WebChannel session is closed.")
        }
    }
}
