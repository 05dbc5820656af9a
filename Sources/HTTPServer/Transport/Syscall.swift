import Glibc

/// The only door to the socket system calls (docs/STYLE.md principle 3).
///
/// Every call retries `EINTR`, turns `EAGAIN` into `.wouldBlock`, turns what a peer can cause
/// (`ECONNRESET`, `EPIPE`, `ETIMEDOUT`, …) into `.closed`, and traps on errors that can only be
/// the transport's own bug (`EBADF`, `EFAULT`, `EINVAL`, `ENOTSOCK`). Setup calls that depend on
/// the environment (bind, listen) throw ``HTTPServerError``. The epoll and eventfd calls live
/// in `Syscall+Epoll.swift`.
enum Syscall {
    private enum ErrnoClass { case retry, wouldBlock, close, trap }

    private static func classify(_ error: Int32) -> ErrnoClass {
        switch error {
        case EINTR: .retry
        case EAGAIN, EWOULDBLOCK: .wouldBlock
        case EBADF, EFAULT, EINVAL, ENOTSOCK: .trap
        default: .close
        }
    }

    private static func trap(_ call: StaticString, _ error: Int32) -> Never {
        preconditionFailure("\(call) failed with errno \(error) (\(describe(error))): transport bug")
    }

    /// A human-readable `strerror` text for `error`.
    static func describe(_ error: Int32) -> String {
        String(cString: strerror(error))
    }

    // MARK: - Stream I/O

    /// Reads up to `buffer.count` bytes from `fd` (`read(2)`).
    static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> IOOutcome {
        while true {
            let count = Glibc.read(fd, buffer.baseAddress, buffer.count)
            if count > 0 { return .transferred(count) }
            if count == 0 { return .closed(errno: nil) }
            let error = errno
            switch classify(error) {
            case .retry: continue
            case .wouldBlock: return .wouldBlock
            case .close: return .closed(errno: error)
            case .trap: trap("read", error)
            }
        }
    }

    /// Writes up to `bytes.count` bytes to the socket `fd` without raising `SIGPIPE`
    /// (`send(2)` with `MSG_NOSIGNAL`).
    static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> IOOutcome {
        guard bytes.count > 0 else { return .transferred(0) }
        while true {
            let count = Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
            if count >= 0 { return .transferred(count) }
            let error = errno
            switch classify(error) {
            case .retry: continue
            case .wouldBlock: return .wouldBlock
            case .close: return .closed(errno: error)
            case .trap: trap("send", error)
            }
        }
    }

    /// Shuts down the sending side (`shutdown(SHUT_WR)`), so the peer reads end of stream while
    /// we may still read; a peer that already vanished is ignored.
    static func shutdownWrite(_ fd: Int32) {
        if Glibc.shutdown(fd, Int32(SHUT_WR)) != 0, errno == EBADF { trap("shutdown", EBADF) }
    }

    /// Closes `fd`. `EINTR` from `close` is not retried (the descriptor is gone on Linux).
    static func close(_ fd: Int32) {
        if Glibc.close(fd) != 0, errno == EBADF { trap("close", EBADF) }
    }

    // MARK: - Accepting

