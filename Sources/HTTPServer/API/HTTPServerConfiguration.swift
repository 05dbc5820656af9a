/// Where an ``HTTPServer`` listens and the limits and timeouts it enforces per connection.
public struct HTTPServerConfiguration: Sendable {
    /// The address to bind: numeric (`"127.0.0.1"`, `"0.0.0.0"`, `"::"`) or a name resolved with
    /// `getaddrinfo` (`"localhost"` binds its IPv4 address). Default `"127.0.0.1"`.
    public var host: String
    /// The TCP port, 0…65535; 0 asks the kernel for an ephemeral port (see ``HTTPServer/start()``).
    public var port: Int
    /// Longest accepted request line plus header section, in bytes (also bounds chunked
    /// trailers); larger heads get 431. Default 64 KiB.
    public var maxHeaderBytes: Int
    /// Largest accepted request body after de-chunking, in bytes; larger bodies get 413.
    /// Default 16 MiB.
    public var maxBodyBytes: Int
    /// A connection with no request in progress and nothing to send is closed after this long
    /// without traffic; also the longest a pending write may make no progress. Default 60 s.
    public var idleTimeout: Duration
    /// A request head must be complete this long after its first byte arrived, else the server
    /// answers 408 and closes (slow-client protection). Default 10 s.
    public var requestHeaderTimeout: Duration
    /// A request body may stall at most this long between received bytes, else the connection
    /// is closed. Default 30 s.
    public var bodyReadTimeout: Duration
    /// How long ``HTTPServer/shutdown()`` waits for in-flight requests before closing
    /// connections under them. Default 5 s.
    public var shutdownGracePeriod: Duration
    /// Requests one connection may have parsed but not yet answered (pipelining) before the
    /// server stops reading from it. Default 16.
    public var maxPipelinedRequests: Int
    /// The response for errors the transport answers itself (`plainTransportErrorResponse` by default).
    public var transportErrorResponse: TransportErrorResponse
    /// Event loop threads, at least 1: the first accepts and hands each new connection to the
    /// loops in turn; a connection stays on its loop for its life. More than one lets
    /// requests answered on the loop (a REST GetDocument, every request's parsing and
    /// encoding) use more than one core. Default 1.
    public var eventLoops: Int = 1

    /// A configuration; every parameter has the default documented on its property.
    public init(
        host: String = "127.0.0.1", port: Int = 0, maxHeaderBytes: Int = 65_536, maxBodyBytes: Int = 16 << 20,
        idleTimeout: Duration = .seconds(60), requestHeaderTimeout: Duration = .seconds(10),
        bodyReadTimeout: Duration = .seconds(30), shutdownGracePeriod: Duration = .seconds(5),
        maxPipelinedRequests: Int = 16, transportErrorResponse: @escaping TransportErrorResponse = plainTransportErrorResponse
    ) {
        self.host = host
        self.port = port
        self.maxHeaderBytes = maxHeaderBytes
        self.maxBodyBytes = maxBodyBytes
        self.idleTimeout = idleTimeout
        self.requestHeaderTimeout = requestHeaderTimeout
        self.bodyReadTimeout = bodyReadTimeout
        self.shutdownGracePeriod = shutdownGracePeriod
        self.maxPipelinedRequests = maxPipelinedRequests
        self.transportErrorResponse = transportErrorResponse
    }

    /// The per-connection HTTP/1.1 settings derived from this configuration.
    var http1: HTTP1ConnectionStateMachine.Configuration {
        HTTP1ConnectionStateMachine.Configuration(
            limits: .init(maxHeaderBytes: maxHeaderBytes, maxBodyBytes: maxBodyBytes),
            idleTimeout: idleTimeout, requestHeadTimeout: requestHeaderTimeout, bodyReadTimeout: bodyReadTimeout,
            maxPipelineDepth: max(1, maxPipelinedRequests), errorResponse: transportErrorResponse)
    }

    /// How often timeouts are checked: a quarter of the shortest timeout, within 5 ms…250 ms.
    var tickInterval: Duration {
        let shortest = min(idleTimeout, requestHeaderTimeout, bodyReadTimeout)
        return min(max(shortest / 4, .milliseconds(5)), .milliseconds(250))
    }
}
