/// The HTTP/2 (h2c, prior knowledge) server behind ``HTTPServer``: give it to
/// ``HTTPServer/init(configuration:handler:http2:log:)`` and every HTTP/2 connection is served
/// with nghttp2, each stream handed to `handler`.
///
/// Structure per connection: ``serve(_:)`` is the parent task; its children are one reader
/// (socket → nghttp2) and one task per stream running the handler. When the peer goes away the
/// children are cancelled; when ``serve(_:)`` is cancelled (server shutdown) it sends GOAWAY,
/// refuses new streams, lets the running ones end, then returns.
public struct HTTP2Server: HTTP2ConnectionHandler {
    private let configuration: HTTP2Configuration
    private let handler: any HTTP2StreamHandler
    private let log: @Sendable (String) -> Void

    /// Creates the HTTP/2 layer.
    /// - Parameters:
    ///   - handler: serves each stream.
    ///   - log: one line per finished stream, e.g.
    ///     `127.0.0.1:5000 "POST /svc/M HTTP/2" 200 120B 1.5ms`, plus protocol errors.
    public init(
        configuration: HTTP2Configuration = HTTP2Configuration(), handler: any HTTP2StreamHandler,
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.configuration = configuration
        self.handler = handler
        self.log = log
    }

    /// Speaks HTTP/2 on `connection` until the peer leaves or the server shuts down.
    public func serve(_ connection: any ByteStreamConnection) async {
        let (newStreams, newStreamsContinuation) = AsyncStream<HTTP2Stream>.makeStream()
        let session: HTTP2Connection
        do {
            session = try HTTP2Connection(
                connection: connection, configuration: configuration, newStreams: newStreamsContinuation, log: log)
        } catch {
            log("\(connection.remoteAddress) HTTP/2 session could not start: \(error)")
            connection.close()
            return
        }
        let handler = self.handler
        await withDiscardingTaskGroup { group in
            group.addTask { await session.readLoop() }
            for await stream in newStreams {
                group.addTask {
                    await session.claim(streamID: stream.streamID)
                    await handler.handle(stream)
                    await session.handlerFinished(streamID: stream.streamID)
                }
            }
            // Either the connection ended (the reader finished `newStreams`) or this task was
            // cancelled (shutdown): wind down gracefully; the reader ends when the socket closes.
            if await session.beginShutdown() { group.cancelAll() }
        }
        connection.close()
    }
}