    /// Accepts one pending connection on the non-blocking listening socket `fd` and prepares it
    /// for the event loop (non-blocking, close-on-exec, `TCP_NODELAY`).
    static func accept(_ fd: Int32) -> AcceptOutcome {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let accepted = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.accept(fd, $0, &length) }
        }
        guard accepted >= 0 else {
            let error = errno
            switch error {
            case EAGAIN, EWOULDBLOCK:
                return .wouldBlock
            case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                return .resourceExhausted(errno: error)
            case EBADF, EFAULT, EINVAL, ENOTSOCK:
                trap("accept", error)
            default:
                // EINTR, ECONNABORTED, EPROTO, EPERM and the pending network errors Linux passes
                // through accept (ENETDOWN, EHOSTUNREACH, …): this connection failed, try the next.
                return .retry
            }
        }
        let flags = fcntl(accepted, F_GETFL)
        _ = fcntl(accepted, F_SETFL, flags | O_NONBLOCK)
        _ = fcntl(accepted, F_SETFD, FD_CLOEXEC)
        setOption(accepted, level: Int32(IPPROTO_TCP), name: TCP_NODELAY, value: 1)
        return .accepted(fd: accepted, remoteAddress: format(storage))
    }

    // MARK: - Listening

    /// Creates a non-blocking listening TCP socket bound to `host:port` with `SO_REUSEADDR`.
    ///
    /// `host` is a numeric address or a name resolved with `getaddrinfo`; IPv4 results are
    /// preferred (so `localhost` binds `127.0.0.1`). `"::"` also accepts IPv4 (dual stack).
    /// - Parameters:
    ///   - port: 0…65535; 0 asks the kernel for an ephemeral port.
    ///   - backlog: the accept queue length passed to `listen(2)`.
    /// - Returns: the descriptor and the port actually bound.
    /// - Throws: ``HTTPServerError/addressInUse(host:port:)``,
    ///   ``HTTPServerError/cannotResolve(host:reason:)``, ``HTTPServerError/systemCallFailed(call:errno:reason:)``.
    static func makeListeningSocket(host: String, port: Int, backlog: Int32) throws(HTTPServerError) -> (
        fd: Int32, port: Int
    ) {
        guard (0...65_535).contains(port) else { throw .invalidPort(port) }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host.isEmpty ? nil : host, String(port), &hints, &list)
        guard status == 0, let list else {
            throw .cannotResolve(host: host, reason: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(list) }
        var candidates: [UnsafeMutablePointer<addrinfo>] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = list
        while let entry = cursor {
            candidates.append(entry)
            cursor = entry.pointee.ai_next
        }
        candidates.sort { ($0.pointee.ai_family == AF_INET ? 0 : 1) < ($1.pointee.ai_family == AF_INET ? 0 : 1) }
        var lastError = HTTPServerError.cannotResolve(host: host, reason: "no usable address")
        for entry in candidates {
            let info = entry.pointee
            let fd = socket(info.ai_family, info.ai_socktype | Int32(SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else {
                lastError = .systemCallFailed(call: "socket", errno: errno, reason: describe(errno))
                continue
            }
            setOption(fd, level: SOL_SOCKET, name: SO_REUSEADDR, value: 1)
            if info.ai_family == AF_INET6 { setOption(fd, level: Int32(IPPROTO_IPV6), name: IPV6_V6ONLY, value: 0) }
            if bind(fd, info.ai_addr, info.ai_addrlen) != 0 {
                let error = errno
                Glibc.close(fd)
                lastError =
                    error == EADDRINUSE
                    ? .addressInUse(host: host, port: port)
                    : .systemCallFailed(call: "bind", errno: error, reason: describe(error))
                continue
            }
            if listen(fd, backlog) != 0 {
                let error = errno
                Glibc.close(fd)
                lastError = .systemCallFailed(call: "listen", errno: error, reason: describe(error))
                continue
            }
            return (fd, boundPort(fd) ?? port)
        }
        throw lastError
    }

    /// The local port `fd` is bound to (`getsockname(2)`), or `nil` if it cannot be read.
    static func boundPort(_ fd: Int32) -> Int? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let status = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard status == 0 else { return nil }
        return port(of: storage)
    }

    /// Raises the soft `RLIMIT_NOFILE` to the hard limit so thousands of idle connections fit.
    /// - Returns: the soft limit now in force (file descriptors).
    @discardableResult
    static func raiseOpenFileLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return -1 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max == rlim_t.max ? 1 << 20 : limit.rlim_max  // rlim_t.max is RLIM_INFINITY
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return Int(clamping: limit.rlim_cur)
    }

    // MARK: - Helpers

    private static func setOption(_ fd: Int32, level: Int32, name: Int32, value: Int32) {
        var value = value
        _ = setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size))
    }

    private static func port(of storage: sockaddr_storage) -> Int? {
        var storage = storage
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafeBytes(of: &storage) { Int(UInt16(bigEndian: $0.load(as: sockaddr_in.self).sin_port)) }
        case AF_INET6:
            return withUnsafeBytes(of: &storage) { Int(UInt16(bigEndian: $0.load(as: sockaddr_in6.self).sin6_port)) }
        default:
            return nil
        }
    }

    /// Formats a socket address as `"a.b.c.d:port"` or `"[v6]:port"`.
    private static func format(_ storage: sockaddr_storage) -> String {
        var storage = storage
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        func host() -> String {
            String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        let family = Int32(storage.ss_family)
        let port = port(of: storage) ?? 0
        switch family {
        case AF_INET:
            var address = withUnsafeBytes(of: &storage) { $0.load(as: sockaddr_in.self).sin_addr }
            inet_ntop(AF_INET, &address, &text, socklen_t(text.count))
            return "\(host()):\(port)"
        case AF_INET6:
            var address = withUnsafeBytes(of: &storage) { $0.load(as: sockaddr_in6.self).sin6_addr }
            inet_ntop(AF_INET6, &address, &text, socklen_t(text.count))
            return "[\(host())]:\(port)"
        default:
            return "unknown:0"
        }
    }
}
