/// The HTTP/1.1 behaviour of one connection, as a state machine that returns actions.
///
/// It owns the request parser and the ordered queue of outstanding responses; its owner feeds it
/// received bytes, handler results and clock ticks, and performs the returned ``Action``s
/// (dispatching handlers, writing, closing). No I/O and no clock of its own: `now` is passed in.
///
/// Guarantees: responses leave in request order however handlers finish (RFC 9112 §9.3.2);
/// at most ``Configuration/maxPipelineDepth`` requests are outstanding (reading pauses beyond
/// that); a rejected request gets its error response after all earlier responses, then the
/// connection closes; `100 Continue` is sent when the waiting request reaches the head of
/// the queue.
struct HTTP1ConnectionStateMachine: Sendable {
    /// Limits and timeouts for one connection.
    struct Configuration: Sendable {
        var limits = HTTP1RequestParser.Limits()
        /// Close a connection with nothing outstanding after this long without traffic; also the
        /// longest a pending write may make no progress.
        var idleTimeout: Duration = .seconds(60)
        /// A request head must complete within this time of its first byte, else 408 and close.
        var requestHeadTimeout: Duration = .seconds(10)
        /// A request body may pause at most this long between received bytes, else close.
        var bodyReadTimeout: Duration = .seconds(30)
        /// Requests parsed but not yet answered before reading pauses.
        var maxPipelineDepth = 16
    }

    /// An effect the owner must perform, in order.
    enum Action: Sendable {
        /// Run the handler for `request`; report its response with ``responseReady(sequence:response:now:)``.
        case dispatch(sequence: UInt64, request: HTTPRequest)
        /// Queue `bytes` for sending.
        case write([UInt8])
        /// Emit one access-log line.
        case log(String)
        /// Cancel the tasks of handlers still running: the peer has stopped sending, which
        /// usually means it went away. Their responses are still written if they arrive.
        case cancelHandlers
        /// Close the connection: `graceful` after queued bytes are sent (then linger on reads so
        /// the peer sees the response, RFC 9112 §9.6), otherwise at once. Handlers still running
        /// should be cancelled. No further actions follow.
        case close(graceful: Bool)
    }

    private struct Slot: Sendable {
        let sequence: UInt64
        var context: HTTP1ResponseSerializer.Context?
        var requestLine = "-"
        var startedAt: ContinuousClock.Instant
        var awaitingContinue = false
        var response: HTTPResponse?
        var closesConnection = false
    }

    /// Limits and timeouts in force.
    let configuration: Configuration
    /// The peer, `"host:port"`; copied into every dispatched request and log line.
    let remoteAddress: String
    private var parser: HTTP1RequestParser
    private var slots: [Slot] = []
    private var nextSequence: UInt64 = 0
    private var acceptingRequests = true
    private var inputClosed = false
    private var draining = false
    private var closed = false
    private var headStartedAt: ContinuousClock.Instant?
    private var lastReceiveAt: ContinuousClock.Instant
    private var lastActivityAt: ContinuousClock.Instant

    /// A fresh connection from `remoteAddress` (`"host:port"`), opened at `now`.
    init(configuration: Configuration, remoteAddress: String, now: ContinuousClock.Instant) {
        self.configuration = configuration
        self.remoteAddress = remoteAddress
        parser = HTTP1RequestParser(limits: configuration.limits)
        lastReceiveAt = now
        lastActivityAt = now
    }

    /// Whether the owner should read from the socket now.
    var wantsRead: Bool {
        !closed && !inputClosed && acceptingRequests && slots.count < configuration.maxPipelineDepth
    }

    /// Requests dispatched or rejected whose responses have not been written yet.
    var outstandingResponses: Int { slots.count }

    // MARK: - Events

    /// Bytes arrived from the peer.
    mutating func receive(_ bytes: some Collection<UInt8>, now: ContinuousClock.Instant) -> [Action] {
        guard !closed else { return [] }
        lastReceiveAt = now
        lastActivityAt = now
        parser.feed(bytes)
        return pump(now: now)
    }

    /// The peer closed its sending side (end of stream).
    ///
    /// A peer that closed the whole connection looks the same as one that only half-closed,
    /// so running handlers are cancelled (as a vanished client's should be) but complete
    /// requests are still answered with whatever their handlers return; then the connection
    /// closes. Writing to a vanished peer fails and closes it sooner.
    mutating func receiveEndOfStream(now: ContinuousClock.Instant) -> [Action] {
        guard !closed else { return [] }
        inputClosed = true
        let actions = pump(now: now)
        return closed || slots.isEmpty ? actions : actions + [.cancelHandlers]
    }

    /// The handler for request `sequence` returned `response`. Unknown sequences are ignored.
    mutating func responseReady(sequence: UInt64, response: HTTPResponse, now: ContinuousClock.Instant) -> [Action] {
        guard !closed, let index = slots.firstIndex(where: { $0.sequence == sequence }) else { return [] }
        slots[index].response = response
        return pump(now: now)
    }

    /// Some queued bytes were written.
    mutating func wroteBytes(now: ContinuousClock.Instant) {
        lastActivityAt = now
    }

