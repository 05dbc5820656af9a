/// A bidirectional byte stream over one accepted TCP connection, for protocols layered on the
/// transport (HTTP/2 and gRPC).
///
/// - Reading: one reader at a time (typically one task driving the protocol's input).
///   ``read()`` suspends until bytes arrive; when the reader falls behind by more than about
///   1 MiB the transport stops reading the socket, so the peer is flow-controlled by TCP.
/// - Writing: ``enqueue(_:)`` queues bytes synchronously, so bytes leave in exactly the order
///   of `enqueue` calls — an actor that enqueues while isolated never interleaves frames.
///   ``waitUntilWritable()`` is the backpressure: it suspends while more than about 1 MiB is
///   queued, until the peer has read enough. ``write(_:)`` does both.
/// - Lifetime: the connection lives until ``close()`` or until the peer goes away.
public protocol ByteStreamConnection: AnyObject, Sendable {
    /// The peer's address as `"host:port"`, e.g. `"127.0.0.1:53422"`.
    var remoteAddress: String { get }

    /// The next bytes received, in order; `nil` once the peer has closed its side or the
    /// connection was closed. The first bytes returned include everything used to detect the
    /// protocol (for HTTP/2, the 24-octet client preface, RFC 9113 §3.4).
    ///
    /// Not cancellable: it returns when bytes arrive or the connection closes.
    /// - Precondition: no other `read()` call is pending on this connection.
    func read() async -> [UInt8]?

    /// Queues `bytes` for sending after everything queued before; never blocks.
    /// - Throws: ``ByteStreamError/closed`` if the connection is already closed.
    func enqueue(_ bytes: [UInt8]) throws(ByteStreamError)

    /// Suspends until the send queue is below its low-water mark (returns at once if it is).
    /// - Throws: ``ByteStreamError/closed`` if the connection closes first.
    func waitUntilWritable() async throws(ByteStreamError)

    /// Sends whatever is queued, then closes the connection. Idempotent; safe from any task.
    /// Pending and later reads return `nil`; later writes throw.
    func close()
}

extension ByteStreamConnection {
    /// Queues `bytes` (``enqueue(_:)``) and waits for room (``waitUntilWritable()``).
    ///
    /// Order is guaranteed among calls made one after another; calls racing from different
    /// tasks have no defined order — use `enqueue` from one isolation domain for that.
    /// - Throws: ``ByteStreamError/closed`` if the connection is or becomes closed.
    public func write(_ bytes: [UInt8]) async throws(ByteStreamError) {
        try enqueue(bytes)
        try await waitUntilWritable()
    }
}

/// Why a ``ByteStreamConnection`` operation failed.
public enum ByteStreamError: Error, Sendable, Equatable {
    /// The connection was closed by the peer, by ``ByteStreamConnection/close()``, or by
    /// server shutdown.
    case closed
}
