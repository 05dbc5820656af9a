/// Turns one complete ``HTTPRequest`` into one ``HTTPResponse``.
///
/// Called concurrently from Swift concurrency tasks, one call per request; on a pipelining
/// connection calls may overlap and finish in any order — the server still writes the
/// responses in request order (RFC 9112 §9.3.2). If the peer disconnects, the task running
/// `handle` is cancelled; the handler may check `Task.isCancelled` to stop early, and whatever
/// it returns is then discarded.
public protocol HTTPHandler: Sendable {
    /// Produces the response for `request`. Errors must be mapped to a status by the handler.
    func handle(_ request: HTTPRequest) async -> HTTPResponse
}
