/// One HTTP/2 stream as a handler sees it: the request head, the request body as it arrives,
/// and the operations that send the response (RFC 9113 §8.1).
///
/// A response is `sendHeaders` → `sendData`… → optionally `sendTrailers` (which ends the
/// stream), or `sendHeaders(endStream: true)` alone (e.g. gRPC Trailers-Only). Sending waits
/// while the peer's flow-control window or the socket is full, so a slow peer slows the
/// handler instead of growing memory. Calls may come from any task, but one stream's sends must
/// not race each other.
public final class HTTP2Stream: Sendable {
    /// The client-chosen stream identifier (odd, increasing per connection).
    public let streamID: Int32
    /// `:method`, e.g. `"POST"`.
    public let method: String
    /// `:path`, e.g. `"/google.firestore.v1.Firestore/Commit"`; may carry a `?query`.
    public let path: String
    /// `:scheme`, e.g. `"http"`.
    public let scheme: String
    /// `:authority` (or `host` if absent), e.g. `"localhost:8080"`.
    public let authority: String
    /// The regular (non-pseudo) header fields in wire order; names are lowercase (RFC 9113 §8.2).
    public let headers: HTTPHeaders
    /// The peer's address as `"host:port"`.
    public let remoteAddress: String
    /// The request body; see ``HTTP2RequestBody``.
    public let requestBody: HTTP2RequestBody

    /// The connection actor that owns this stream's state.
    let connection: HTTP2Connection

    /// Created by ``HTTP2Connection`` when a request header block completes.
    init(
        streamID: Int32, method: String, path: String, scheme: String, authority: String, headers: HTTPHeaders,
        remoteAddress: String, requestBody: HTTP2RequestBody, connection: HTTP2Connection
    ) {
        self.streamID = streamID
        self.method = method
        self.path = path
        self.scheme = scheme
        self.authority = authority
        self.headers = headers
        self.remoteAddress = remoteAddress
        self.requestBody = requestBody
        self.connection = connection
    }

    /// Sends the response HEADERS: `:status` then `headers` (names lowercased; connection-specific
    /// fields such as `connection` and `transfer-encoding` are dropped, RFC 9113 §8.2.2).
    /// - Parameter endStream: end the stream with these headers (no body, no trailers).
    /// - Throws: ``HTTP2StreamError/headersAlreadySent``, ``HTTP2StreamError/closed(_:)``.
    public func sendHeaders(status: Int = 200, _ headers: HTTPHeaders = HTTPHeaders(), endStream: Bool = false)
        async throws(HTTP2StreamError)
    {
        try await connection.sendHeaders(streamID: streamID, status: status, headers: headers, endStream: endStream)
    }

    /// Sends response body bytes (split into DATA frames as flow control allows); waits while
    /// more than 256 KiB of this stream's body is still unsent.
    /// - Parameter endStream: end the stream after these bytes (no trailers).
    /// - Throws: ``HTTP2StreamError/invalidState(_:)`` before headers or after the end,
    ///   ``HTTP2StreamError/closed(_:)`` if the stream or connection is gone.
    public func sendData(_ bytes: [UInt8], endStream: Bool = false) async throws(HTTP2StreamError) {
        try await connection.sendData(streamID: streamID, bytes: bytes, endStream: endStream)
    }

    /// Ends the response with trailer fields after all body bytes, e.g. `grpc-status: 0`.
    /// - Throws: ``HTTP2StreamError/invalidState(_:)`` before headers or after the end,
    ///   ``HTTP2StreamError/closed(_:)`` if the stream or connection is gone.
    public func sendTrailers(_ trailers: HTTPHeaders) async throws(HTTP2StreamError) {
        try await connection.sendTrailers(streamID: streamID, trailers: trailers)
    }

    /// Abandons the stream with RST_STREAM (RFC 9113 §6.4); unsent body bytes are dropped.
    public func reset(_ code: HTTP2ErrorCode = .cancel) async {
        await connection.reset(streamID: streamID, code: code)
    }

    /// Reads the whole request body.
    /// - Parameter maxBytes: the most bytes accepted.
    /// - Throws: ``HTTP2StreamError/bodyTooLarge(limitBytes:)`` past `maxBytes`,
    ///   ``HTTP2StreamError/closed(_:)`` if the stream is reset or the connection closes.
    public func collectBody(maxBytes: Int) async throws(HTTP2StreamError) -> [UInt8] {
        var body: [UInt8] = []
        do {
            for try await chunk in requestBody {
                guard body.count + chunk.count <= maxBytes else {
                    throw HTTP2StreamError.bodyTooLarge(limitBytes: maxBytes)
                }
                body.append(contentsOf: chunk)
            }
        } catch let error as HTTP2StreamError {
            throw error
        } catch {
            throw .closed(nil)
        }
        return body
    }
}
