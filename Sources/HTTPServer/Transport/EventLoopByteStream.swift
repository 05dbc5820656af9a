import Foundation

/// The transport's ``ByteStreamConnection``: a connection on the event loop seen from async code.
///
/// Inbound bytes are delivered by the loop into a locked buffer that ``read()`` drains; when
/// more than ``readHighWater`` bytes wait, the loop stops reading the socket until the reader
/// catches up. Enqueued bytes hop to the loop with ``EventLoop/execute(_:)``, which runs
/// closures in submission order, so bytes leave in `enqueue` order.
final class EventLoopByteStream: ByteStreamConnection, @unchecked Sendable {
    // @unchecked Sendable: `inbound`, `readWaiter`, `ended`, `closed` and `readPaused` are only
    // accessed under `lock`; the other stored properties are immutable and Sendable.
    let remoteAddress: String
    private let loop: EventLoop
    private let core: ServerCore
    private let connection: UInt64
    private let lock = NSLock()
    private var inbound: [UInt8]
    private var readWaiter: CheckedContinuation<[UInt8]?, Never>?
    private var ended = false
    private var closed = false
    private var readPaused = false

    /// Buffered inbound bytes at which the loop stops reading the socket.
    static let readHighWater = 1 << 20

    /// A stream for connection `connection` of `core`, starting with the bytes already read.
    init(remoteAddress: String, loop: EventLoop, core: ServerCore, connection: UInt64, initialBytes: [UInt8]) {
        self.remoteAddress = remoteAddress
        self.loop = loop
        self.core = core
        self.connection = connection
        self.inbound = initialBytes
    }

    /// Whether the loop should stop reading because the reader is behind.
    var isReadPaused: Bool {
        lock.withLock { readPaused }
    }

    // MARK: - ByteStreamConnection

    /// See ``ByteStreamConnection/read()``.
    func read() async -> [UInt8]? {
        await withCheckedContinuation { continuation in
            lock.lock()
            if !inbound.isEmpty {
                let bytes = inbound
                inbound = []
                let wasPaused = readPaused
                readPaused = false
                lock.unlock()
                if wasPaused {
                    loop.execute { [core, connection] in core.connection(connection)?.resumeReading() }
                }
                continuation.resume(returning: bytes)
                return
            }
            if ended || closed {
                lock.unlock()
                continuation.resume(returning: nil)
                return
            }
            precondition(readWaiter == nil, "ByteStreamConnection.read() called while another read is pending")
            readWaiter = continuation
            lock.unlock()
        }
    }

    /// See ``ByteStreamConnection/enqueue(_:)``.
    func enqueue(_ bytes: [UInt8]) throws(ByteStreamError) {
        // Checked and scheduled under the lock, so no enqueue can slip in after `close()`'s
        // own scheduling: every accepted enqueue reaches the loop before the close does.
        lock.lock()
        let accepted =
            !closed
            && loop.execute { [core, connection] in
                core.connection(connection)?.enqueueStreamBytes(bytes)
            }
        lock.unlock()
        guard accepted else { throw .closed }
    }

    /// See ``ByteStreamConnection/waitUntilWritable()``.
    func waitUntilWritable() async throws(ByteStreamError) {
        do {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let scheduled = loop.execute { [core, connection] in
                    guard let target = core.connection(connection) else {
                        continuation.resume(throwing: ByteStreamError.closed)
                        return
                    }
                    target.waitForStreamWritable(continuation)
                }
                if !scheduled { continuation.resume(throwing: ByteStreamError.closed) }
            }
        } catch {
            throw .closed
        }
    }

    /// See ``ByteStreamConnection/close()``.
    func close() {
        let waiter: CheckedContinuation<[UInt8]?, Never>? = lock.withLock {
            guard !closed else { return nil }
            closed = true
            inbound = []
            loop.execute { [core, connection] in core.connection(connection)?.closeStream() }
            defer { readWaiter = nil }
            return readWaiter
        }
        waiter?.resume(returning: nil)
    }

    // MARK: - Loop side

    /// Bytes read from the socket; loop thread.
    func deliver(_ bytes: [UInt8]) {
        lock.lock()
        if let waiter = readWaiter {
            readWaiter = nil
            lock.unlock()
            waiter.resume(returning: bytes)
            return
        }
        inbound.append(contentsOf: bytes)
        if inbound.count >= Self.readHighWater { readPaused = true }
        lock.unlock()
    }

    /// The peer closed its side; pending and later reads return `nil` once buffered bytes are read.
    func deliverEndOfStream() {
        let waiter: CheckedContinuation<[UInt8]?, Never>? = lock.withLock {
            ended = true
            defer { readWaiter = nil }
            return readWaiter
        }
        waiter?.resume(returning: nil)
    }

    /// The connection is gone; wakes a pending reader with `nil` and fails later writes.
    func markClosed() {
        let waiter: CheckedContinuation<[UInt8]?, Never>? = lock.withLock {
            closed = true
            inbound = []
            defer { readWaiter = nil }
            return readWaiter
        }
        waiter?.resume(returning: nil)
    }
}
