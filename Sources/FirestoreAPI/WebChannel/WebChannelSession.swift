import FirestoreModel
import GoogleWire
import HTTPServer
import Synchronization

/// One WebChannel session: one Listen or Write stream of one browser tab, carried over
/// many HTTP/1.1 requests. Forward-channel POSTs bring numbered maps (the stream's requests,
/// each delivered once and in order, however often the client retries a POST); the back
/// channel (a hanging GET, streamed, or one GET per batch when long polling) takes the
/// stream's responses as numbered arrays.
///
/// Exactly once on the back channel: an array written on a back channel stays buffered until
/// the client acknowledges it (`AID`, the last array it processed, on every request); a new
/// back channel re-sends only what the old one may have lost (ids above its `AID`), and the
/// client never sees an id twice. Thread-safe: every method may be called from any thread.
/// Source: Tests/WebClients/PROTOCOL.md; closure-library `webchannelbase.js` (onInput_,
/// handlePostResponse_, startBackChannel_).
final class WebChannelSession: Sendable {
    /// A back channel in use: the streamed body it writes to, and whether it answers once
    /// (long polling, `CI=1`) or stays open (`CI=0`).
    private struct BackChannel {
        let body: HTTPBodyStream
        let longPolling: Bool
        let serial: Int
    }

    private struct State {
        /// The id of the next forward map the stream has not seen.
        var nextMapID = 0
        /// Maps received, not yet taken by the stream.
        var inbound: [String] = []
        var inboundWaiter: CheckedContinuation<String?, Never>?
        /// The client terminated the session (or abandoned it): the stream reads its end.
        var inputClosed = false
        /// The id the next array gets (0 is the handshake, answered on the opening POST).
        var nextArrayID = 1
        /// Arrays not yet written to a back channel, in id order.
        var unsent: [(id: Int, text: [UInt8])] = []
        /// Arrays written to a back channel and not yet acknowledged, in id order.
        var unacknowledged: [(id: Int, text: [UInt8])] = []
        var unacknowledgedBytes = 0
        /// Arrays up to this id were dropped unacknowledged (the buffer's limit): a back
        /// channel that would need them cannot be served.
        var lostThrough = 0
        var backChannel: BackChannel?
        var backChannelSerial = 0
        /// The stream is over: no more arrays will come.
        var ended = false
        /// The last request of the client, or write to its back channel.
        var lastActivity: ContinuousClock.Instant
        var lastBackChannelWrite: ContinuousClock.Instant
    }

    /// The session id (`SID`), unguessable.
    let id: String
    /// The database the channel was opened for (the `database` query parameter), if valid.
    let database: DatabaseID?
    private let state: Mutex<State>
    /// Unacknowledged bytes kept for re-sending; beyond this the oldest are dropped.
    static let resendBufferLimit = 16 << 20

    /// A new open session.
    init(id: String, database: DatabaseID?, now: ContinuousClock.Instant) {
        self.id = id
        self.database = database
        state = Mutex(State(lastActivity: now, lastBackChannelWrite: now))
    }

    // MARK: - Forward channel (the stream's requests)

    /// Takes the maps of a forward POST: `maps[i]` is map `offset + i`; maps seen before (a
    /// retried POST) are skipped. Returns false when the session no longer takes input.
    @discardableResult
    func receive(maps: [String], offset: Int, now: ContinuousClock.Instant) -> Bool {
        typealias Wake = (waiter: CheckedContinuation<String?, Never>, map: String)
        let (accepted, wake) = state.withLock { s -> (Bool, Wake?) in
            guard !s.inputClosed, !s.ended else { return (false, nil) }
            s.lastActivity = now
            for (i, map) in maps.enumerated() where offset + i >= s.nextMapID {
                s.inbound.append(map)
                s.nextMapID = offset + i + 1
            }
            guard let waiter = s.inboundWaiter, !s.inbound.isEmpty else { return (true, nil) }
            s.inboundWaiter = nil
            return (true, (waiter, s.inbound.removeFirst()))
        }
        wake?.waiter.resume(returning: wake?.map)
        return accepted
    }

