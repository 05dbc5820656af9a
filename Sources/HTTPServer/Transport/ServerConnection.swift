/// One accepted connection on the loop thread: its socket, its send queue, and the protocol
/// it turned out to speak.
///
/// Lifecycle (``Phase``): `sniffing` (first bytes decide) → `http1` or `http2` → their
/// `…Flushing` phase (our last bytes are queued) → `lingering` (our side is shut down,
/// discarding input until the peer closes, so it can read our last response, RFC 9112 §9.6) →
/// `closed`. Every path ends in ``close()``, which cancels the connection's handler tasks,
/// wakes its byte-stream waiters and releases the descriptor.
final class ServerConnection: EventLoopSource {
    /// Whether the peer may still send: after its end of stream nothing more is read.
    private enum Input {
        case open
        case ended
    }

    /// The HTTP/2 side of a connection: the byte stream the HTTP/2 layer reads and writes, and
    /// the task serving it.
    private struct HTTP2Link {
        let stream: EventLoopByteStream
        let task: Task<Void, Never>
    }

    /// The HTTP/1.1 state machine, boxed so that the phase's payload is one reference and
    /// events mutate the machine in place (no copy of its queue or parser buffer).
    private final class HTTP1Box {
        var machine: HTTP1ConnectionStateMachine

        init(_ machine: HTTP1ConnectionStateMachine) { self.machine = machine }
    }

