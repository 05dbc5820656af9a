extension HTTP1RequestParser {
    /// Parses a complete head (request line, fields, final empty line) and decides the framing.
    ///
    /// `head = request-line *( field-line CRLF ) CRLF` (RFC 9112 §2.1); a bare LF is accepted as
    /// a line terminator (§2.2), a bare CR is rejected.
    /// - Throws: ``HTTP1ParseError`` for malformed syntax, unsupported versions or codings,
    ///   conflicting framing, a missing or repeated `Host`, or a declared body over the limit.
    static func parseHead(_ bytes: ArraySlice<UInt8>, limits: Limits) throws(HTTP1ParseError) -> (
        Head, BodyFraming
    ) {
        var lines = bytes.split(separator: ASCII.lf, omittingEmptySubsequences: false).map { line in
            line.last == ASCII.cr ? line.dropLast() : line
        }
        // The head ends with an empty line; splitting leaves it (and a trailing "") at the end.
        while let last = lines.last, last.isEmpty { lines.removeLast() }
        guard let requestLine = lines.first else { throw .badRequest("empty request line") }
        for line in lines where line.contains(ASCII.cr) {
            throw .badRequest("bare CR in request head")
        }
        let (method, target, minorVersion) = try parseRequestLine(requestLine)
        var headers = HTTPHeaders()
        for line in lines.dropFirst() {
            let (name, value) = try parseFieldLine(line)
            headers.add(name, value)
        }
        let framing = try bodyFraming(headers, minorVersion: minorVersion, limits: limits)
        let hosts = headers.values("host")
        if hosts.count > 1 { throw .badRequest("more than one Host field") }
        if minorVersion >= 1 && hosts.isEmpty { throw .badRequest("HTTP/1.1 request without Host field") }

        let connection = headers.values("connection").flatMap(ASCII.lowercasedListMembers)
        let keepAlive =
            connection.contains("close")
            ? false : (minorVersion >= 1 || connection.contains("keep-alive"))
        let expectsContinue =
            minorVersion >= 1
            && headers.values("expect").flatMap(ASCII.lowercasedListMembers).contains("100-continue")
        let head = Head(
            method: method, target: target, minorVersion: minorVersion, headers: headers,
            keepAlive: keepAlive, expectsContinue: expectsContinue)
        return (head, framing)
    }

    /// `request-line = method SP request-target SP HTTP-version` (RFC 9112 §3), single spaces.
    /// - Throws: `.badRequest` for bad syntax, `.unsupportedVersion` for HTTP major versions ≠ 1.
    static func parseRequestLine(_ line: ArraySlice<UInt8>) throws(HTTP1ParseError) -> (
        method: String, target: String, minorVersion: Int
    ) {
        let parts = line.split(separator: ASCII.space, omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .badRequest("request line must be 'method SP target SP version'") }
        let (method, target, version) = (parts[0], parts[1], parts[2])
        guard !method.isEmpty, method.allSatisfy(ASCII.isTokenChar) else { throw .badRequest("invalid method") }
        guard !target.isEmpty, target.allSatisfy(ASCII.isTargetChar) else {
            throw .badRequest("invalid request-target")
        }
        // HTTP-version = "HTTP/" DIGIT "." DIGIT (RFC 9112 §2.3)
        let v = Array(version)
        guard v.count == 8, v[0...4].elementsEqual("HTTP/".utf8), v[6] == UInt8(ascii: "."),
            let major = decimalDigit(v[5]), let minor = decimalDigit(v[7])
        else { throw .badRequest("invalid HTTP version") }
        guard major == 1 else { throw .unsupportedVersion(ASCII.string(version)) }
        return (ASCII.string(method), ASCII.string(target), min(minor, 1))
    }

    /// `field-line = field-name ":" OWS field-value OWS` (RFC 9112 §5). No whitespace before the
    /// colon (§5.1) and no obsolete line folding (§5.2) are accepted.
    /// - Throws: `.badRequest` naming the problem.
    static func parseFieldLine(_ line: ArraySlice<UInt8>) throws(HTTP1ParseError) -> (String, String) {
        guard let first = line.first, first != ASCII.space, first != ASCII.tab else {
            throw .badRequest("obsolete line folding in header field")
        }
        guard let colon = line.firstIndex(of: ASCII.colon) else { throw .badRequest("header field without ':'") }
        let name = line[line.startIndex..<colon]
        guard !name.isEmpty, name.allSatisfy(ASCII.isTokenChar) else {
            throw .badRequest("invalid header field name")
        }
        let value = ASCII.trimmingOWS(line[line.index(after: colon)...])
        guard value.allSatisfy(ASCII.isFieldValueChar) else {
            throw .badRequest("invalid character in header field '\(ASCII.string(name))'")
        }
        return (ASCII.string(name), ASCII.string(value))
    }

    /// Decides how the body is delimited (RFC 9112 §6.1–§6.3).
    /// - Throws: `.badRequest` for both `Content-Length` and `Transfer-Encoding`, a final coding
    ///   other than `chunked`, `Transfer-Encoding` in HTTP/1.0, or an invalid `Content-Length`;
    ///   `.unsupportedTransferCoding` for codings before `chunked`; `.bodyTooLarge` for a
    ///   declared length over the limit.
    static func bodyFraming(_ headers: HTTPHeaders, minorVersion: Int, limits: Limits) throws(HTTP1ParseError)
        -> BodyFraming
    {
        let lengths = headers.values("content-length")
        let codings = headers.values("transfer-encoding").flatMap(ASCII.lowercasedListMembers)
        if headers.contains("transfer-encoding") {
            guard lengths.isEmpty else { throw .badRequest("both Content-Length and Transfer-Encoding") }
            guard minorVersion >= 1 else { throw .badRequest("Transfer-Encoding in an HTTP/1.0 request") }
            guard codings.last == "chunked" else { throw .badRequest("final transfer coding is not chunked") }
            guard codings.count == 1 else {
                throw .unsupportedTransferCoding(codings.dropLast().joined(separator: ", "))
            }
            return .chunked
        }
        guard !lengths.isEmpty else { return .none }
        // Repeated or list-valued Content-Length is allowed only if every member is identical.
        let members = lengths.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
            .map { $0.trimmingCharacters(in: " \t") }
        guard let firstMember = members.first, members.allSatisfy({ $0 == firstMember }) else {
            throw .badRequest("conflicting Content-Length values")
        }
        guard !firstMember.isEmpty, firstMember.utf8.allSatisfy({ decimalDigit($0) != nil }) else {
            throw .badRequest("invalid Content-Length")
        }
        let significant = firstMember.drop { $0 == "0" }
        guard significant.count <= 18, let length = Int(significant.isEmpty ? "0" : String(significant)) else {
            throw .bodyTooLarge(limitBytes: limits.maxBodyBytes)
        }
        guard length <= limits.maxBodyBytes else { throw .bodyTooLarge(limitBytes: limits.maxBodyBytes) }
        return .contentLength(length)
    }

    /// `chunk-size [ chunk-ext ]` (RFC 9112 §7.1, §7.1.1); extensions are ignored.
    /// - Returns: the chunk size in bytes.
    /// - Throws: `.badRequest` for a missing, non-hex or overlong (> 15 hex digits) size, or
    ///   garbage after it.
    static func parseChunkSize(_ line: ArraySlice<UInt8>) throws(HTTP1ParseError) -> Int {
        var size = 0
        var digits = 0
        var index = line.startIndex
        while index < line.endIndex, let digit = ASCII.hexValue(line[index]) {
            digits += 1
            guard digits <= 15 else { throw .badRequest("chunk size too large") }
            size = size << 4 | Int(digit)
            index += 1
        }
        guard digits > 0 else { throw .badRequest("invalid chunk size") }
        let rest = ASCII.trimmingOWS(line[index...])
        guard rest.isEmpty || rest.first == ASCII.semicolon else { throw .badRequest("invalid chunk size") }
        return size
    }

    private static func decimalDigit(_ byte: UInt8) -> Int? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int(byte - UInt8(ascii: "0")) : nil
    }
}