    /// The next request (its JSON text), waiting for it; nil once the client terminated the
    /// session or it was abandoned.
    func nextMap() async -> String? {
        await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
            let ready = state.withLock { s -> String?? in
                if !s.inbound.isEmpty { return .some(s.inbound.removeFirst()) }
                if s.inputClosed || s.ended { return .some(nil) }
                s.inboundWaiter = continuation
                return .none
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// The client is done (TYPE=terminate) or gone: the stream reads its end.
    func closeInput() {
        let waiter = state.withLock { s -> CheckedContinuation<String?, Never>? in
            s.inputClosed = true
            defer { s.inboundWaiter = nil }
            return s.inboundWaiter
        }
        waiter?.resume(returning: nil)
    }

    // MARK: - Back channel (the stream's responses)

    /// Queues one array with JSON `payload`, writing it at once when a back channel is open.
    /// Returns false when the session is over (the client went away).
    @discardableResult
    func send(payload: [UInt8], now: ContinuousClock.Instant) -> Bool {
        state.withLock { s in
            guard !s.ended, !s.inputClosed else { return false }
            let id = s.nextArrayID
            s.nextArrayID += 1
            s.unsent.append((id, WebChannelWire.array(id: id, payload: payload)))
            Self.flush(&s, now: now)
            return true
        }
    }

    /// The stream ended: `error` (if any) goes to the client as the last array, then the
    /// back channel ends with it.
    func end(error: FirestoreError?, now: ContinuousClock.Instant) {
        state.withLock { s in
            guard !s.ended else { return }
            if let error {
                let id = s.nextArrayID
                s.nextArrayID += 1
                s.unsent.append((id, WebChannelWire.array(id: id, payload: Self.errorPayload(error))))
            }
            s.ended = true
            Self.flush(&s, now: now)
            if s.unsent.isEmpty, let channel = s.backChannel {
                channel.body.finish()
                s.backChannel = nil
            }
        }
    }

    /// The payload the SDK reads a stream's failure from: `[{"error": {message, status}}]`,
    /// as the emulator sends it (no numeric code; the SDK maps `status`).
    static func errorPayload(_ error: FirestoreError) -> [UInt8] {
        let body: JSONValue = .object([
            .init("error", .object([.init("message", .string(error.message)), .init("status", .string(error.code.name))]))
        ])
        var out: [UInt8] = [UInt8(ascii: "[")]
        body.write(into: &out)
        out.append(UInt8(ascii: "]"))
        return out
    }

    /// What a back-channel GET gets: the arrays above `acknowledged` (re-sent when an old
    /// back channel wrote them) and then, unless long polling with something to say, a body
    /// that stays open for the arrays to come. Nil when the session cannot serve it (it ended
    /// with nothing left to say, or the arrays the client lacks were dropped).
    func openBackChannel(acknowledged: Int, longPolling: Bool, now: ContinuousClock.Instant) -> HTTPBodyStream? {
        let body = HTTPBodyStream()
        let (accepted, serial, superseded) = state.withLock { s -> (Bool, Int, HTTPBodyStream?) in
            Self.acknowledge(&s, through: acknowledged)
            s.lastActivity = now
            if acknowledged < s.lostThrough { return (false, 0, nil) }
            // Written on an earlier back channel but not acknowledged: the client never
            // processed them (it ignores an old back channel once it starts a new one).
            s.unsent = s.unacknowledged + s.unsent
            s.unacknowledged = []
            s.unacknowledgedBytes = 0
            if s.ended && s.unsent.isEmpty { return (false, 0, nil) }
            let old = s.backChannel?.body
            s.backChannelSerial += 1
            s.backChannel = BackChannel(body: body, longPolling: longPolling, serial: s.backChannelSerial)
            s.lastBackChannelWrite = now
            Self.flush(&s, now: now)
            return (true, s.backChannelSerial, old)
        }
        superseded?.finish()
        guard accepted else { return nil }
        body.onCancel { [weak self] in self?.backChannelGone(serial: serial) }
        return body
    }

    /// Handles a forward POST's `AID`, and answers what the client should know of its back
    /// channel (`WebChannelWire.postAnswer`).
    func forwardAnswer(acknowledged: Int?) -> [UInt8] {
        state.withLock { s in
            if let acknowledged { Self.acknowledge(&s, through: acknowledged) }
            let lastWritten = s.unacknowledged.last?.id ?? (s.unsent.first.map { $0.id - 1 } ?? s.nextArrayID - 1)
            return WebChannelWire.postAnswer(
                backChannel: true, lastArrayID: lastWritten, outstandingBytes: s.unacknowledgedBytes)
        }
    }

    /// The back channel with `serial` was closed by its connection.
    private func backChannelGone(serial: Int) {
        state.withLock { s in
            if s.backChannel?.serial == serial { s.backChannel = nil }
        }
    }

    /// Writes the unsent arrays to the open back channel (a long poll answers once).
    private static func flush(_ s: inout State, now: ContinuousClock.Instant) {
        guard let channel = s.backChannel, !s.unsent.isEmpty else { return }
        let arrays = s.unsent
        s.unsent = []
        guard channel.body.write(WebChannelWire.message(arrays.map(\.text))) else {
            s.unsent = arrays + s.unsent  // Its connection is gone: keep them for the next one.
            s.backChannel = nil
            return
        }
        s.lastBackChannelWrite = now
        s.lastActivity = now
        for array in arrays {
            s.unacknowledged.append(array)
            s.unacknowledgedBytes += array.text.count
        }
        while s.unacknowledgedBytes > resendBufferLimit, let first = s.unacknowledged.first {
            s.unacknowledged.removeFirst()
            s.unacknowledgedBytes -= first.text.count
            s.lostThrough = first.id
        }
        if channel.longPolling || s.ended {
            channel.body.finish()
            s.backChannel = nil
        }
    }

    private static func acknowledge(_ s: inout State, through id: Int) {
        while let first = s.unacknowledged.first, first.id <= id {
            s.unacknowledged.removeFirst()
            s.unacknowledgedBytes -= first.text.count
        }
    }

    // MARK: - Housekeeping

    /// What the service's periodic check decides for this session.
    enum Check {
        /// Nothing to do.
        case keep
        /// Free it: abandoned (no back channel, no request for `abandonAfter`), or over.
        case remove
    }

    /// Sends a keep-alive on a back channel silent for `keepAliveAfter`, and says whether the
    /// session is abandoned: no back channel and no request for `abandonAfter` (then its
    /// stream is ended as if the client had terminated it).
    func check(now: ContinuousClock.Instant, keepAliveAfter: Duration, abandonAfter: Duration) -> Check {
        let abandoned = state.withLock { s -> Bool in
            if s.backChannel != nil {
                if now - s.lastBackChannelWrite >= keepAliveAfter && !s.ended {
                    let id = s.nextArrayID
                    s.nextArrayID += 1
                    s.unsent.append((id, WebChannelWire.array(id: id, payload: WebChannelWire.noop)))
                    Self.flush(&s, now: now)
                }
                return false
            }
            return now - s.lastActivity >= abandonAfter
        }
        guard abandoned else { return .keep }
        shutDown(now: now)
        return .remove
    }

    /// Ends the session at once (terminate, server shutdown, abandonment): the stream reads
    /// its end, and the back channel closes once it has written what was left (`end`).
    func shutDown(now: ContinuousClock.Instant) {
        closeInput()
        end(error: nil, now: now)
    }

    /// Whether the session is over and has nothing left to deliver.
    var isFinished: Bool {
        state.withLock { $0.ended && $0.unsent.isEmpty && $0.backChannel == nil }
    }
}