    /// Where the connection is in its life; each case holds what is valid only there.
    private enum Phase {
        /// The first bytes, until they tell the protocol.
        case sniffing(sniffed: [UInt8])
        /// Speaking HTTP/1.1 through its state machine.
        case http1(HTTP1Box, input: Input)
        /// HTTP/1.1 is over (its state machine asked for a graceful close): writing the last
        /// response, then lingering.
        case http1Flushing(input: Input)
        /// Speaking HTTP/2 through a byte stream.
        case http2(HTTP2Link, input: Input)
        /// The HTTP/2 layer closed the byte stream: writing its last frames, then lingering.
        case http2Flushing(HTTP2Link, input: Input)
        /// Our side is shut down; input is discarded until the peer closes or `until` passes.
        case lingering(until: ContinuousClock.Instant, discardedBytes: Int, http2: HTTP2Link?)
        /// The descriptor is released; every event is ignored.
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
    private var phase = Phase.sniffing(sniffed: [])
    private let openedAt: ContinuousClock.Instant
    /// Running HTTP/1.1 handlers by request sequence.
    private var handlerTasks: [UInt64: Task<Void, Never>] = [:]
    /// HTTP/1.1 response bodies being streamed, by request sequence; cancelled when the
    /// connection closes or the peer stops sending.
    private var bodyStreams: [UInt64: HTTPBodyStream] = [:]
    /// Streamed bodies whose chunks wait in their stream because the send queue is above the
    /// high-water mark (a peer that does not read); taken again once it drains below low water.
    private var streamsAwaitingDrain: Set<UInt64> = []
    private var outbound = OutboundBuffer()
    private var lastWriteProgress: ContinuousClock.Instant
    /// HTTP/2 writers waiting for the send queue to drain.
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
        case .http1(let box, _): box.machine.wantsRead
        case .http1Flushing, .closed: false
        case .http2(let link, let input), .http2Flushing(let link, let input):
            input == .open && !link.stream.isReadPaused
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
        case .sniffing(var sniffed):
            phase = .sniffing(sniffed: [])  // So the append below does not copy.
            sniffed.append(contentsOf: bytes)
            guard let verdict = ProtocolSniffer.classify(sniffed) else {
                phase = .sniffing(sniffed: sniffed)
                return
            }
            switch verdict {
            case .http1:
                let now = core.now
                var machine = HTTP1ConnectionStateMachine(
                    configuration: core.configuration.http1, remoteAddress: remoteAddress, now: now)
                let actions = machine.receive(sniffed, now: now)
                phase = .http1(HTTP1Box(machine), input: .open)
                perform(actions)
            case .http2:
                startHTTP2(initialBytes: sniffed)
            case .tls:
                core.log(
                    "\(remoteAddress) sent a TLS handshake to this plaintext port; "
                        + "configure the client for plaintext (e.g. emulator host with SSL disabled)")
                close()
            }
        case .http1:
            let now = core.now
            withHTTP1 { $0.receive(bytes, now: now) }
        case .http2(let link, _), .http2Flushing(let link, _):
            link.stream.deliver(Array(bytes))
        case .lingering(let until, let discarded, let http2):
            let total = discarded + bytes.count
            if total > Self.lingerDiscardLimit {
                close()
            } else {
                phase = .lingering(until: until, discardedBytes: total, http2: http2)
            }
        case .http1Flushing, .closed:
            break
        }
    }

    private func receivedEndOfStream() {
        switch phase {
        case .sniffing, .lingering, .closed:
            close()
        case .http1(let box, _):
            phase = .http1(box, input: .ended)
            perform(box.machine.receiveEndOfStream(now: core.now))
        case .http1Flushing:
            phase = .http1Flushing(input: .ended)
            flush()
        case .http2(let link, _):
            phase = .http2(link, input: .ended)
            link.stream.deliverEndOfStream()
        case .http2Flushing(let link, _):
            phase = .http2Flushing(link, input: .ended)
            link.stream.deliverEndOfStream()
        }
    }

    // MARK: - HTTP/1.1

    /// Runs one event of the HTTP/1.1 state machine, then performs its actions.
    ///
    /// Once HTTP/1.1 is over (`http1Flushing`), events have no actions left but still flush.
    private func withHTTP1(_ event: (inout HTTP1ConnectionStateMachine) -> [HTTP1ConnectionStateMachine.Action]) {
        switch phase {
        case .http1(let box, _):
            perform(event(&box.machine))
        case .http1Flushing:
            flush()
        case .sniffing, .http2, .http2Flushing, .lingering, .closed:
            break
        }
    }

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
            case .attachStream(let sequence, let stream):
                bodyStreams[sequence] = stream
                let core = self.core
                let token = self.token
                stream.attach { core.loop.execute { core.connection(token)?.streamReadable(sequence: sequence) } }
            case .cancelStream(let stream):
                stream.cancel()
            case .close(let graceful):
                cancelBodyStreams()  // Nothing more of theirs will be sent.
                if !graceful {
                    close()
                    return
                }
                if case .http1(_, let input) = phase { phase = .http1Flushing(input: input) }
            }
        }
        flush()
    }

    private func dispatch(sequence: UInt64, request: HTTPRequest) {
        let handler = core.handler
        let core = self.core
        let token = self.token
        if let response = handler.handleInline(request) {
            // Answered on this thread; delivered after the bytes being parsed now, as a task's
            // answer would be.
            core.loop.execute {
                core.responseReady(connection: token, sequence: sequence, response: response)
            }
            return
        }
        let taken = handler.handleDeferred(request) { response in
            // From the handler's thread; dropped by `responseReady` if the connection is gone.
            core.loop.execute {
                core.responseReady(connection: token, sequence: sequence, response: response)
            }
        }
        if taken { return }
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
        let now = core.now
        withHTTP1 { $0.responseReady(sequence: sequence, response: response, now: now) }
        updateInterest()
    }

    /// A streamed body has chunks or has ended; loop thread. While the send queue is above
    /// the high-water mark the chunks stay in the stream (its `queuedByteCount` grows, so the
    /// producer can see a peer that does not read) until the queue drains.
    func streamReadable(sequence: UInt64) {
        guard let stream = bodyStreams[sequence] else { return }
        if outbound.pendingBytes > Self.writeHighWater {
            streamsAwaitingDrain.insert(sequence)
            return
        }
        // At most the room left below the high-water mark, so the queue never jumps past it.
        let (chunks, more, finished) = stream.take(limit: max(Self.writeHighWater - outbound.pendingBytes, 64 << 10))
        if finished { bodyStreams[sequence] = nil }
        if more { streamsAwaitingDrain.insert(sequence) }
        let now = core.now
        withHTTP1 { $0.streamed(sequence: sequence, chunks: chunks, finished: finished, now: now) }
        updateInterest()
    }

    // MARK: - HTTP/2 byte stream

    private func startHTTP2(initialBytes: [UInt8]) {
        guard let http2Handler = core.http2Handler else {
            core.log("\(remoteAddress) opened an HTTP/2 connection, but no HTTP/2 handler is configured; closing")
            close()
            return
        }
        let stream = EventLoopByteStream(
            remoteAddress: remoteAddress, loop: core.loop, core: core, connection: token, initialBytes: initialBytes)
        // Unstructured on purpose (see `dispatch`): owned by this connection, cancelled on
        // shutdown or close, and the stream it serves is closed when it returns.
        let task = Task {
            await http2Handler.serve(stream)
            stream.close()
        }
        phase = .http2(HTTP2Link(stream: stream, task: task), input: .open)
    }

    /// Queues bytes enqueued by the HTTP/2 layer and tries to send them.
    func enqueueStreamBytes(_ bytes: [UInt8]) {
        guard case .http2 = phase else { return }
        outbound.append(bytes)
        flush()
        updateInterest()
    }

    /// Resumes `continuation` once the send queue is at most the high-water mark (at once if it
    /// is), or fails it if the connection is closing.
    func waitForStreamWritable(_ continuation: CheckedContinuation<Void, any Error>) {
        guard case .http2 = phase else {
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
        switch phase {
        case .http2(let link, let input):
            phase = .http2Flushing(link, input: input)
        case .http2Flushing:
            break
        case .sniffing, .http1, .http1Flushing, .lingering, .closed:
            return
        }
        flush()
        updateInterest()
    }

    /// The HTTP/2 reader caught up; reading may resume.
    func resumeReading() {
        updateInterest()
    }

    // MARK: - Writing

    /// Takes the chunks of the streams held back by a full send queue once it is below low water.
    private func resumeDrainedStreams() {
        guard !streamsAwaitingDrain.isEmpty, !isClosed, outbound.pendingBytes < Self.writeLowWater else { return }
        let waiting = streamsAwaitingDrain.sorted()
        streamsAwaitingDrain = []
        for sequence in waiting { streamReadable(sequence: sequence) }
    }

    private func flush() {
        guard !isClosed else { return }
        if !outbound.isEmpty {
            let (result, written) = outbound.drain { Syscall.write(fd, $0) }
            if written > 0 {
                let now = core.now
                lastWriteProgress = now
                if case .http1(let box, _) = phase { box.machine.wroteBytes(now: now) }
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
        switch phase {
        case .http1Flushing(let input): startLingering(input: input, http2: nil)
        case .http2Flushing(let link, let input): startLingering(input: input, http2: link)
        case .sniffing, .http1, .http2, .lingering, .closed: break
        }
    }

    private func startLingering(input: Input, http2: HTTP2Link?) {
        cancelTasks()
        if input == .ended {
            close()
            return
        }
        Syscall.shutdownWrite(fd)
        // While the server drains for shutdown, linger only briefly: the peer has our FIN
        // behind the last response, and shutdown must not wait on idle keep-alive clients.
        let linger = drainRequested ? Self.drainLingerTime : Self.lingerTime
        phase = .lingering(until: core.now.advanced(by: linger), discardedBytes: 0, http2: http2)
        http2?.stream.markClosed()
        failWriteWaiters()
        updateInterest()
    }

    private func updateInterest() {
        guard !isClosed else { return }
        resumeDrainedStreams()
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
        case .sniffing(let sniffed):
            let limit = sniffed.isEmpty ? core.configuration.idleTimeout : core.configuration.requestHeaderTimeout
            if now - openedAt > limit { close() }
        case .http1, .http1Flushing:
            let outputPending = !outbound.isEmpty
            withHTTP1 { $0.tick(now: now, outputPending: outputPending) }
            updateInterest()
        case .http2, .http2Flushing:
            if !outbound.isEmpty && now - lastWriteProgress > core.configuration.idleTimeout { close() }
        case .lingering(let until, _, _):
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
        case .http1, .http1Flushing:
            withHTTP1 { $0.beginDrain(now: now) }
            updateInterest()
        case .http2(let link, _), .http2Flushing(let link, _):
            link.task.cancel()  // Tells the HTTP/2 handler to wind down (GOAWAY).
        case .lingering, .closed:
            break
        }
    }

    /// Closes the socket now and releases everything tied to it. Idempotent.
    func close() {
        let http2: HTTP2Link?
        switch phase {
        case .closed:
            return
        case .http2(let link, _), .http2Flushing(let link, _):
            http2 = link
        case .lingering(_, _, let link):
            http2 = link
        case .sniffing, .http1, .http1Flushing:
            http2 = nil
        }
        phase = .closed
        cancelTasks()
        bodyStreams = [:]
        http2?.task.cancel()
        http2?.stream.markClosed()
        failWriteWaiters()
        outbound.removeAll()
        core.loop.deregister(fd: fd, token: token)
        Syscall.close(fd)
        core.connectionClosed(self)
    }

    private func cancelTasks() {
        for task in handlerTasks.values { task.cancel() }
        handlerTasks = [:]
        cancelBodyStreams()
    }

    /// Cancels the streamed bodies; each then ends through ``streamReadable(sequence:)``.
    private func cancelBodyStreams() {
        for stream in Array(bodyStreams.values) { stream.cancel() }
    }

    private func failWriteWaiters() {
        let waiters = writeWaiters
        writeWaiters = []
        for waiter in waiters { waiter.resume(throwing: ByteStreamError.closed) }
    }
}
