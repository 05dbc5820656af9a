/// One accepted connection on the loop thread: its socket, its send queue, and the protocol
/// it turned out to speak.
///
/// Lifecycle: `sniffing` (first bytes decide) → `http1` or `http2` → `lingering` (our side is
/// shut down, discarding input until the peer closes, so it can read our last response,
/// RFC 9112 §9.6) → `closed`. Every path ends in ``close()``, which cancels the connection's
/// handler tasks, wakes its byte-stream waiters and releases the descriptor.
final class ServerConnection: EventLoopSource {
    private enum Phase {
        case sniffing
        case http1
        case http2
        case lingering(until: ContinuousClock.Instant, discardedBytes: Int)
        case closed
    }

    /// Bytes queued on an HTTP/2 byte stream above which writers wait / below which they resume.
    static let writeHighWater = 1 << 20
    /// See ``writeHighWater``.
    static let writeLowWater = 256 << 10
    private static let lingerTime: Duration = .seconds(2)
    private static let drainLingerTime: Duration = .milliseconds(100)
    /// Set once the server began draining this connection for shutdown.
    private var drainRequested = false
    private static let lingerDiscardLimit = 4 << 20

    /// The connected socket; owned, closed by ``close()``.
    let fd: Int32
    /// The peer, `"host:port"`.
    let remoteAddress: String
    /// The loop registration token; also this connection's id in ``ServerCore``.
    var token: UInt64 = 0
    private unowned let core: ServerCore
    private var phase = Phase.sniffing
    private let openedAt: ContinuousClock.Instant
    private var sniffed: [UInt8] = []
    private var http1: HTTP1ConnectionStateMachine?
    private var byteStream: EventLoopByteStream?
    private var http2Task: Task<Void, Never>?
    private var handlerTasks: [UInt64: Task<Void, Never>] = [:]
    private var outbound = OutboundBuffer()
    private var closeWhenFlushed = false
    private var inputEnded = false
    private var lastWriteProgress: ContinuousClock.Instant
    private var writeWaiters: [CheckedContinuation<Void, any Error>] = []
    private var interest: EpollEvents = .readable

    /// Wraps an accepted socket; the caller registers it with the loop and sets ``token``.
    init(fd: Int32, remoteAddress: String, core: ServerCore, now: ContinuousClock.Instant) {
        self.fd = fd
        self.remoteAddress = remoteAddress
        self.core = core
        openedAt = now
        lastWriteProgress = now
    }

    private var isClosed: Bool {
        if case .closed = phase { return true }
        return false
    }

    private var wantsRead: Bool {
        switch phase {
        case .sniffing, .lingering: true
        case .http1: http1?.wantsRead ?? false
        case .http2: !inputEnded && !(byteStream?.isReadPaused ?? true)
        case .closed: false
        }
    }

    // MARK: - Readiness (EventLoopSource)

    /// Reacts to readiness: write what is queued, read what arrived, close on errors.
    func handle(_ events: EpollEvents) {
        if events.contains(.error) {
            close()
            return
        }
        if events.contains(.writable) { flush() }
        if events.contains(.readable) || events.contains(.hangup) {
            if wantsRead {
                readAvailable()
            } else if events.contains(.hangup) {
                close()  // Both directions are gone and we are not reading: nothing left to do.
            }
        }
        updateInterest()
    }

