import FirestoreModel

/// `WriteResponse` of `google.firestore.v1`, as every transport encodes it.
///
/// Handshake: `streamID` + `streamToken`, no results. Per batch: `streamToken`, one
/// result per write (each with one transform result per field transform), `commitTime`.
/// Source: googleapis `firestore.proto`; docs/reference/grpc-and-listen.md §6.5, §9.
public struct WriteResponse: Sendable, Hashable {
    /// The stream id (handshake only; "" = not written).
    public var streamID: String
    /// A fresh token the client echoes back (always non-empty in practice).
    public var streamToken: [UInt8]
    /// One per write of the acknowledged batch.
    public var writeResults: [WriteResult]
    /// The batch's commit time (nil in the handshake).
    public var commitTime: Timestamp?

    /// Creates a response.
    public init(streamID: String = "", streamToken: [UInt8], writeResults: [WriteResult] = [], commitTime: Timestamp? = nil) {
        self.streamID = streamID
        self.streamToken = streamToken
        self.writeResults = writeResults
        self.commitTime = commitTime
    }
}
