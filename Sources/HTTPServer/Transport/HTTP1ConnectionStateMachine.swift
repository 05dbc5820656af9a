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
        /// The response for a request the connection rejects itself.
        var errorResponse: TransportErrorResponse = plainTransportErrorResponse
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
        /// Deliver the chunks `stream` receives from now on with
        /// ``streamed(sequence:chunks:finished:now:)``: its response head is written.
        case attachStream(sequence: UInt64, HTTPBodyStream)
        /// Cancel `stream`: its response sends no body (`HEAD`, 204, 304), so the producer
        /// should stop.
        case cancelStream(HTTPBodyStream)
        /// Close the connection: `graceful` after queued bytes are sent (then linger on reads so
        /// the peer sees the response, RFC 9112 §9.6), otherwise at once. Handlers still running
        /// should be cancelled. No further actions follow.
        case close(graceful: Bool)
    }

    /// Where the connection is in its life; each case holds what is valid only there.
    ///
    /// `reading` → `finishing` → `closed`, or straight to `closed` (a timeout, the peer's end
    /// of stream with nothing outstanding). Payloads are plain values (no references), so a
    /// transition is a store: the parser, which owns the receive buffer, is a stored property
    /// of the machine, consulted only while `reading`.
    private enum State: Sendable {
        /// Taking requests: the parser turns received bytes into requests. After the peer's
        /// end of stream (`input: .ended`) only bytes already received are parsed.
        case reading(Reading, input: Input)
        /// Taking no more requests (the last one said `connection: close`, was rejected, timed
        /// out, or the server is draining): the last queued response closes the connection.
        case finishing
        /// Closed; every event is ignored.
        case closed
    }

    /// Whether the peer may still send.
    private enum Input: Sendable {
        case open
        case ended
    }

    /// The request clocks while requests are taken.
    private struct Reading: Sendable {
        /// When the request head now arriving began, for ``Configuration/requestHeadTimeout``.
        var headStartedAt: ContinuousClock.Instant?
        /// When bytes last arrived (or `100 Continue` was sent), for ``Configuration/bodyReadTimeout``.
        var lastReceiveAt: ContinuousClock.Instant
    }

    /// One request whose response has not been written yet.
    private struct Slot: Sendable {
        /// How far the request has got.
        enum Stage: Sendable {
            /// Its head asked for `100 Continue` (owed until written); its body has not arrived.
            case awaitingBody(continueOwed: Bool)
            /// Dispatched to its handler; answered as the request's `context` says.
            case dispatched(HTTP1ResponseSerializer.Context)
            /// The response is ready; `context` is `nil` for a request rejected before it was
            /// complete (no method or version known).
            case answered(HTTPResponse, context: HTTP1ResponseSerializer.Context?)
            /// The head is written and the streamed body is being sent; `bytes` so far.
            case streaming(HTTP1ResponseSerializer.Streaming, status: Int, bytes: Int)
        }

        let sequence: UInt64
        var stage: Stage
        var requestLine = "-"
        var startedAt: ContinuousClock.Instant
        /// The connection closes after this response (an error, a timeout, or the last one
        /// while draining).
        var closesConnection = false
    }

    /// Limits and timeouts in force.
    let configuration: Configuration
    /// The peer, `"host:port"`; copied into every dispatched request and log line.
    let remoteAddress: String
    private var state: State
    /// Turns received bytes into requests; fed and read only in the `reading` state.
    private var parser: HTTP1RequestParser
    /// Outstanding requests in order; empty once closed.
    private var slots: [Slot] = []
    private var nextSequence: UInt64 = 0
    /// Last traffic either way, for ``Configuration/idleTimeout``.
    private var lastActivityAt: ContinuousClock.Instant

    /// A fresh connection from `remoteAddress` (`"host:port"`), opened at `now`.
    init(configuration: Configuration, remoteAddress: String, now: ContinuousClock.Instant) {
        self.configuration = configuration
        self.remoteAddress = remoteAddress
        state = .reading(Reading(lastReceiveAt: now), input: .open)
        parser = HTTP1RequestParser(limits: configuration.limits)
        lastActivityAt = now
    }

    /// Whether the owner should read from the socket now.
    var wantsRead: Bool {
        guard case .reading(_, input: .open) = state else { return false }
        return slots.count < configuration.maxPipelineDepth
    }

    /// Requests dispatched or rejected whose responses have not been written yet.
    var outstandingResponses: Int { slots.count }

    /// Whether the connection has closed (a ``Action/close(graceful:)`` was returned).
    var isClosed: Bool {
        if case .closed = state { return true }
        return false
    }

    // MARK: - Events

    /// Bytes arrived from the peer.
    mutating func receive(_ bytes: some Collection<UInt8>, now: ContinuousClock.Instant) -> [Action] {
        switch state {
        case .reading(var reading, let input):
            reading.lastReceiveAt = now
            state = .reading(reading, input: input)
            parser.feed(bytes)
        case .finishing:
            break  // No request will be parsed again: the bytes are dropped.
        case .closed:
            return []
        }
        lastActivityAt = now
        return pump(now: now)
    }

    /// The peer closed its sending side (end of stream).
    ///
    /// A peer that closed the whole connection looks the same as one that only half-closed,
    /// so running handlers are cancelled (as a vanished client's should be) but complete
    /// requests are still answered with whatever their handlers return; then the connection
    /// closes. Writing to a vanished peer fails and closes it sooner.
    mutating func receiveEndOfStream(now: ContinuousClock.Instant) -> [Action] {
        switch state {
        case .reading(let reading, _):
            state = .reading(reading, input: .ended)
        case .finishing:
            break
        case .closed:
            return []
        }
        let actions = pump(now: now)
        return isClosed || slots.isEmpty ? actions : actions + [.cancelHandlers]
    }

    /// The handler for request `sequence` returned `response`. Unknown sequences are ignored.
    mutating func responseReady(sequence: UInt64, response: HTTPResponse, now: ContinuousClock.Instant) -> [Action] {
        guard !isClosed, let index = slots.firstIndex(where: { $0.sequence == sequence }),
            case .dispatched(let context) = slots[index].stage
        else { return [] }
        slots[index].stage = .answered(response, context: context)
        return pump(now: now)
    }

    /// Chunks of the streamed body of request `sequence` arrived; `finished` when it ended.
    /// Unknown sequences are ignored.
    mutating func streamed(sequence: UInt64, chunks: [[UInt8]], finished: Bool, now: ContinuousClock.Instant)
        -> [Action]
    {
        guard !isClosed, let first = slots.first, first.sequence == sequence,
            case .streaming(let streaming, let status, var bytes) = first.stage
        else { return [] }
        var actions: [Action] = []
        for chunk in chunks where !chunk.isEmpty {
            bytes += chunk.count
            actions.append(.write(streaming.chunked ? HTTP1ResponseSerializer.chunk(chunk) : chunk))
        }
        lastActivityAt = now
        guard finished else {
            slots[0].stage = .streaming(streaming, status: status, bytes: bytes)
            return actions
        }
        if streaming.chunked { actions.append(.write(HTTP1ResponseSerializer.lastChunk)) }
        slots.removeFirst()
        actions.append(.log(logLine(first, status: status, bytes: bytes, now: now)))
        if streaming.closesConnection || first.closesConnection { return actions + close(graceful: true) }
        return actions + pump(now: now)
    }

    /// Some queued bytes were written.
    mutating func wroteBytes(now: ContinuousClock.Instant) {
        lastActivityAt = now
    }

    /// Checks the timeouts; `outputPending` says whether written bytes are still queued.
    mutating func tick(now: ContinuousClock.Instant, outputPending: Bool) -> [Action] {
        switch state {
        case .closed:
            return []
        case .finishing:
            return outputPending && now - lastActivityAt > configuration.idleTimeout ? close(graceful: false) : []
        case .reading(let reading, _):
            if outputPending {
                return now - lastActivityAt > configuration.idleTimeout ? close(graceful: false) : []
            }
            guard wantsRead else { return [] }
            switch parser.progress {
            case .head:
                if let started = reading.headStartedAt, now - started > configuration.requestHeadTimeout {
                    state = .finishing
                    let response = configuration.errorResponse(408, "request head not received within the timeout")
                    slots.append(
                        Slot(
                            sequence: nextSequence, stage: .answered(response, context: nil), startedAt: now,
                            closesConnection: true))
                    nextSequence += 1
                    return flush(now: now)
                }
            case .body:
                if now - reading.lastReceiveAt > configuration.bodyReadTimeout { return close(graceful: false) }
            case .idle:
                if slots.isEmpty && now - lastActivityAt > configuration.idleTimeout { return close(graceful: false) }
            case .failed:
                break
            }
            return []
        }
    }

    /// Server shutdown: take no new requests, finish outstanding ones (the last response says
    /// `connection: close`), then close. A request still being received is abandoned.
    mutating func beginDrain(now: ContinuousClock.Instant) -> [Action] {
        switch state {
        case .reading, .finishing:
            state = .finishing
        case .closed:
            return []
        }
        slots.removeAll {
            if case .awaitingBody = $0.stage { return true }
            return false
        }
        if let first = slots.first, case .streaming(let streaming, let status, let bytes) = first.stage {
            // A streamed body may never end by itself: end it now (its producer is cancelled).
            var actions: [Action] = streaming.chunked ? [.write(HTTP1ResponseSerializer.lastChunk)] : []
            actions.append(.log(logLine(first, status: status, bytes: bytes, now: now)))
            return actions + close(graceful: true)
        }
        guard let last = slots.indices.last else { return close(graceful: true) }
        slots[last].closesConnection = true
        return flush(now: now)
    }

    // MARK: - Internals

    /// Writes what is ready (freeing pipeline slots), parses what now fits, writes again.
    private mutating func pump(now: ContinuousClock.Instant) -> [Action] {
        var actions = flush(now: now)
        guard case .reading(var reading, let input) = state else { return actions }
        var takesMore = true
        while takesMore && slots.count < configuration.maxPipelineDepth, let event = parser.next() {
            switch event {
            case .expectContinue:
                slots.append(Slot(sequence: nextSequence, stage: .awaitingBody(continueOwed: true), startedAt: now))
            case .request(let parsed):
                var request = parsed.request
                request.remoteAddress = remoteAddress
                let context = HTTP1ResponseSerializer.Context(
                    requestMethod: request.method, requestMinorVersion: parsed.minorVersion,
                    keepAlive: parsed.keepAlive)
                if let last = slots.indices.last, slots[last].sequence == nextSequence {
                    slots[last].stage = .dispatched(context)
                    slots[last].requestLine = parsed.requestLine
                    slots[last].startedAt = now
                } else {
                    slots.append(
                        Slot(
                            sequence: nextSequence, stage: .dispatched(context), requestLine: parsed.requestLine,
                            startedAt: now))
                }
                actions.append(.dispatch(sequence: nextSequence, request: request))
                nextSequence += 1
                reading.headStartedAt = nil
                if !parsed.keepAlive { takesMore = false }
            case .error(let error):
                let response = configuration.errorResponse(error.status, error.description)
                var slot = Slot(sequence: nextSequence, stage: .answered(response, context: nil), startedAt: now)
                if let last = slots.indices.last, slots[last].sequence == nextSequence {
                    slot.startedAt = slots.removeLast().startedAt  // The request that was awaiting its body.
                }
                slot.closesConnection = true
                slots.append(slot)
                nextSequence += 1
                takesMore = false
            }
        }
        if !takesMore {
            state = .finishing  // What the parser still buffers is never read.
        } else {
            if parser.progress == .head {
                if reading.headStartedAt == nil { reading.headStartedAt = now }
            } else {
                reading.headStartedAt = nil
            }
            state = .reading(reading, input: input)
        }
        return actions + flush(now: now)
    }

    /// Writes the responses at the head of the queue that are ready, and `100 Continue` when
    /// the request at the head waits for it; closes when nothing more will be answered.
    private mutating func flush(now: ContinuousClock.Instant) -> [Action] {
        var actions: [Action] = []
        while let first = slots.first {
            let response: HTTPResponse
            let answeredContext: HTTP1ResponseSerializer.Context?
            switch first.stage {
            case .awaitingBody(continueOwed: true):
                actions.append(.write(HTTP1ResponseSerializer.continueResponse))
                slots[0].stage = .awaitingBody(continueOwed: false)
                bodyClockStarts(now: now)
                return actions
            case .awaitingBody(continueOwed: false), .dispatched, .streaming:
                return actions
            case .answered(let ready, let context):
                response = ready
                answeredContext = context
            }
            var context =
                answeredContext
                ?? .init(requestMethod: "GET", requestMinorVersion: 1, keepAlive: false)
            context.keepAlive = context.keepAlive && !first.closesConnection
            let message = HTTP1ResponseSerializer.serialize(response, context: context)
            actions.append(.write(message.head))
            if !message.body.isEmpty { actions.append(.write(message.body)) }
            let status = (100...999).contains(response.status) ? response.status : 500
            if let stream = response.bodyStream {
                if let streaming = message.streaming {
                    // The slot stays at the head, holding back later responses, until the body ends.
                    slots[0].stage = .streaming(streaming, status: status, bytes: response.body.count)
                    actions.append(.attachStream(sequence: first.sequence, stream))
                    return actions
                }
                actions.append(.cancelStream(stream))
            }
            slots.removeFirst()
            actions.append(.log(logLine(first, status: status, bytes: response.body.count, now: now)))
            if !context.keepAlive { return actions + close(graceful: true) }
        }
        guard slots.isEmpty else { return actions }
        switch state {
        case .reading(_, input: .ended):
            return actions + close(graceful: true)
        case .finishing:
            // Unreachable while the last queued response closes; kept so the connection
            // cannot be left with reading paused and nothing to answer.
            return actions + close(graceful: true)
        case .reading, .closed:
            return actions
        }
    }

    /// The access-log line of a response that is complete.
    private func logLine(_ slot: Slot, status: Int, bytes: Int, now: ContinuousClock.Instant) -> String {
        let elapsed = (now - slot.startedAt).milliseconds
        return "\(remoteAddress) \"\(slot.requestLine)\" \(status) \(bytes)B \(LogFormat.milliseconds(elapsed))ms"
    }

    /// The peer was told to send the body (`100 Continue`): its body clock starts now.
    private mutating func bodyClockStarts(now: ContinuousClock.Instant) {
        guard case .reading(var reading, let input) = state else { return }
        reading.lastReceiveAt = now
        state = .reading(reading, input: input)
    }

    private mutating func close(graceful: Bool) -> [Action] {
        state = .closed
        slots.removeAll()
        return [.close(graceful: graceful)]
    }
}
