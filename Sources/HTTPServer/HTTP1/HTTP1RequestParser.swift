/// Incremental HTTP/1.1 request decoder: feed it bytes, pull complete requests (RFC 9112).
///
/// A value type that does no I/O. Bytes may arrive split anywhere; several pipelined requests
/// may arrive in one buffer. After an ``Event/error(_:)`` the parser is finished and ignores
/// further input: the connection must answer with the error's status and close.
///
/// ```swift
/// var parser = HTTP1RequestParser(limits: .init())
/// parser.feed(bytes)
/// while let event = parser.next() { … }
/// ```
///
/// Memory is bounded by the limits: at most `maxHeaderBytes` of head (or chunk-size line) is
/// buffered before it is rejected, and at most `maxBodyBytes` of body is kept per request.
/// Bytes that belong to later pipelined requests stay buffered until pulled.
struct HTTP1RequestParser: Sendable {
    /// Size limits enforced while parsing one request.
    struct Limits: Sendable {
        /// Maximum bytes of request line plus header fields including CRLFs; also bounds a
        /// trailer section. Exceeding it yields a 431.
        var maxHeaderBytes: Int = 65_536
        /// Maximum decoded body bytes. Exceeding it (declared or received) yields a 413.
        var maxBodyBytes: Int = 16 << 20
    }

    /// What the parser has to report.
    enum Event: Sendable {
        /// The head of the next request carried `Expect: 100-continue`, it has a body, and no
        /// body bytes have arrived yet: the peer waits for `100 Continue` (RFC 9110 §10.1.1).
        case expectContinue
        /// A complete request.
        case request(HTTP1ParsedRequest)
        /// The peer's bytes are unacceptable; nothing further will be parsed.
        case error(HTTP1ParseError)
    }

    /// Where the parser is within the current request, for the owner's timeouts.
    enum Progress: Sendable, Equatable {
        /// Between requests: no byte of the next request has been consumed or buffered.
        case idle
        /// Some of a request head has arrived, but not its empty line.
        case head
        /// The head is complete; body bytes are still due.
        case body
        /// An error was reported; the parser is done.
        case failed
    }

    /// The head of the request being received.
    struct Head: Sendable {
        var method: String
        var target: String
        var minorVersion: Int
        var headers: HTTPHeaders
        var keepAlive: Bool
        var expectsContinue: Bool
    }

    /// How the body of the current request is delimited (RFC 9112 §6.3).
    enum BodyFraming: Sendable, Equatable {
        case none
        case contentLength(Int)
        case chunked
    }

    private enum State: Sendable {
        case head
        case fixedBody(Head, remaining: Int)
        case chunkSizeLine(Head)
        case chunkData(Head, remaining: Int)
        case chunkDataEnd(Head)
        case trailers(Head, consumedBytes: Int)
        case failed
    }

    /// Longest chunk-size line (size, extensions, CRLF) accepted.
    static let maxChunkLineBytes = 4_096

    /// The limits this parser enforces.
    let limits: Limits
    private var state: State = .head
    private var buffer: [UInt8] = []
    private var readIndex = 0
    /// Where the search for the end of the head resumes, so byte-by-byte input stays O(n).
    private var headScanIndex = 0
    private var body: [UInt8] = []

    /// A parser enforcing `limits`.
    init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Bytes received but not yet consumed by ``next()``.
    var bufferedByteCount: Int { buffer.count - readIndex }

    /// Where the parser is within the current request.
    var progress: Progress {
        switch state {
        case .head: bufferedByteCount == 0 ? .idle : .head
        case .fixedBody, .chunkSizeLine, .chunkData, .chunkDataEnd, .trailers: .body
        case .failed: .failed
        }
    }

