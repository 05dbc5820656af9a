/// Why ``HTTPServer/start()`` could not start listening; the environment's fault, not a peer's.
public enum HTTPServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Another socket already listens on `host:port` (`EADDRINUSE`).
    case addressInUse(host: String, port: Int)
    /// `host` did not resolve to a bindable address (`getaddrinfo` failed with `reason`).
    case cannotResolve(host: String, reason: String)
    /// The configured port is outside 0…65535.
    case invalidPort(Int)
    /// A system call failed unexpectedly, e.g. `bind` with `EACCES` for a privileged port.
    case systemCallFailed(call: String, errno: Int32, reason: String)
    /// The kernel facility the transport needs (epoll) is not available on this system.
    case unsupportedPlatform(String)
    /// ``HTTPServer/start()`` was called twice, or after ``HTTPServer/shutdown()``.
    case alreadyStarted

    /// One line saying what failed, e.g. `"address 127.0.0.1:8080 is already in use"`.
    public var description: String {
        switch self {
        case .addressInUse(let host, let port): "address \(host):\(port) is already in use"
        case .cannotResolve(let host, let reason): "cannot resolve listen host '\(host)': \(reason)"
        case .invalidPort(let port): "invalid port \(port): must be 0…65535"
        case .systemCallFailed(let call, let code, let reason): "\(call) failed: \(reason) (errno \(code))"
        case .unsupportedPlatform(let detail): "unsupported platform: \(detail)"
        case .alreadyStarted: "the server was already started"
        }
    }
}
