import Synchronization

/// The transport's ``ByteStreamConnection``: a connection on the event loop seen from async code.
///
/// Inbound bytes are delivered by the loop into a locked buffer that ``read()`` drains; when
/// more than ``readHighWater`` bytes wait, the loop stops reading the socket until the reader
/// catches up. Enqueued bytes hop to the loop with ``EventLoop/execute(_:)``, which runs
/// closures in submission order, so bytes leave in `enqueue` order.
final class EventLoopByteStream: ByteStreamConnection, Sendable {
    /// The reader's side, shared by the loop and the async reader.
    private struct Inbound {
        var bytes: [UInt8]
        var readWaiter: CheckedContinuation<[UInt8]?, Never>?
        var ended = false
        var closed = false
        var readPaused = false
    }

    let remoteAddress: String
    private let loop: EventLoop
    private let core: ServerCore
    private let connection: UInt64
    private let inbound: Mutex<Inbound>

    /// Buffered inbound bytes at which the loop stops reading the socket.
    static let readHighWater = 1 << 20

    /// A stream for connection `connection` of `core`, starting with the bytes already read.
    init(remoteAddress: String, loop: EventLoop, core: ServerCore, connection: UInt64, initialBytes: [UInt8]) {
        self.remoteAddress = remoteAddress
        self.loop = loop
        self.core = core
        self.connection = connection
        self.inbound = Mutex(Inbound(bytes: initialBytes))
    }

    /// Whether the loop should stop reading because the reader is behind.
    var isReadPaused: Bool {
        inbound.withLock { $0.readPaused }
    }

    // MARK: - ByteStreamConnection

    /// See ``ByteStreamConnection/read()``.
    func read() async -> [UInt8]? {
        await withCheckedContinuation { continuation in
            enum Outcome {
                case bytes([UInt8], wasPaused: Bool)
                case end
                case waiting
            }
            let outcome = inbound.withLock { inbound -> Outcome in
                if !inbound.bytes.isEmpty {
                    var bytes: [UInt8] = []
                    swap(&bytes, &inbound.bytes)
                    let wasPaused = inbound.readPaused
                    inbound.readPaused = false
                    return .bytes(bytes, wasPaused: wasPaused)
                }
                if inbound.ended || inbound.closed { return .end }
                precondition(
                    inbound.readWaiter == nil, "ByteStreamConnection.read() called while another read is pending")
                inbound.readWaiter = continuation
                return .waiting
            }
            switch outcome {
            case .bytes(let bytes, let wasPaused):
                if wasPaused {
                    loop.execute { [core, connection] in core.connection(connection)?.resumeReading() }
                }
                continuation.resume(returning: bytes)
            case .end:
                continuation.resume(returning: nil)
            case .waiting:
                break
            }
        }
    }

    /// See ``ByteStreamConnection/enqueue(_:)``.
    func enqueue(_ bytes: [UInt8]) throws(ByteStreamError) {
        // Checked and scheduled under the lock, so no enqueue can slip in after `close()`'s
        // own scheduling: every accepted enqueue reaches the loop before the close does.
        let accepted = inbound.withLock { inbound in
            !inbound.closed
                && loop.execute { [core, connection] in
                    core.connection(connection)?.enqueueStreamBytes(bytes)
                }
        }
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
        let waiter: CheckedContinuation<[UInt8]?, Never>? = inbound.withLock { inbound in
            guard !inbound.closed else { return nil }
            inbound.closed = true
            inbound.bytes = []
            loop.execute { [core, connection] in core.connection(connection)?.closeStream() }
            defer { inbound.readWaiter = nil }
            return inbound.readWaiter
        }
        waiter?.resume(returning: nil)
    }

    // MARK: - Loop side

    /// Bytes read from the socket; loop thread.
    func deliver(_ bytes: [UInt8]) {
        let waiter: CheckedContinuation<[UInt8]?, Never>? = inbound.withLock { inbound in
            if let waiter = inbound.readWaiter {
                inbound.readWaiter = nil
                return waiter
            }
            inbound.bytes.append(contentsOf: bytes)
            if inbound.bytes.count >= Self.readHighWater { inbound.readPaused = true }
            return nil
        }
        waiter?.resume(returning: bytes)
    }

    /// The peer closed its side; pending and later reads return `nil` once buffered bytes are read.
    func deliverEndOfStream() {
        let waiter: CheckedContinuation<[UInt8]?, Never>? = inbound.withLock { inbound in
            inbound.ended = true
            defer { inbound.readWaiter = nil }
            return inbound.readWaiter
        }
        waiter?.resume(returning: nil)
    }

    /// The connection is gone; wakes a pending reader with `nil` and fails later writes.
    func markClosed() {
        let waiter: CheckedContinuation<[UInt8]?, Never>? = inbound.withLock { inbound in
            inbound.closed = true
            inbound.bytes = []
            defer { inbound.readWaiter = nil }
            return inbound.readWaiter
        }
        waiter?.resume(returning: nil)
    }
}
