/// One HTTP/2 connection: owns the ``NGHTTP2Session`` and the table of open streams.
///
/// Every nghttp2 call happens while this actor is isolated, and output is handed to the byte
/// stream with the synchronous ``ByteStreamConnection/enqueue(_:)``, so frames leave in the
/// order nghttp2 produced them even though the actor is re-entered while methods await.
/// Backpressure: after about 1 MiB of output the actor stops serializing frames until the
/// socket drains (``waitIfOutputPaused()``); a stream's `sendData` waits while its own unsent
/// body exceeds ``maxBufferedResponseBytes``.
actor HTTP2Connection {
    /// One open stream: its lifecycle, plus what it reports and who waits on it.
    private struct StreamRecord {
        var state: HTTP2StreamState
        let body: AsyncThrowingStream<[UInt8], any Error>.Continuation
        let requestLine: String
        let startedAt: ContinuousClock.Instant
        var bytesSent = 0
        var sendWaiters: [CheckedContinuation<Void, any Error>] = []
    }

    /// The connection's life.
    private enum Lifecycle {
        /// Taking streams.
        case active
        /// GOAWAY sent: new streams are refused; the connection closes once the rest ended.
        case goingAway
        /// The socket is gone; every stream was failed.
        case ended
    }

    /// Whether frames are serialized now.
    private enum Output {
        /// Serializing; `bytesSinceWritable` toward ``HTTP2Connection/outputBurstBytes``.
        case flowing(bytesSinceWritable: Int)
        /// The burst limit was reached: waiting for the socket to drain.
        case paused
    }

    /// Unsent response body bytes per stream above which `sendData` waits.
    static let maxBufferedResponseBytes = 256 << 10
    /// Output bytes serialized before the actor waits for the socket to drain.
    static let outputBurstBytes = 1 << 20

    private static let connectionSpecificFields: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade",
    ]

    private let connection: any ByteStreamConnection
    private let session: NGHTTP2Session
    private let newStreams: AsyncStream<HTTP2Stream>.Continuation
    private let log: @Sendable (String) -> Void
    private var streams: [Int32: StreamRecord] = [:]
    /// Streams with senders waiting for their body to drain: `flush()` visits only these, so
    /// its cost does not grow with the number of open (e.g. idle Listen) streams.
    private var waitingStreams: Set<Int32> = []
    private var lifecycle = Lifecycle.active
    private var output = Output.flowing(bytesSinceWritable: 0)

    private var ended: Bool {
        if case .ended = lifecycle { return true }
        return false
    }

    private var outputPaused: Bool {
        if case .paused = output { return true }
        return false
    }

    /// Creates the nghttp2 session for `connection` and queues the server preface.
    /// - Throws: ``NGHTTP2Session/SessionError`` if nghttp2 cannot allocate it.
    init(
        connection: any ByteStreamConnection, configuration: HTTP2Configuration,
        newStreams: AsyncStream<HTTP2Stream>.Continuation, log: @escaping @Sendable (String) -> Void
    ) throws(NGHTTP2Session.SessionError) {
        self.connection = connection
        self.session = try NGHTTP2Session(settings: configuration.sessionSettings)
        self.newStreams = newStreams
        self.log = log
    }

    // MARK: - Input

    /// Sends the server preface, then feeds everything the peer sends to nghttp2 until the
    /// connection ends; finally fails every open stream.
    func readLoop() async {
        flush()
        while !ended, let bytes = await connection.read() {
            let events: [NGHTTP2Session.Event]
            do {
                events = try session.receive(bytes)
            } catch {
                log("\(connection.remoteAddress) HTTP/2 connection error: \(error)")
                flush()  // nghttp2 queued a GOAWAY where it could.
                connection.close()
                break
            }
            process(events)
            flush()
            await waitIfOutputPaused()
        }
        connectionEnded()
    }

    private func process(_ events: [NGHTTP2Session.Event]) {
        for event in events {
            switch event {
            case .requestHeaders(let streamID, let fields, let endStream):
                openStream(streamID, fields: fields, endStream: endStream)
            case .data(let streamID, let bytes):
                switch streams[streamID]?.state.dataReceived(byteCount: bytes.count) {
                case .deliver?:
                    streams[streamID]?.body.yield(bytes)
                case .returnCredit?, nil:
                    session.consume(streamID: streamID, byteCount: bytes.count)  // Nobody will read it.
                }
            case .endStream(let streamID):
                streams[streamID]?.state.endStreamReceived()
                streams[streamID]?.body.finish()
            case .streamClosed(let streamID, let errorCode):
                closeStream(streamID, errorCode: HTTP2ErrorCode(rawValue: errorCode))
            }
        }
    }

    private func openStream(_ streamID: Int32, fields: [(name: String, value: String)], endStream: Bool) {
        var method = ""
        var path = ""
        var scheme = ""
        var authority = ""
        var headers = HTTPHeaders()
        for (name, value) in fields {
            switch name {
            case ":method": method = value
            case ":path": path = value
            case ":scheme": scheme = value
            case ":authority": authority = value
            default: if !name.hasPrefix(":") { headers.add(name, value) }
            }
        }
        if authority.isEmpty, let host = headers["host"] { authority = host }
        let (chunks, body) = AsyncThrowingStream<[UInt8], any Error>.makeStream()
        if endStream { body.finish() }
        if case .goingAway = lifecycle {
            body.finish(throwing: HTTP2StreamError.closed(.refusedStream))
            session.resetStream(streamID: streamID, errorCode: HTTP2ErrorCode.refusedStream.rawValue)
            return
        }
        let requestBody = HTTP2RequestBody(chunks: chunks) { [weak self] count in
            await self?.consumed(streamID: streamID, byteCount: count)
        }
        let stream = HTTP2Stream(
            streamID: streamID, method: method, path: path, scheme: scheme, authority: authority, headers: headers,
            remoteAddress: connection.remoteAddress, requestBody: requestBody, connection: self)
        streams[streamID] = StreamRecord(
            state: HTTP2StreamState(remoteEnded: endStream), body: body, requestLine: "\(method) \(path)",
            startedAt: .now)
        if case .terminated = newStreams.yield(stream) {
            streams[streamID] = nil
            body.finish(throwing: HTTP2StreamError.closed(.refusedStream))
            session.resetStream(streamID: streamID, errorCode: HTTP2ErrorCode.refusedStream.rawValue)
        }
    }

    private func closeStream(_ streamID: Int32, errorCode: HTTP2ErrorCode) {
        guard let record = streams.removeValue(forKey: streamID) else { return }
        session.consume(streamID: streamID, byteCount: record.state.unconsumed)
        if record.state.remoteEnded {
            record.body.finish()
        } else {
            record.body.finish(throwing: HTTP2StreamError.closed(errorCode))
        }
        for waiter in record.sendWaiters { waiter.resume(throwing: HTTP2StreamError.closed(errorCode)) }
        let elapsed = ContinuousClock.now - record.startedAt
        let reset = errorCode == .noError ? "" : " reset \(errorCode)"
        log(
            "\(connection.remoteAddress) \"\(record.requestLine) HTTP/2\" \(record.state.response.status ?? 0) "
                + "\(record.bytesSent)B \(Self.format(elapsed))ms\(reset)")
    }

    /// The handler took `byteCount` body bytes: return them to the flow-control windows.
    func consumed(streamID: Int32, byteCount: Int) async {
        // Closing already returned the credit of a stream that is gone.
        guard let credit = streams[streamID]?.state.consumed(byteCount: byteCount) else { return }
        session.consume(streamID: streamID, byteCount: credit)
        flush()
        await waitIfOutputPaused()
    }

    // MARK: - Output

    /// Sends response HEADERS; see ``HTTP2Stream/sendHeaders(status:_:endStream:)``.
    func sendHeaders(streamID: Int32, status: Int, headers: HTTPHeaders, endStream: Bool) async throws(HTTP2StreamError)
    {
        guard let record = streams[streamID] else { throw .closed(nil) }
        try record.state.checkHeaders()
        var fields: [(name: String, value: String)] = [(":status", String((100...999).contains(status) ? status : 500))]
        for (name, value) in headers {
            let lowercased = name.lowercased()
            if !Self.connectionSpecificFields.contains(lowercased) { fields.append((lowercased, value)) }
        }
        guard session.submitResponse(streamID: streamID, fields: fields, endStream: endStream) else {
            throw .closed(nil)
        }
        streams[streamID]?.state.headersSent(status: status, endStream: endStream)
        flush()
        await waitIfOutputPaused()
    }

    /// Queues response body bytes; see ``HTTP2Stream/sendData(_:endStream:)``.
    func sendData(streamID: Int32, bytes: [UInt8], endStream: Bool) async throws(HTTP2StreamError) {
        guard streams[streamID] != nil else { throw .closed(nil) }
        try streams[streamID]?.state.sendData(endStream: endStream)
        session.appendData(streamID: streamID, bytes: bytes, endStream: endStream)
        streams[streamID]?.bytesSent += bytes.count
        flush()
        while streams[streamID] != nil && session.pendingBodyBytes(streamID: streamID) > Self.maxBufferedResponseBytes {
            if outputPaused {
                // This task paused the output (or found it paused): it must drive the socket,
                // or nobody might, and its own waiter would never be resumed.
                await waitIfOutputPaused()
                continue
            }
            do {
                try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<Void, any Error>) in
                    streams[streamID]?.sendWaiters.append(waiter)
                    waitingStreams.insert(streamID)
                }
            } catch {
                throw (error as? HTTP2StreamError) ?? .closed(nil)
            }
        }
        await waitIfOutputPaused()
    }

    /// Ends the response with trailers; see ``HTTP2Stream/sendTrailers(_:)``.
    func sendTrailers(streamID: Int32, trailers: HTTPHeaders) async throws(HTTP2StreamError) {
        guard streams[streamID] != nil else { throw .closed(nil) }
        try streams[streamID]?.state.sendTrailers()
        session.submitTrailers(streamID: streamID, fields: trailers.map { ($0.name.lowercased(), $0.value) })
        flush()
        await waitIfOutputPaused()
    }

    /// Resets the stream; see ``HTTP2Stream/reset(_:)``.
    func reset(streamID: Int32, code: HTTP2ErrorCode) async {
        guard streams[streamID] != nil else { return }
        session.resetStream(streamID: streamID, errorCode: code.rawValue)
        flush()
        await waitIfOutputPaused()
    }

    /// Serializes pending frames into the byte stream until the burst limit, then wakes
    /// senders whose stream body drained.
    private func flush() {
        guard !ended else { return }
        while !outputPaused, let chunk = session.nextOutput() {
            do {
                try connection.enqueue(chunk)
            } catch {
                connectionEnded()
                return
            }
            guard case .flowing(let sent) = output else { break }
            let total = sent + chunk.count
            output = total >= Self.outputBurstBytes ? .paused : .flowing(bytesSinceWritable: total)
        }
        process(session.takeEvents())
        for streamID in waitingStreams {
            guard let record = streams[streamID], !record.sendWaiters.isEmpty else {
                waitingStreams.remove(streamID)
                continue
            }
            if session.pendingBodyBytes(streamID: streamID) <= Self.maxBufferedResponseBytes / 2 {
                streams[streamID]?.sendWaiters = []
                waitingStreams.remove(streamID)
                for waiter in record.sendWaiters { waiter.resume() }
            }
        }
        let goneAway: Bool = if case .goingAway = lifecycle { streams.isEmpty } else { false }
        if !session.isActive || goneAway { connection.close() }
    }

    /// If the burst limit was reached, waits until the socket drained and flushes again.
    private func waitIfOutputPaused() async {
        guard outputPaused, !ended else { return }
        do {
            try await connection.waitUntilWritable()
        } catch {
            connectionEnded()
            return
        }
        output = .flowing(bytesSinceWritable: 0)
        flush()
    }

    // MARK: - Lifecycle

    /// A handler task started for the stream.
    func claim(streamID: Int32) {
        streams[streamID]?.state.claim()
    }

    /// The handler returned: finish what it left open (reset if no headers were sent, end the
    /// body otherwise) and stop buffering request bytes nobody will read.
    func handlerFinished(streamID: Int32) async {
        guard let finished = streams[streamID]?.state.handlerFinished(), let record = streams[streamID] else { return }
        switch finished.ending {
        case .reset: session.resetStream(streamID: streamID, errorCode: HTTP2ErrorCode.internalError.rawValue)
        case .endBody: session.appendData(streamID: streamID, bytes: [], endStream: true)
        case .alreadyEnded: break
        }
        session.consume(streamID: streamID, byteCount: finished.credit)
        record.body.finish()
        flush()
        await waitIfOutputPaused()
    }

    /// Stops taking streams: GOAWAY (RFC 9113 §6.8), refuse streams no handler picked up, and
    /// close once the rest have ended.
    /// - Returns: whether the connection had already ended (handlers should then be cancelled).
    func beginShutdown() async -> Bool {
        guard !ended else { return true }
        if case .active = lifecycle {
            lifecycle = .goingAway
            session.submitGoaway(errorCode: HTTP2ErrorCode.noError.rawValue)
        }
        for (streamID, record) in streams where record.state.isUnclaimed {
            session.resetStream(streamID: streamID, errorCode: HTTP2ErrorCode.refusedStream.rawValue)
        }
        flush()
        await waitIfOutputPaused()
        return false
    }

    /// The socket is gone: fail every stream and stop accepting new ones.
    private func connectionEnded() {
        guard !ended else { return }
        lifecycle = .ended
        let open = streams
        streams = [:]
        for (_, record) in open {
            record.body.finish(throwing: HTTP2StreamError.closed(nil))
            for waiter in record.sendWaiters { waiter.resume(throwing: HTTP2StreamError.closed(nil)) }
        }
        newStreams.finish()
        connection.close()
    }

    private static func format(_ duration: Duration) -> String {
        let tenths = Int((duration.milliseconds * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
