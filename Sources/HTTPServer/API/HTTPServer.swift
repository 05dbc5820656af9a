/// An HTTP/1.1 server (with an HTTP/2 hand-off) on non-blocking sockets and epoll threads
/// (``HTTPServerConfiguration/eventLoops``, one by default).
///
/// ```swift
/// let server = HTTPServer(configuration: .init(port: 8080), handler: router) { print($0) }
/// let port = try server.start()
/// …
/// await server.shutdown()
/// ```
///
/// Each request runs ``HTTPHandler/handle(_:)`` in a Swift concurrency task; connections cost
/// memory, not threads. Connections whose first bytes are the HTTP/2 client preface go to the
/// ``HTTP2ConnectionHandler`` if one is given, and are closed otherwise. Limits and timeouts
/// come from ``HTTPServerConfiguration``.
public final class HTTPServer: Sendable {
    private enum State: Sendable {
        case idle
        case running([ServerCore])
        case stopped
    }

    private let configuration: HTTPServerConfiguration
    private let handler: any HTTPHandler
    private let http2: (any HTTP2ConnectionHandler)?
    private let log: @Sendable (String) -> Void
    private let state = LockedValue(State.idle)

    /// Creates a server; nothing is bound until ``start()``.
    /// - Parameters:
    ///   - configuration: address, limits and timeouts.
    ///   - handler: answers every HTTP/1.1 request.
    ///   - http2: serves prior-knowledge HTTP/2 connections; `nil` closes them.
    ///   - log: receives one line per completed request, e.g.
    ///     `127.0.0.1:53422 "GET /v1/x HTTP/1.1" 200 123B 1.2ms` (body bytes, handler-to-write
    ///     time), plus rare transport notices. Called on the event loop thread: keep it quick.
    public init(
        configuration: HTTPServerConfiguration, handler: any HTTPHandler, http2: (any HTTP2ConnectionHandler)? = nil,
        log: @escaping @Sendable (String) -> Void
    ) {
        self.configuration = configuration
        self.handler = handler
        self.http2 = http2
        self.log = log
    }

    /// Binds and listens, raises the soft open-file limit to the hard limit, and starts the
    /// event loop threads.
    /// - Returns: the bound TCP port (the kernel's choice when the configured port is 0).
    /// - Throws: ``HTTPServerError`` — e.g. ``HTTPServerError/addressInUse(host:port:)`` when the
    ///   port is taken, ``HTTPServerError/alreadyStarted`` when called twice.
    public func start() throws -> Int {
        try state.withLock { state throws(HTTPServerError) -> Int in
            guard case .idle = state else { throw .alreadyStarted }
            Syscall.raiseOpenFileLimit()
            let (fd, port) = try Syscall.makeListeningSocket(
                host: configuration.host, port: configuration.port, backlog: 4_096)
            var cores: [ServerCore] = []
            var started: [ServerCore] = []
            do throws(HTTPServerError) {
                for index in 0..<max(1, configuration.eventLoops) {
                    cores.append(
                        try ServerCore(
                            configuration: configuration, listenFD: index == 0 ? fd : nil, handler: handler,
                            http2Handler: http2, log: log))
                }
                cores[0].peers = Array(cores.dropFirst())
                // The peers first: the accepting core hands connections to running loops only.
                for core in cores.dropFirst() {
                    try core.start()
                    started.append(core)
                }
                try cores[0].start()
            } catch {
                Syscall.close(fd)
                for core in started { _ = core.loop.execute { core.beginShutdown {} } }
                throw error
            }
            state = .running(cores)
            return port
        }
    }

    /// Stops accepting, lets in-flight requests finish (at most
    /// ``HTTPServerConfiguration/shutdownGracePeriod``), closes every connection and stops the
    /// event loop thread. Returns when all of that is done.
    ///
    /// Idle keep-alive connections close at once; a busy one gets `connection: close` on its last
    /// response; HTTP/2 handlers are cancelled (see ``HTTP2ConnectionHandler``). Calling it again,
    /// or before ``start()``, returns at once. Called from inside a handler it waits out the grace
    /// period (that handler's own request is in flight), so call it from a separate task.
    public func shutdown() async {
        let cores: [ServerCore] = state.withLock { state in
            defer { state = .stopped }
            if case .running(let cores) = state { return cores }
            return []
        }
        // The accepting core first (it stops handing out connections), then every loop drains
        // in parallel; returns when the last has stopped.
        await withTaskGroup(of: Void.self) { group in
            for core in cores {
                group.addTask {
                    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                        let scheduled = core.loop.execute {
                            core.beginShutdown { continuation.resume() }
                        }
                        if !scheduled { continuation.resume() }
                    }
                }
            }
        }
    }

    /// The number of connections the event loops currently hold (any protocol or phase);
    /// 0 when not running. For tests and diagnostics.
    func openConnectionCount() async -> Int {
        let cores: [ServerCore] = state.withLock { state in
            if case .running(let cores) = state { return cores }
            return []
        }
        var total = 0
        for core in cores {
            total += await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
                if !core.loop.execute({ continuation.resume(returning: core.connectionCount) }) {
                    continuation.resume(returning: 0)
                }
            }
        }
        return total
    }
}
