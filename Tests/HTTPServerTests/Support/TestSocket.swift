import Foundation
import Glibc

/// Errors of the blocking test client.
struct TestSocketError: Error, CustomStringConvertible {
    var description: String
}

/// A parsed HTTP/1.1 response as the test client saw it.
struct TestResponse: Sendable {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: [UInt8]

    var text: String { String(decoding: body, as: UTF8.self) }

    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// A blocking loopback TCP client for end-to-end tests (5 s receive timeout, so tests never hang).
///
/// Use it only inside ``offloaded(_:)`` so blocking calls never occupy the cooperative pool
/// that runs the server's handlers.
final class TestSocket: @unchecked Sendable {
    // @unchecked Sendable: `fd` is immutable and the kernel allows one thread to send while
    // another receives; `pending` is only touched by the reading methods, which a test calls
    // from one thread.
    let fd: Int32
    private var pending: [UInt8] = []

    init(port: Int, receiveTimeout: Duration = .seconds(5)) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestSocketError(description: "socket: errno \(errno)") }
        var timeout = timeval(
            tv_sec: Int(receiveTimeout.components.seconds),
            tv_usec: Int(receiveTimeout.components.attoseconds / 1_000_000_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard status == 0 else {
            let error = errno
            Glibc.close(fd)
            throw TestSocketError(description: "connect: errno \(error)")
        }
    }

    deinit { Glibc.close(fd) }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { throw TestSocketError(description: "send: errno \(errno)") }
            offset += sent
        }
    }

    /// Sends end-of-stream (FIN) but keeps reading.
    func shutdownWrite() { Glibc.shutdown(fd, Int32(SHUT_WR)) }

    /// Reads more bytes into `pending`; returns false at end of stream or on error/timeout.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress, $0.count, 0) }
        if count > 0 {
            pending.append(contentsOf: chunk[0..<count])
            return true
        }
        if count == 0 { return false }
        let error = errno
        if error == EAGAIN || error == EWOULDBLOCK { throw TestSocketError(description: "receive timed out") }
        return false  // ECONNRESET etc.: treat as closed.
    }

    /// Reads one response (status line, fields, `content-length` body unless `toHead`).
    func readResponse(toHead: Bool = false) throws -> TestResponse {
        var headEnd: Int?
        while true {
            if let index = findHeadEnd() {
                headEnd = index
                break
            }
            guard try fill() else { throw TestSocketError(description: "connection closed before a response head") }
        }
        guard let headEnd else { throw TestSocketError(description: "no head") }
        let head = String(decoding: pending[0..<headEnd], as: UTF8.self)
        pending.removeFirst(headEnd + 4)
        var lines = head.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else {
            throw TestSocketError(description: "bad status line \(statusLine)")
        }
        let headers = lines.compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (
                String(line[..<colon]),
                String(line[line.index(after: colon)...]).trimmingCharacters(in: " ")
            )
        }
        var response = TestResponse(status: status, headers: headers, body: [])
        let length = toHead ? 0 : Int(response.header("content-length") ?? "0") ?? 0
        while pending.count < length {
            guard try fill() else { throw TestSocketError(description: "connection closed mid-body") }
        }
        response.body = Array(pending[0..<length])
        pending.removeFirst(length)
        return response
    }

    /// Whether the server closes the connection (end of stream or reset) before the receive timeout.
    func waitForClose() throws -> Bool {
        pending = []
        while true {
            do {
                guard try fill() else { return true }
            } catch {
                return false
            }
        }
    }

    /// Returns buffered bytes, or reads at least one more chunk; empty at end of stream.
    func readSome() throws -> [UInt8] {
        if pending.isEmpty { _ = try fill() }
        defer { pending = [] }
        return pending
    }

    /// Reads until end of stream and returns everything received.
    func readToEnd() throws -> [UInt8] {
        while try fill() {}
        defer { pending = [] }
        return pending
    }

    private func findHeadEnd() -> Int? {
        guard pending.count >= 4 else { return nil }
        for index in 0...(pending.count - 4)
        where pending[index] == 13 && pending[index + 1] == 10 && pending[index + 2] == 13 && pending[index + 3] == 10 {
            return index
        }
        return nil
    }
}

extension String {
    func trimmingCharacters(in set: String) -> String {
        var slice = self[...]
        while let first = slice.first, set.contains(first) { slice.removeFirst() }
        while let last = slice.last, set.contains(last) { slice.removeLast() }
        return String(slice)
    }
}

/// Runs blocking work on a thread of its own, off the cooperative pool (and off Dispatch's
/// width-limited global queues, which starve when several suites block at once).
func offloaded<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try body() }) }
        thread.stackSize = 1 << 20
        thread.start()
    }
}
