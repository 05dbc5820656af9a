/// The server's bookkeeping for one HTTP/2 stream, as a state machine that returns actions.
///
/// Two sides, each an enum whose cases carry what is valid in them: the response we send
/// (``Response``: headers, then body, then the end, RFC 9113 §8.1) and the reader of the
/// request body (``Reader``: who takes the bytes and how many still owe flow-control credit,
/// RFC 9113 §5.2). The owner (``HTTP2Connection``) performs the nghttp2 calls; no I/O here.
struct HTTP2StreamState: Sendable, Equatable {
    /// The response side.
    enum Response: Sendable, Equatable {
        /// No response HEADERS yet.
        case awaitingHeaders
        /// HEADERS with `status` sent; DATA or trailers may follow.
        case streaming(status: Int)
        /// The response ended (END_STREAM queued) with `status`.
        case ended(status: Int)

        /// The response status, once HEADERS were sent.
        var status: Int? {
            switch self {
            case .awaitingHeaders: nil
            case .streaming(let status), .ended(let status): status
            }
        }
    }

    /// Who takes request body bytes.
    enum Reader: Sendable, Equatable {
        /// No handler task has started yet (a GOAWAY refuses the stream); `unconsumed` bytes
        /// were delivered to the body and not yet credited back.
        case unclaimed(unconsumed: Int)
        /// A handler is running; `unconsumed` as above.
        case running(unconsumed: Int)
        /// The handler returned: nobody reads, arriving bytes are credited back at once.
        case finished
    }

    /// What to do with a received DATA chunk.
    enum DataAction: Sendable, Equatable {
        /// Yield it to the request body; credit returns when the handler takes it.
        case deliver
        /// Nobody will read it: return its credit now.
        case returnCredit
    }

    /// How to finish the response when the handler returns without ending it.
    enum ResponseEnding: Sendable, Equatable {
        /// No HEADERS were sent: reset the stream (`INTERNAL_ERROR`).
        case reset
        /// HEADERS were sent: end the body with an empty END_STREAM DATA frame.
        case endBody
        /// The response had already ended.
        case alreadyEnded
    }

    /// The response side; see ``Response``.
    private(set) var response = Response.awaitingHeaders
    /// The request-body side; see ``Reader``.
    private(set) var reader = Reader.unclaimed(unconsumed: 0)
    /// Whether the peer ended its side (END_STREAM received, RFC 9113 §5.1 half-closed remote).
    private(set) var remoteEnded: Bool

    /// A stream whose request headers arrived; `remoteEnded` if they carried END_STREAM.
    init(remoteEnded: Bool) {
        self.remoteEnded = remoteEnded
    }

    /// Whether no handler task has started for the stream.
    var isUnclaimed: Bool {
        if case .unclaimed = reader { return true }
        return false
    }

    /// Delivered request bytes not yet credited back to flow control.
    var unconsumed: Int {
        switch reader {
        case .unclaimed(let count), .running(let count): count
        case .finished: 0
        }
    }

    // MARK: - Request side

    /// A DATA chunk of `byteCount` bytes arrived.
    mutating func dataReceived(byteCount: Int) -> DataAction {
        switch reader {
        case .unclaimed(let count):
            reader = .unclaimed(unconsumed: count + byteCount)
            return .deliver
        case .running(let count):
            reader = .running(unconsumed: count + byteCount)
            return .deliver
        case .finished:
            return .returnCredit
        }
    }

    /// The peer ended its side.
    mutating func endStreamReceived() {
        remoteEnded = true
    }

    /// A handler task started for the stream.
    mutating func claim() {
        if case .unclaimed(let count) = reader { reader = .running(unconsumed: count) }
    }

    /// The handler took `byteCount` bytes of the body.
    /// - Returns: the credit to return (never more than is owed).
    mutating func consumed(byteCount: Int) -> Int {
        switch reader {
        case .unclaimed(let count):
            let credit = min(byteCount, count)
            reader = .unclaimed(unconsumed: count - credit)
            return credit
        case .running(let count):
            let credit = min(byteCount, count)
            reader = .running(unconsumed: count - credit)
            return credit
        case .finished:
            return 0
        }
    }

    /// The handler returned.
    /// - Returns: how to finish the response, and the credit still owed (to return now).
    mutating func handlerFinished() -> (ending: ResponseEnding, credit: Int) {
        let credit = unconsumed
        reader = .finished
        switch response {
        case .awaitingHeaders:
            return (.reset, credit)
        case .streaming(let status):
            response = .ended(status: status)
            return (.endBody, credit)
        case .ended:
            return (.alreadyEnded, credit)
        }
    }

    // MARK: - Response side

    /// Checks that response HEADERS may be sent now.
    /// - Throws: ``HTTP2StreamError/headersAlreadySent`` after the first HEADERS.
    func checkHeaders() throws(HTTP2StreamError) {
        guard case .awaitingHeaders = response else { throw .headersAlreadySent }
    }

    /// Response HEADERS with `status` were queued; `endStream` if they ended the response.
    mutating func headersSent(status: Int, endStream: Bool) {
        response = endStream ? .ended(status: status) : .streaming(status: status)
    }

    /// Response DATA is queued; `endStream` if it ends the response.
    /// - Throws: ``HTTP2StreamError/invalidState(_:)`` before HEADERS or after the end.
    mutating func sendData(endStream: Bool) throws(HTTP2StreamError) {
        switch response {
        case .awaitingHeaders: throw .invalidState("data before response headers")
        case .ended: throw .invalidState("data after the end of the response")
        case .streaming(let status): if endStream { response = .ended(status: status) }
        }
    }

    /// Trailers are queued; they end the response.
    /// - Throws: ``HTTP2StreamError/invalidState(_:)`` before HEADERS or after the end.
    mutating func sendTrailers() throws(HTTP2StreamError) {
        switch response {
        case .awaitingHeaders: throw .invalidState("trailers before response headers")
        case .ended: throw .invalidState("trailers after the end of the response")
        case .streaming(let status): response = .ended(status: status)
        }
    }
}