    private func readAvailable() {
        let buffer = core.loop.readBuffer
        for _ in 0..<4 where wantsRead {
            switch Syscall.read(fd, into: buffer) {
            case .transferred(let count):
                received(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                if count < buffer.count { return }
            case .wouldBlock:
                return
            case .closed(let error):
                if error == nil { receivedEndOfStream() } else { close() }
                return
            }
        }
    }

    private func received(_ bytes: UnsafeRawBufferPointer) {
        switch phase {
        case .sniffing:
            sniffed.append(contentsOf: bytes)
            guard let verdict = ProtocolSniffer.classify(sniffed) else { return }
            switch verdict {
            case .http1:
                let now = core.now
                http1 = HTTP1ConnectionStateMachine(
                    configuration: core.configuration.http1, remoteAddress: remoteAddress, now: now)
                phase = .http1
                let initial = sniffed
                sniffed = []
                perform(http1?.receive(initial, now: now) ?? [])
            case .http2:
                startHTTP2()
            case .tls:
                core.log(
                    "\(remoteAddress) sent a TLS handshake to this plaintext port; "
                        + "configure the client for plaintext (e.g. emulator host with SSL disabled)")
                close()
            }
        case .http1:
            perform(http1?.receive(bytes, now: core.now) ?? [])
        case .http2:
            byteStream?.deliver(Array(bytes))
        case .lingering(let until, let discarded):
            let total = discarded + bytes.count
            if total > Self.lingerDiscardLimit {
                close()
            } else {
                phase = .lingering(until: until, discardedBytes: total)
            }
        case .closed:
            break
        }
    }

    private func receivedEndOfStream() {
        switch phase {
        case .sniffing, .lingering, .closed:
            close()
        case .http1:
            inputEnded = true
            perform(http1?.receiveEndOfStream(now: core.now) ?? [])
        case .http2:
            inputEnded = true
            byteStream?.deliverEndOfStream()
        }
    }

    // MARK: - HTTP/1.1

    private func perform(_ actions: [HTTP1ConnectionStateMachine.Action]) {
        for action in actions {
            switch action {
            case .dispatch(let sequence, let request):
                dispatch(sequence: sequence, request: request)
            case .write(let bytes):
                outbound.append(bytes)
            case .log(let line):
                core.log(line)
            case .cancelHandlers:
                cancelTasks()
            case .close(let graceful):
                if !graceful {
                    close()
                    return
                }
                closeWhenFlushed = true
            }
        }
        flush()
    }

    private func dispatch(sequence: UInt64, request: HTTPRequest) {
        let handler = core.handler
        let core = self.core
        let token = self.token
        // Unstructured on purpose: the event loop thread is not an async context, so there is
        // no parent task to attach to. The task is owned by this connection (`handlerTasks`)
        // and cancelled when the connection closes, so its lifetime is still bounded by it.
        let task = Task {
            let response = await handler.handle(request)
            core.loop.execute {
                core.responseReady(connection: token, sequence: sequence, response: response)
            }
        }
        handlerTasks[sequence] = task
    }

    /// A handler finished; loop thread.
    func responseReady(sequence: UInt64, response: HTTPResponse) {
        handlerTasks[sequence] = nil
        perform(http1?.responseReady(sequence: sequence, response: response, now: core.now) ?? [])
        updateInterest()
    }

    // MARK: - HTTP/2 byte stream

    private func startHTTP2() {
        guard let http2Handler = core.http2Handler else {
            core.log("\(remoteAddress) opened an HTTP/2 connection, but no HTTP/2 handler is configured; closing")
            close()
            return
        }
        let stream = EventLoopByteStream(
            remoteAddress: remoteAddress, loop: core.loop, core: core, connection: token, initialBytes: sniffed)
        sniffed = []
        byteStream = stream
        phase = .http2
        // Unstructured on purpose (see `dispatch`): owned by this connection, cancelled on
        // shutdown or close, and the stream it serves is closed when it returns.
        http2Task = Task {
            await http2Handler.serve(stream)
            stream.close()
        }
    }

    /// Queues bytes enqueued by the HTTP/2 layer and tries to send them.
    func enqueueStreamBytes(_ bytes: [UInt8]) {
        guard case .http2 = phase, !closeWhenFlushed else { return }
        outbound.append(bytes)
        flush()
        updateInterest()
    }

    /// Resumes `continuation` once the send queue is at most the high-water mark (at once if it
    /// is), or fails it if the connection is closing.
    func waitForStreamWritable(_ continuation: CheckedContinuation<Void, any Error>) {
        guard case .http2 = phase, !closeWhenFlushed else {
            continuation.resume(throwing: ByteStreamError.closed)
            return
        }
        if outbound.pendingBytes <= Self.writeHighWater {
            continuation.resume()
        } else {
            writeWaiters.append(continuation)
        }
    }

    /// The HTTP/2 layer closed the stream: flush, then close.
    func closeStream() {
        guard case .http2 = phase else { return }
        closeWhenFlushed = true
        flush()
        updateInterest()
    }

    /// The HTTP/2 reader caught up; reading may resume.
    func resumeReading() {
        updateInterest()
    }

    // MARK: - Writing

    private func flush() {
        guard !isClosed else { return }
        if !outbound.isEmpty {
            let (result, written) = outbound.drain { Syscall.write(fd, $0) }
            if written > 0 {
                let now = core.now
                lastWriteProgress = now
                http1?.wroteBytes(now: now)
            }
            if outbound.pendingBytes < Self.writeLowWater && !writeWaiters.isEmpty {
                let waiters = writeWaiters
                writeWaiters = []
                for waiter in waiters { waiter.resume() }
            }
            switch result {
            case .drained: break
            case .wouldBlock: return
            case .closed:
                close()
                return
            }
        }
        if closeWhenFlushed { startLingering() }
    }

    private func startLingering() {
        closeWhenFlushed = false
        cancelTasks()
        http1 = nil
        if inputEnded {
            close()
            return
        }
        Syscall.shutdownWrite(fd)
        // While the server drains for shutdown, linger only briefly: the peer has our FIN
        // behind the last response, and shutdown must not wait on idle keep-alive clients.
        let linger = drainRequested ? Self.drainLingerTime : Self.lingerTime
        phase = .lingering(until: core.now.advanced(by: linger), discardedBytes: 0)
        byteStream?.markClosed()
        failWriteWaiters()
        updateInterest()
    }

    private func updateInterest() {
        guard !isClosed else { return }
        var desired: EpollEvents = []
        if wantsRead { desired.insert(.readable) }
        if !outbound.isEmpty { desired.insert(.writable) }
        if desired != interest {
            interest = desired
            core.loop.reregister(fd: fd, token: token, events: desired)
        }
    }

    // MARK: - Timers and shutdown

    /// Applies the timeouts of the current phase.
    func tick(now: ContinuousClock.Instant) {
        switch phase {
        case .sniffing:
            let limit = sniffed.isEmpty ? core.configuration.idleTimeout : core.configuration.requestHeaderTimeout
            if now - openedAt > limit { close() }
        case .http1:
            perform(http1?.tick(now: now, outputPending: !outbound.isEmpty) ?? [])
            updateInterest()
        case .http2:
            if !outbound.isEmpty && now - lastWriteProgress > core.configuration.idleTimeout { close() }
        case .lingering(let until, _):
            if now >= until { close() }
        case .closed:
            break
        }
    }

    /// Server shutdown: finish what is in flight, take nothing new.
    func beginDrain(now: ContinuousClock.Instant) {
        drainRequested = true
        switch phase {
        case .sniffing:
            close()
        case .http1:
            perform(http1?.beginDrain(now: now) ?? [])
            updateInterest()
        case .http2:
            http2Task?.cancel()  // Tells the HTTP/2 handler to wind down (GOAWAY).
        case .lingering, .closed:
            break
        }
    }

    /// Closes the socket now and releases everything tied to it. Idempotent.
    func close() {
        guard !isClosed else { return }
        phase = .closed
        cancelTasks()
        http2Task?.cancel()
        http2Task = nil
        http1 = nil
        byteStream?.markClosed()
        byteStream = nil
        failWriteWaiters()
        outbound.removeAll()
        core.loop.deregister(fd: fd, token: token)
        Syscall.close(fd)
        core.connectionClosed(self)
    }

    private func cancelTasks() {
        for task in handlerTasks.values { task.cancel() }
        handlerTasks = [:]
    }

    private func failWriteWaiters() {
        let waiters = writeWaiters
        writeWaiters = []
        for waiter in waiters { waiter.resume(throwing: ByteStreamError.closed) }
    }
}
