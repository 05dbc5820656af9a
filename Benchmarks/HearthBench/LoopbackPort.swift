import Foundation

/// Ephemeral TCP ports on 127.0.0.1 for the child servers.
enum LoopbackPort {
    /// A port the kernel just handed out for 127.0.0.1 and released again.
    ///
    /// Racy by nature (another process may take it before the child binds it), which is
    /// acceptable for a benchmark: the child then fails to start and the report says so.
    /// - Throws: `BenchError.childFailed` when no socket can be bound.
    static func free() throws(BenchError) -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw .childFailed("socket(): errno \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw .childFailed("bind(127.0.0.1:0): errno \(errno)") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw .childFailed("getsockname: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
