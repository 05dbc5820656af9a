import FoundationEssentials
import Glibc

/// Waits until a TCP port accepts connections (what `hearth exec` checks before running the
/// command). Plain blocking `connect(2)` on a fresh socket, retried every 20 ms.
enum PortProbe {
    /// True once `host:port` accepts a connection, false after `timeout`.
    static func waitUntilAccepting(host: String, port: Int, timeout: Duration = .seconds(10)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if accepts(host: host, port: port) { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    /// One connection attempt (numeric IPv4 or IPv6 hosts; `localhost` is 127.0.0.1).
    static func accepts(host: String, port: Int) -> Bool {
        let name = host == "localhost" ? "127.0.0.1" : host
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(name, String(port), &hints, &list) == 0, let first = list else { return false }
        defer { freeaddrinfo(list) }
        let fd = socket(first.pointee.ai_family, first.pointee.ai_socktype, first.pointee.ai_protocol)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return connect(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0
    }
}
