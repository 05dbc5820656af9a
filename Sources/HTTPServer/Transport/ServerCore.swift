/// The loop-side half of an ``HTTPServer``: one event loop with its connection table and
/// shutdown sequence; the first core of a server also owns the listening socket and hands
/// accepted connections to the server's cores in turn (itself included).
///
/// Everything here runs on the core's event loop thread; other threads reach it only through
/// ``EventLoop/execute(_:)`` (handler results, HTTP/2 writes, handed-off connections, shutdown).
final class ServerCore: EventLoopSource, @unchecked Sendable {
    // @unchecked Sendable: the stored `let`s are Sendable or immutable; every `var` (and every
    // ServerConnection reachable from `connections`) is touched only on the loop thread —
    // from `handle`, `tick`, or closures that other threads pass to `loop.execute`.
    let loop: EventLoop
    /// The server's configuration.
    let configuration: HTTPServerConfiguration
    /// Answers HTTP/1.1 requests.
    let handler: any HTTPHandler
    /// Serves HTTP/2 connections, if configured.
    let http2Handler: (any HTTP2ConnectionHandler)?
    private let logLine: @Sendable (String) -> Void
    private let listenFD: Int32?
    private var listenToken: UInt64?
    /// The other cores the accepting core hands connections to; set before ``start()``.
    var peers: [ServerCore] = []
    private var nextPeer = 0
    private var connections: [UInt64: ServerConnection] = [:]
    private var acceptPausedUntil: ContinuousClock.Instant?
    private var shutdownDeadline: ContinuousClock.Instant?
    private var shutdownCompletion: (@Sendable () -> Void)?
    private var stopping = false

    /// Creates the event loop; `listenFD` is the already listening socket of the accepting
    /// core, nil for the others.
    /// - Throws: ``HTTPServerError`` if the loop cannot be created.
    init(
        configuration: HTTPServerConfiguration, listenFD: Int32?, handler: any HTTPHandler,
        http2Handler: (any HTTP2ConnectionHandler)?, log: @escaping @Sendable (String) -> Void
    ) throws(HTTPServerError) {
        loop = try EventLoop(tickInterval: configuration.tickInterval)
        self.configuration = configuration
        self.listenFD = listenFD
        self.handler = handler
        self.http2Handler = http2Handler
        self.logLine = log
    }

    /// Registers the listening socket (on the accepting core) and starts the loop thread.
    /// - Throws: ``HTTPServerError/systemCallFailed(call:errno:reason:)`` if epoll refuses it.
    func start() throws(HTTPServerError) {
        loop.onTick = { [unowned self] in tick() }
        if let listenFD {
            guard let token = loop.register(fd: listenFD, events: .readable, source: self) else {
                throw .systemCallFailed(call: "epoll_ctl", errno: 0, reason: "cannot watch the listening socket")
            }
            listenToken = token
        }
        loop.start(name: "hearth-http") { [self] in loopExited() }
    }

    /// The current time on the clock all timeouts use.
    var now: ContinuousClock.Instant { ContinuousClock.now }

    /// Passes one line to the configured log.
    func log(_ line: String) { logLine(line) }

    // MARK: - Accepting (EventLoopSource)

    /// The listening socket is readable: accept up to 64 connections, each kept or handed to
    /// the next peer in turn.
    func handle(_ events: EpollEvents) {
        guard let listenFD else { return }
        for _ in 0..<64 {
            switch Syscall.accept(listenFD) {
            case .accepted(let fd, let remoteAddress):
                let turn = nextPeer
                nextPeer = (nextPeer + 1) % (peers.count + 1)
                if turn == 0 {
                    adopt(fd: fd, remoteAddress: remoteAddress)
                } else {
                    let peer = peers[turn - 1]
                    if !peer.loop.execute({ peer.adopt(fd: fd, remoteAddress: remoteAddress) }) { Syscall.close(fd) }
                }
            case .wouldBlock:
                return
            case .retry:
                continue
            case .resourceExhausted(let error):
                log("accept paused for 100 ms: \(Syscall.describe(error))")
                if let listenToken { loop.reregister(fd: listenFD, token: listenToken, events: []) }
                acceptPausedUntil = now.advanced(by: .milliseconds(100))
                return
            }
        }
    }

    /// Serves the accepted connection `fd` on this core; closes it when the core is shutting down.
    func adopt(fd: Int32, remoteAddress: String) {
        guard shutdownCompletion == nil else {
            Syscall.close(fd)
            return
        }
        let connection = ServerConnection(fd: fd, remoteAddress: remoteAddress, core: self, now: now)
        guard let token = loop.register(fd: fd, events: .readable, source: connection) else {
            Syscall.close(fd)
            return
        }
        connection.token = token
        connections[token] = connection
    }

    // MARK: - Connection callbacks

    /// Delivers a handler's response to connection `token` (if it is still open).
    func responseReady(connection token: UInt64, sequence: UInt64, response: HTTPResponse) {
        connections[token]?.responseReady(sequence: sequence, response: response)
    }

    /// How many connections are open; loop thread.
    var connectionCount: Int { connections.count }

    /// Looks up an open connection.
    func connection(_ token: UInt64) -> ServerConnection? { connections[token] }

    /// Removes a closed connection from the table.
    func connectionClosed(_ connection: ServerConnection) {
        connections[connection.token] = nil
        if shutdownCompletion != nil { finishShutdownIfDrained() }
    }

    // MARK: - Timers

    private func tick() {
        let now = self.now
        if let until = acceptPausedUntil, now >= until, let listenToken, let listenFD {
            acceptPausedUntil = nil
            loop.reregister(fd: listenFD, token: listenToken, events: .readable)
        }
        for connection in Array(connections.values) { connection.tick(now: now) }
        if let deadline = shutdownDeadline, now >= deadline {
            for connection in Array(connections.values) { connection.close() }
        }
    }

    // MARK: - Shutdown

    /// Stops accepting, drains every connection, and stops the loop once all are closed or the
    /// grace period has passed; `completion` runs on the loop thread after it has stopped.
    func beginShutdown(completion: @escaping @Sendable () -> Void) {
        guard shutdownCompletion == nil else { return }
        shutdownCompletion = completion
        shutdownDeadline = now.advanced(by: configuration.shutdownGracePeriod)
        if let listenToken, let listenFD {
            loop.deregister(fd: listenFD, token: listenToken)
            Syscall.close(listenFD)
            self.listenToken = nil
        }
        for connection in Array(connections.values) { connection.beginDrain(now: now) }
        finishShutdownIfDrained()
    }

    private func finishShutdownIfDrained() {
        guard connections.isEmpty, !stopping else { return }
        stopping = true
        loop.stop()
    }

    /// Runs on the loop thread after the loop closed its descriptors; the loop only stops
    /// through ``beginShutdown(completion:)``, so the listening socket (if this core has it)
    /// is already closed.
    private func loopExited() {
        shutdownCompletion?()
        shutdownCompletion = nil
    }
}