    /// Appends received bytes; they are parsed by ``next()``. Ignored after an error.
    mutating func feed<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        if case .failed = state { return }
        buffer.append(contentsOf: bytes)
    }

    /// Consumes buffered bytes and returns the next event, or `nil` when more bytes are needed
    /// (or after an error has been reported).
    mutating func next() -> Event? {
        while true {
            switch state {
            case .failed:
                return nil
            case .head:
                skipLeadingEmptyLines()
                guard let headEnd = findHeadEnd() else {
                    if bufferedByteCount > limits.maxHeaderBytes {
                        return fail(.headerSectionTooLarge(limitBytes: limits.maxHeaderBytes))
                    }
                    return nil
                }
                if headEnd - readIndex > limits.maxHeaderBytes {
                    return fail(.headerSectionTooLarge(limitBytes: limits.maxHeaderBytes))
                }
                let parsed: (Head, BodyFraming)
                do {
                    parsed = try Self.parseHead(buffer[readIndex..<headEnd], limits: limits)
                } catch {
                    return fail(error)
                }
                readIndex = headEnd
                let (head, framing) = parsed
                switch framing {
                case .none, .contentLength(0):
                    return complete(head)
                case .contentLength(let length):
                    body.reserveCapacity(min(length, 1 << 20))
                    state = .fixedBody(head, remaining: length)
                case .chunked:
                    state = .chunkSizeLine(head)
                }
                if head.expectsContinue && bufferedByteCount == 0 {
                    return .expectContinue
                }
            case .fixedBody(let head, let remaining):
                let take = min(remaining, bufferedByteCount)
                body.append(contentsOf: buffer[readIndex..<readIndex + take])
                readIndex += take
                if take == remaining { return complete(head) }
                state = .fixedBody(head, remaining: remaining - take)
                compact()
                return nil
            case .chunkSizeLine(let head):
                guard let line = takeLine(limit: Self.maxChunkLineBytes) else {
                    if bufferedByteCount > Self.maxChunkLineBytes {
                        return fail(.badRequest("chunk-size line too long"))
                    }
                    return nil
                }
                let size: Int
                do { size = try Self.parseChunkSize(line) } catch { return fail(error) }
                if size == 0 {
                    state = .trailers(head, consumedBytes: 0)
                } else if size > limits.maxBodyBytes - body.count {
                    return fail(.bodyTooLarge(limitBytes: limits.maxBodyBytes))
                } else {
                    state = .chunkData(head, remaining: size)
                }
            case .chunkData(let head, let remaining):
                let take = min(remaining, bufferedByteCount)
                body.append(contentsOf: buffer[readIndex..<readIndex + take])
                readIndex += take
                if take < remaining {
                    state = .chunkData(head, remaining: remaining - take)
                    compact()
                    return nil
                }
                state = .chunkDataEnd(head)
            case .chunkDataEnd(let head):
                guard bufferedByteCount >= 1 else { return nil }
                if buffer[readIndex] == ASCII.lf {
                    readIndex += 1
                } else if buffer[readIndex] == ASCII.cr {
                    guard bufferedByteCount >= 2 else { return nil }
                    guard buffer[readIndex + 1] == ASCII.lf else {
                        return fail(.badRequest("chunk data not followed by CRLF"))
                    }
                    readIndex += 2
                } else {
                    return fail(.badRequest("chunk data longer than its chunk-size"))
                }
                state = .chunkSizeLine(head)
            case .trailers(let head, let consumedBytes):
                let remainingAllowance = limits.maxHeaderBytes - consumedBytes
                guard let line = takeLine(limit: remainingAllowance) else {
                    if bufferedByteCount > remainingAllowance {
                        return fail(.headerSectionTooLarge(limitBytes: limits.maxHeaderBytes))
                    }
                    return nil
                }
                if line.isEmpty { return complete(head) }
                // Trailer fields are read and discarded (RFC 9112 §7.1.2 allows ignoring them).
                state = .trailers(head, consumedBytes: consumedBytes + line.count + 2)
            }
        }
    }

    // MARK: - Buffer handling

    private mutating func fail(_ error: HTTP1ParseError) -> Event {
        state = .failed
        buffer = []
        body = []
        readIndex = 0
        headScanIndex = 0
        return .error(error)
    }

    private mutating func complete(_ head: Head) -> Event {
        let request = HTTPRequest(
            method: head.method, target: head.target, headers: head.headers, body: body)
        body = []
        state = .head
        compact()
        headScanIndex = readIndex
        return .request(
            HTTP1ParsedRequest(request: request, minorVersion: head.minorVersion, keepAlive: head.keepAlive))
    }

    /// Drops consumed bytes; releases the storage entirely once everything is consumed, so an
    /// idle keep-alive connection holds no buffer.
    private mutating func compact() {
        if readIndex == buffer.count {
            buffer = []
            headScanIndex = 0
            readIndex = 0
        } else if readIndex > 4_096 && readIndex * 2 > buffer.count {
            buffer.removeFirst(readIndex)
            headScanIndex = max(0, headScanIndex - readIndex)
            readIndex = 0
        }
    }

    /// RFC 9112 §2.2: a server SHOULD ignore at least one empty line received before the request line.
    private mutating func skipLeadingEmptyLines() {
        while readIndex < buffer.count, buffer[readIndex] == ASCII.cr || buffer[readIndex] == ASCII.lf {
            readIndex += 1
        }
        if readIndex == buffer.count { compact() }
        headScanIndex = max(headScanIndex, readIndex)
    }

    /// The index just past the empty line ending the head (`LF CRLF` or `LF LF`), or `nil`.
    private mutating func findHeadEnd() -> Int? {
        var index = headScanIndex
        while index < buffer.count {
            if buffer[index] == ASCII.lf {
                if index + 1 < buffer.count, buffer[index + 1] == ASCII.lf { return index + 2 }
                if index + 2 < buffer.count, buffer[index + 1] == ASCII.cr, buffer[index + 2] == ASCII.lf {
                    return index + 3
                }
                if index + 2 >= buffer.count {
                    headScanIndex = index  // Not enough bytes after this LF yet: resume here.
                    return nil
                }
            }
            index += 1
        }
        headScanIndex = index
        return nil
    }

    /// Takes one line ending in LF (an optional CR before it is stripped) if it is complete and
    /// at most `limit` bytes long including the line end.
    private mutating func takeLine(limit: Int) -> ArraySlice<UInt8>? {
        let end = min(buffer.count, readIndex + max(limit, 0))
        guard let lf = buffer[readIndex..<end].firstIndex(of: ASCII.lf) else { return nil }
        var line = buffer[readIndex..<lf]
        if line.last == ASCII.cr { line = line.dropLast() }
        readIndex = lf + 1
        return line
    }
}