    /// Checks the timeouts; `outputPending` says whether written bytes are still queued.
    mutating func tick(now: ContinuousClock.Instant, outputPending: Bool) -> [Action] {
        guard !closed else { return [] }
        if outputPending {
            return now - lastActivityAt > configuration.idleTimeout ? close(graceful: false) : []
        }
        guard wantsRead else { return [] }
        switch parser.progress {
        case .head:
            if let started = headStartedAt, now - started > configuration.requestHeadTimeout {
                acceptingRequests = false
                var slot = Slot(sequence: nextSequence, startedAt: now)
                slot.response = .googleError(408, "request head not received within the timeout")
                slot.closesConnection = true
                slots.append(slot)
                nextSequence += 1
                return flush(now: now)
            }
        case .body:
            if now - lastReceiveAt > configuration.bodyReadTimeout { return close(graceful: false) }
        case .idle:
            if slots.isEmpty && now - lastActivityAt > configuration.idleTimeout { return close(graceful: false) }
        case .failed:
            break
        }
        return []
    }

    /// Server shutdown: take no new requests, finish outstanding ones (the last response says
    /// `connection: close`), then close. A request still being received is abandoned.
    mutating func beginDrain(now: ContinuousClock.Instant) -> [Action] {
        guard !closed else { return [] }
        draining = true
        acceptingRequests = false
        slots.removeAll { $0.context == nil && $0.response == nil }
        return flush(now: now)
    }

    // MARK: - Internals

    /// Writes what is ready (freeing pipeline slots), parses what now fits, writes again.
    private mutating func pump(now: ContinuousClock.Instant) -> [Action] {
        var actions = flush(now: now)
        if closed { return actions }
        while acceptingRequests && slots.count < configuration.maxPipelineDepth, let event = parser.next() {
            switch event {
            case .expectContinue:
                var slot = Slot(sequence: nextSequence, startedAt: now)
                slot.awaitingContinue = true
                slots.append(slot)
            case .request(let parsed):
                var request = parsed.request
                request.remoteAddress = remoteAddress
                let context = HTTP1ResponseSerializer.Context(
                    requestMethod: request.method, requestMinorVersion: parsed.minorVersion,
                    keepAlive: parsed.keepAlive)
                if let last = slots.indices.last, slots[last].sequence == nextSequence {
                    slots[last].context = context
                    slots[last].requestLine = parsed.requestLine
                    slots[last].startedAt = now
                    slots[last].awaitingContinue = false
                } else {
                    var slot = Slot(sequence: nextSequence, context: context, startedAt: now)
                    slot.requestLine = parsed.requestLine
                    slots.append(slot)
                }
                actions.append(.dispatch(sequence: nextSequence, request: request))
                nextSequence += 1
                headStartedAt = nil
                if !parsed.keepAlive { acceptingRequests = false }
            case .error(let error):
                var slot = Slot(sequence: nextSequence, startedAt: now)
                if let last = slots.indices.last, slots[last].sequence == nextSequence { slot = slots.removeLast() }
                slot.response = HTTP1ResponseSerializer.errorResponse(for: error)
                slot.closesConnection = true
                slot.awaitingContinue = false
                slots.append(slot)
                nextSequence += 1
                acceptingRequests = false
            }
        }
        if parser.progress == .head {
            if headStartedAt == nil { headStartedAt = now }
        } else {
            headStartedAt = nil
        }
        return actions + flush(now: now)
    }

    private mutating func flush(now: ContinuousClock.Instant) -> [Action] {
        var actions: [Action] = []
        while let first = slots.first {
            guard let response = first.response else {
                if first.awaitingContinue {
                    actions.append(.write(HTTP1ResponseSerializer.continueResponse))
                    slots[0].awaitingContinue = false
                    lastReceiveAt = now  // The body clock starts when the peer is told to send.
                }
                break
            }
            slots.removeFirst()
            let isLastWhileDraining = draining && slots.isEmpty
            var context =
                first.context
                ?? .init(requestMethod: "GET", requestMinorVersion: 1, keepAlive: false)
            context.keepAlive = context.keepAlive && !first.closesConnection && !isLastWhileDraining
            let message = HTTP1ResponseSerializer.serialize(response, context: context)
            actions.append(.write(message.head))
            if !message.body.isEmpty { actions.append(.write(message.body)) }
            let elapsed = (now - first.startedAt).milliseconds
            let status = (100...999).contains(response.status) ? response.status : 500
            actions.append(
                .log(
                    "\(remoteAddress) \"\(first.requestLine)\" \(status) \(response.body.count)B "
                        + "\(Self.formatMilliseconds(elapsed))ms"))
            if !context.keepAlive { return actions + close(graceful: true) }
        }
        if slots.isEmpty && (inputClosed || draining) { return actions + close(graceful: true) }
        return actions
    }

    private mutating func close(graceful: Bool) -> [Action] {
        closed = true
        slots.removeAll()
        return [.close(graceful: graceful)]
    }

    private static func formatMilliseconds(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
