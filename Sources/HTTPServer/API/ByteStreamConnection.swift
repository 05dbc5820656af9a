/// A bidirectional byte stream over one accepted TCP connection, for protocols layered on the
/// transport (HTTP/2 and gRPC).
///
/// - Reading: one reader at a time (typically one task driving the protocol's input).
///   ``read()`` suspends until bytes arrive; when the reader falls behind by more than about
///   1 MiB the transport stops reading the socket, so the peer is flow-controlled by TCP.
/// - Writing: ``write(_:)`` may be called from many tasks at once (e.g. one per HTTP/2 stream);
///   bytes are queued in call order — a call's bytes are queued before it first suspends — and
///   the call suspends while more than about 1 MiB is queued, until the peer has read enough.
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

    /// Queues `bytes` for sending and waits while the send queue is over its high-water mark.
    /// - Throws: ``ByteStreamError/closed`` if the connection is closed (by either side)
    ///   before the bytes could be queued or while waiting.
    func write(_ bytes: [UInt8]) async throws(ByteStreamError)

    /// Sends whatever is queued, then closes the connection. Idempotent; safe from any task.
    /// Pending and later reads return `nil`; later writes throw.
    func close()
}

/// Why a ``ByteStreamConnection`` operation failed.
public enum ByteStreamError: Error, Sendable, Equatable {
    /// The connection was closed by the peer, by ``ByteStreamConnection/close()``, or by
    /// server shutdown.
    case closed
}
