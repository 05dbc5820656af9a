import Glibc

/// A minimal HTTP/1.1 client for Hearth's own commands (`hearth indexes`, `hearth demo`) to
/// talk to a running Hearth: one request per connection (`Connection: close`), the answer read
/// to the end of the stream, with a `Content-Length` or `chunked` body.
///
/// Not a general client: plain `http` only, no redirects, no proxies, no TLS. It exists
/// because Foundation's URL loading system (FoundationNetworking, with libcurl and its TLS
/// stack) would add megabytes of resident memory to every Hearth process for the two commands
/// that send a request. Source: RFC 9112 §3 (request line), §4 (status line), §6 (body), §7.1
/// (chunked).
public struct LoopbackHTTPClient: Sendable {
    /// One answer.
    public struct Response: Sendable {
        /// The status code (`200`).
        public var status: Int
        /// The header fields as received, names lowercased, in order.
        public var headers: [(name: String, value: String)]
        /// The body, with the chunked coding removed.
        public var body: [UInt8]
    }

    /// A failure to exchange the request, described for a person ("connection refused").
    public struct Failure: Error, CustomStringConvertible, Sendable {
        /// What went wrong.
        public var description: String
        init(_ description: String) { self.description = description }
    }

    /// The host to connect to: an address (`127.0.0.1`, `::1`) or a name getaddrinfo resolves.
    public var host: String
    /// The TCP port.
    public var port: Int
    /// Longest wait for the connection, each send and each receive, in seconds.
    public var timeoutSeconds: Int

    /// A client of `host:port`; `timeoutSeconds` bounds every wait (5 s by default).
    public init(host: String, port: Int, timeoutSeconds: Int = 5) {
        self.host = host
        self.port = port
        self.timeoutSeconds = timeoutSeconds
    }

    /// Sends one request and reads the whole answer, on a thread of its own (the socket
    /// calls block).
    /// - Parameters:
    ///   - method: `GET`, `POST`, …
    ///   - path: the request target, absolute path and query, already percent-encoded.
    ///   - headers: extra header fields (`Authorization`, `Content-Type`); `Host`,
    ///     `Connection` and `Content-Length` are written by the client.
    ///   - body: the request body, sent with its `Content-Length` when not nil.
    /// - Throws: `Failure` when the host does not resolve, the connection is refused, a wait
    ///   exceeds the timeout, or the answer is not HTTP/1.x.
    public func send(
        _ method: String, _ path: String, headers: [(String, String)] = [], body: [UInt8]? = nil
    ) async throws(Failure) -> Response {
        let request = encode(method, path, headers: headers, body: body)
        let outcome: Result<Response, Failure> = await withCheckedContinuation { continuation in
            DetachedThread.start(name: "hearth-client") { [self] in
                continuation.resume(returning: Result { () throws(Failure) in try exchange(request) })
            }
        }
        return try outcome.get()
    }

    func encode(_ method: String, _ path: String, headers: [(String, String)], body: [UInt8]?) -> [UInt8] {
        let authority = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        var head = "\(method) \(path) HTTP/1.1\r\nHost: \(authority)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        return Array(head.utf8) + (body ?? [])
    }

    func exchange(_ request: [UInt8]) throws(Failure) -> Response {
        let fd = try connect()
        defer { Glibc.close(fd) }
        var offset = 0
        while offset < request.count {
            let n = request.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(errno == EAGAIN ? "no answer within \(timeoutSeconds) s" : Syscall.describe(errno))
            }
            offset += n
        }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(errno == EAGAIN ? "no answer within \(timeoutSeconds) s" : Syscall.describe(errno))
            }
            if n == 0 { break }
            received.append(contentsOf: chunk[..<n])
        }
        return try Self.parse(received)
    }

    private func connect() throws(Failure) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let list else { throw Failure("cannot resolve \(host): \(String(cString: gai_strerror(status)))") }
        defer { freeaddrinfo(list) }
        var lastError = "no usable address for \(host)"
        var cursor: UnsafeMutablePointer<addrinfo>? = list
        while let entry = cursor {
            cursor = entry.pointee.ai_next
            let info = entry.pointee
            let fd = socket(info.ai_family, info.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else {
                lastError = Syscall.describe(errno)
                continue
            }
            var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
            _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            if Glibc.connect(fd, info.ai_addr, info.ai_addrlen) == 0 { return fd }
            lastError = errno == EINPROGRESS ? "no connection within \(timeoutSeconds) s" : Syscall.describe(errno)
            Glibc.close(fd)
        }
        throw Failure("cannot connect to \(host):\(port): \(lastError)")
    }

    /// Parses a whole answer: status line, header fields, body (RFC 9112 §4, §6, §7.1).
    /// - Throws: `Failure` for anything that is not an HTTP/1.x answer.
    static func parse(_ bytes: [UInt8]) throws(Failure) -> Response {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard let end = firstIndex(of: separator, in: bytes[...]) else { throw Failure("the answer is not HTTP (no header section)") }
        let head = String(decoding: bytes[..<end], as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: false)
        let statusParts = head.first?.split(separator: " ", maxSplits: 2) ?? []
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), let status = Int(statusParts[1]) else {
            throw Failure("the answer is not HTTP (status line \"\(head.first?.prefix(40) ?? "")\")")
        }
        var headers: [(name: String, value: String)] = []
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append((line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: " \t")))
        }
        let rest = bytes[(end + separator.count)...]
        let chunked = headers.contains { $0.name == "transfer-encoding" && $0.value.lowercased().contains("chunked") }
        if chunked { return Response(status: status, headers: headers, body: try dechunk(rest)) }
        if let length = headers.first(where: { $0.name == "content-length" }).flatMap({ Int($0.value) }) {
            guard rest.count >= length else { throw Failure("the answer ended after \(rest.count) of \(length) body bytes") }
            return Response(status: status, headers: headers, body: Array(rest.prefix(length)))
        }
        return Response(status: status, headers: headers, body: Array(rest))
    }

    private static func dechunk(_ bytes: ArraySlice<UInt8>) throws(Failure) -> [UInt8] {
        var body: [UInt8] = []
        var cursor = bytes.startIndex
        let lineEnd: [UInt8] = [13, 10]
        while true {
            guard let sizeEnd = firstIndex(of: lineEnd, in: bytes[cursor...]) else { throw Failure("a chunk size line is cut off") }
            let sizeText = String(decoding: bytes[cursor..<sizeEnd], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: " \t"), radix: 16), size >= 0 else {
                throw Failure("a chunk size is not hexadecimal")
            }
            let start = sizeEnd + 2
            if size == 0 { return body }
            guard bytes.endIndex - start >= size + 2 else { throw Failure("a chunk is cut off") }
            body.append(contentsOf: bytes[start..<(start + size)])
            cursor = start + size + 2
        }
    }

    private static func firstIndex(of needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        var i = haystack.startIndex
        while i <= haystack.endIndex - needle.count {
            if haystack[i] == needle[0], haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }
}
