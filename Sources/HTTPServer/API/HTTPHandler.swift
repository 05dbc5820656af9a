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

    /// The response for `request` when the handler can answer it at once, on the event loop's
    /// thread, without blocking (a point read of a few microseconds); nil to have `handle`
    /// answer it on a task. A request answered here costs no thread hand-off, which is most
    /// of a small request's cost. The default answers nothing inline.
    func handleInline(_ request: HTTPRequest) -> HTTPResponse?

    /// Takes `request` when the handler answers it through a callback of its own (work queued
    /// to a thread that calls `respond` once, from any thread), returning true; false to have
    /// `handle` answer it on a task. Called on the event loop's thread, so it must not block.
    /// The default takes nothing.
    func handleDeferred(_ request: HTTPRequest, respond: @escaping @Sendable (HTTPResponse) -> Void) -> Bool
}

extension HTTPHandler {
    public func handleInline(_ request: HTTPRequest) -> HTTPResponse? { nil }
    public func handleDeferred(_ request: HTTPRequest, respond: @escaping @Sendable (HTTPResponse) -> Void) -> Bool { false }
}
