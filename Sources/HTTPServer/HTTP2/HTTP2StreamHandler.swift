/// Serves one HTTP/2 stream — one request and its response, e.g. one gRPC call.
///
/// Called once per stream, concurrently for the streams of a connection, each call in a child
/// task of the connection's task; when the connection ends or the server shuts down, the task
/// is cancelled. When `handle` returns, a response that was not finished is completed for it:
/// a stream with no headers sent is reset with `INTERNAL_ERROR`, a started body is ended.
public protocol HTTP2StreamHandler: Sendable {
    /// Reads the request from `stream` and writes the response to it.
    func handle(_ stream: HTTP2Stream) async
}
