/// The result of one non-blocking read or write, after ``Syscall`` sorted `errno`.
///
/// `EINTR` never appears (the door retries); programming errors (`EBADF`, `EFAULT`, …) trap
/// inside the door; everything a peer can cause ends up as `.closed`.
enum IOOutcome: Equatable, Sendable {
    /// `count` bytes were read or written; always > 0.
    case transferred(Int)
    /// The socket is not ready; wait for the next readiness event.
    case wouldBlock
    /// The stream is over: orderly end of stream on read (`errno == nil`) or a peer-caused
    /// error such as `ECONNRESET` / `EPIPE` (`errno` set). The connection should be closed.
    case closed(errno: Int32?)
}

/// The result of one non-blocking `accept`.
enum AcceptOutcome: Sendable {
    /// A new connection: its descriptor (already non-blocking, close-on-exec, `TCP_NODELAY`) and
    /// the peer address as `"host:port"`.
    case accepted(fd: Int32, remoteAddress: String)
    /// No pending connection.
    case wouldBlock
    /// A connection was aborted before it was accepted (`ECONNABORTED`, `EPROTO`, …); try again.
    case retry
    /// Out of descriptors or memory (`EMFILE`, `ENFILE`, `ENOBUFS`, `ENOMEM`); pause accepting.
    case resourceExhausted(errno: Int32)
}
