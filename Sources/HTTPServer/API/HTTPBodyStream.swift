import Synchronization

/// A response body written while it is being sent: a producer (any thread or task) appends
/// chunks and finally finishes it; the server sends each chunk as it arrives — over
/// HTTP/1.1 as a `transfer-encoding: chunked` body (RFC 9112 §7.1), over HTTP/2 as DATA
/// frames. Used for long-lived answers such as a WebChannel back channel.
///
/// When the peer goes away (or the response is for `HEAD`) the stream is cancelled: `write`
/// returns false from then on and `onCancel` runs once, so the producer can stop.
public final class HTTPBodyStream: Sendable {
    private struct State {
        var chunks: [[UInt8]] = []
        /// The bytes of `chunks`.
        var queuedBytes = 0
        var finished = false
        var cancelled = false
        /// Called (outside the lock) when chunks arrive or the stream finishes; set by the server.
        var readable: (@Sendable () -> Void)?
        var onCancel: (@Sendable () -> Void)?
        /// An async consumer waiting for the next chunk.
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())
    private typealias Waker = @Sendable () -> Void
    private typealias Waiter = CheckedContinuation<Void, Never>

    /// Creates an open stream with nothing written yet.
    public init() {}

    /// Appends `bytes` (empty writes are ignored). Returns false when the stream was cancelled
    /// or finished, in which case nothing is sent.
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        guard !bytes.isEmpty else { return !isClosed }
        let (accepted, wake, waiter) = state.withLock { s -> (Bool, Waker?, Waiter?) in
            guard !s.cancelled, !s.finished else { return (false, nil, nil) }
            s.chunks.append(bytes)
            s.queuedBytes += bytes.count
            let waiter = s.waiter
            s.waiter = nil
            return (true, s.readable, waiter)
        }
        wake?()
        waiter?.resume()
        return accepted
    }

    /// Ends the body after the chunks written so far. Idempotent.
    public func finish() {
        let (wake, waiter) = state.withLock { s -> (Waker?, Waiter?) in
            guard !s.finished, !s.cancelled else { return (nil, nil) }
            s.finished = true
            let waiter = s.waiter
            s.waiter = nil
            return (s.readable, waiter)
        }
        wake?()
        waiter?.resume()
    }

    /// Bytes written but not yet taken by the server: they grow while the peer does not read
    /// (the server holds a stream's chunks back once its send queue is full). A producer of an
    /// endless stream ends it past a bound of its own.
    public var queuedByteCount: Int { state.withLock { $0.queuedBytes } }

    /// Whether nothing more will be sent (finished or cancelled).
    public var isClosed: Bool { state.withLock { $0.finished || $0.cancelled } }

    /// Sets what runs once when the peer goes away; runs at once if it already has.
    public func onCancel(_ action: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { s -> Bool in
            if s.cancelled { return true }
            s.onCancel = action
            return false
        }
        if runNow { action() }
    }

    // MARK: - The server's side

    /// Registers the server's wake-up; it runs at once when chunks are already waiting.
    func attach(readable: @escaping @Sendable () -> Void) {
        let pending = state.withLock { s -> Bool in
            s.readable = readable
            return !s.chunks.isEmpty || s.finished
        }
        if pending { readable() }
    }

    /// The chunks written since the last call, at most about `limit` bytes of them (always at
    /// least one), whether more are left, and whether the body is over (finished and drained,
    /// or cancelled: then it ends where it is).
    func take(limit: Int = .max) -> (chunks: [[UInt8]], more: Bool, finished: Bool) {
        state.withLock { s in
            var count = 0
            var bytes = 0
            while count < s.chunks.count, count == 0 || bytes + s.chunks[count].count <= limit {
                bytes += s.chunks[count].count
                count += 1
            }
            let chunks = Array(s.chunks[..<count])
            s.chunks.removeFirst(count)
            s.queuedBytes -= bytes
            let more = !s.chunks.isEmpty && !s.cancelled
            return (chunks, more, s.cancelled || (s.finished && !more))
        }
    }

    /// The next chunks for an async consumer; `nil` once the stream is finished and drained,
    /// or cancelled.
    func next() async -> [[UInt8]]? {
        while true {
            let ready = state.withLock { s -> [[UInt8]]?? in
                if s.cancelled { return .some(nil) }
                if !s.chunks.isEmpty {
                    let chunks = s.chunks
                    s.chunks = []
                    s.queuedBytes = 0
                    return .some(chunks)
                }
                return s.finished ? .some(nil) : nil
            }
            if let ready { return ready }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { s -> Bool in
                    if s.cancelled || s.finished || !s.chunks.isEmpty { return true }
                    s.waiter = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        }
    }

    /// The peer went away (or the body must end now): drops what is queued, tells the
    /// producer, and wakes the server so that it ends the body. Idempotent.
    func cancel() {
        typealias Wakes = (action: Waker?, readable: Waker?, waiter: Waiter?)
        let wakes = state.withLock { s -> Wakes in
            guard !s.cancelled else { return (nil, nil, nil) }
            s.cancelled = true
            s.chunks = []
            s.queuedBytes = 0
            defer {
                s.readable = nil
                s.onCancel = nil
                s.waiter = nil
            }
            return (s.onCancel, s.readable, s.waiter)
        }
        wakes.waiter?.resume()
        wakes.readable?()
        wakes.action?()
    }
}
