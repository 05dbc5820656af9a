import Testing

@testable import HTTPServer

/// Feeds `input` with `split`, pulling events after every chunk, and renders each event as a line.
private func parse(
    _ input: String, split: FeedSplit = .whole, limits: HTTP1RequestParser.Limits = .init()
) -> [String] {
    parse(Array(input.utf8), split: split, limits: limits)
}

private func parse(
    _ input: [UInt8], split: FeedSplit = .whole, limits: HTTP1RequestParser.Limits = .init()
) -> [String] {
    var parser = HTTP1RequestParser(limits: limits)
    var lines: [String] = []
    for chunk in split.chunks(input) {
        parser.feed(chunk)
        while let event = parser.next() { lines.append(render(event)) }
    }
    return lines
}

private func render(_ event: HTTP1RequestParser.Event) -> String {
    switch event {
    case .expectContinue:
        return "100-continue"
    case .request(let parsed):
        let r = parsed.request
        let body = String(decoding: r.body, as: UTF8.self)
        return "\(r.method) \(r.target) 1.\(parsed.minorVersion) keepAlive=\(parsed.keepAlive) body=\(body)"
    case .error(let error):
        return "error \(error.status)"
    }
}

private func firstRequest(_ input: String) throws -> HTTP1ParsedRequest {
    var parser = HTTP1RequestParser()
    parser.feed(Array(input.utf8))
    guard case .request(let parsed) = parser.next() else {
        Issue.record("no request parsed")
        throw CancellationError()
    }
    return parsed
}

@Suite struct HTTP1RequestParserTests {
    static let pipelined =
        "GET /a?x=1 HTTP/1.1\r\nHost: h\r\n\r\n"
        + "POST /b HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nhello"
        + "PUT /c HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
        + "3;ext=1\r\nabc\r\n0A\r\n0123456789\r\n0\r\nX-Trailer: t\r\n\r\n"
        + "DELETE /d HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n"

    @Test(arguments: FeedSplit.all)
    func pipelinedRequestsParseIdenticallyUnderEverySplit(split: FeedSplit) {
        #expect(
            parse(Self.pipelined, split: split) == [
                "GET /a?x=1 1.1 keepAlive=true body=",
                "POST /b 1.1 keepAlive=true body=hello",
                "PUT /c 1.1 keepAlive=true body=abc0123456789",
                "DELETE /d 1.1 keepAlive=false body=",
            ])
    }

    @Test func headersKeepOrderAndLookUpCaseInsensitively() throws {
        let parsed = try firstRequest(
            "GET /x HTTP/1.1\r\nHost: h\r\nX-Multi: one\r\nContent-Type:  text/plain \t\r\nx-multi: two\r\n\r\n")
        let headers = parsed.request.headers
        #expect(headers["content-type"] == "text/plain")
        #expect(headers["CONTENT-TYPE"] == "text/plain")
        #expect(headers.values("X-MULTI") == ["one", "two"])
        #expect(headers.map(\.name) == ["Host", "X-Multi", "Content-Type", "x-multi"])
    }

    @Test func targetSplitsIntoPathAndDecodedQueryItems() throws {
        let parsed = try firstRequest(
            "GET /v1/projects/p/databases/(default)/documents/a%2Fb?mask.fieldPaths=x&q=a+b%20c&mask.fieldPaths=y&flag HTTP/1.1\r\nHost: h\r\n\r\n"
        )
        let request = parsed.request
        #expect(request.path == "/v1/projects/p/databases/(default)/documents/a%2Fb")
        #expect(request.queryItems.map(\.name) == ["mask.fieldPaths", "q", "mask.fieldPaths", "flag"])
        #expect(request.queryItems.map(\.value) == ["x", "a b c", "y", ""])
        #expect(request.queryItem("q") == "a b c")
    }

    @Test func absoluteFormTargetYieldsOriginPath() {
        #expect(RequestTarget.split("http://localhost:8080/a/b?c=d") == ("/a/b", "c=d"))
        #expect(RequestTarget.split("http://localhost:8080").path == "/")
        #expect(RequestTarget.split("*") == ("*", nil))
        // The byte scan keeps the Character-based split's answers.
        #expect(RequestTarget.split("/a/b?c=d#frag") == ("/a/b", "c=d"))
        #expect(RequestTarget.split("/a#f?x") == ("/a", nil))
        #expect(RequestTarget.split("/a?") == ("/a", ""))
        #expect(RequestTarget.split("/é/ü?q=é") == ("/é/ü", "q=é"))
        #expect(RequestTarget.split("/v1/x://y?z") == ("/v1/x://y", "z"))
        #expect(RequestTarget.split("http://h:1?q=1") == ("/", "q=1"))
        // Against the Character-based split it replaced, over targets built from the delimiters.
        let pieces = ["/", "?", "#", ":", "://", "a", "é", "h:1", "x=y", "", "*", "%2F"]
        var n = 0
        for a in pieces { for b in pieces { for c in pieces { for d in pieces {
            let t = a + b + c + d
            #expect(RequestTarget.split(t) == characterSplit(t), "\(t)")
            n += 1
        } } } }
        #expect(n == 20_736)
        #expect(RequestTarget.split("https://h/p?q#f") == ("/p", "q"))
        #expect(RequestTarget.split("") == ("", nil))
        #expect(RequestTarget.split("a:/b") == ("a:/b", nil))
        #expect(RequestTarget.formDecode("%zz%4") == "%zz%4")
        #expect(RequestTarget.formDecode("%C3%A9") == "é")
    }

    @Test func keepAliveFollowsVersionAndConnectionField() {
        let cases: [(String, Bool)] = [
            ("GET / HTTP/1.1\r\nHost: h\r\n\r\n", true),
            ("GET / HTTP/1.1\r\nHost: h\r\nConnection: Keep-Alive, Close\r\n\r\n", false),
            ("GET / HTTP/1.0\r\n\r\n", false),
            ("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", true),
        ]
        for (input, keepAlive) in cases {
            #expect(parse(input).first?.contains("keepAlive=\(keepAlive)") == true, "\(input)")
        }
    }

    @Test(arguments: FeedSplit.all)
    func expectContinueIsReportedBeforeTheBody(split: FeedSplit) {
        let head = "POST /u HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n"
        var parser = HTTP1RequestParser()
        var lines: [String] = []
        for chunk in split.chunks(Array(head.utf8)) {
            parser.feed(chunk)
            while let event = parser.next() { lines.append(render(event)) }
        }
        #expect(parser.progress == .body)
        parser.feed(Array("abc".utf8))
        while let event = parser.next() { lines.append(render(event)) }
        #expect(lines == ["100-continue", "POST /u 1.1 keepAlive=true body=abc"])
    }

    @Test func expectContinueIsNotReportedWhenTheBodyIsAlreadyHere() {
        let input = "POST /u HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\nabc"
        #expect(parse(input) == ["POST /u 1.1 keepAlive=true body=abc"])
    }

    @Test func leadingEmptyLinesAndBareLFAreTolerated() {
        #expect(parse("\r\n\r\nGET / HTTP/1.1\nHost: h\n\n") == ["GET / 1.1 keepAlive=true body="])
    }

    @Test func progressTracksTheCurrentRequest() {
        var parser = HTTP1RequestParser()
        #expect(parser.progress == .idle)
        parser.feed(Array("GET / HT".utf8))
        _ = parser.next()
        #expect(parser.progress == .head)
        parser.feed(Array("TP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\na".utf8))
        _ = parser.next()
        #expect(parser.progress == .body)
        parser.feed(Array("b".utf8))
        _ = parser.next()
        #expect(parser.progress == .idle)
    }

    static let rejected: [(String, String, Int)] = [
        ("request line with two spaces", "GET  / HTTP/1.1\r\nHost: h\r\n\r\n", 400),
        ("missing version", "GET /\r\nHost: h\r\n\r\n", 400),
        ("lowercase version", "GET / http/1.1\r\nHost: h\r\n\r\n", 400),
        ("HTTP/2.0 on an HTTP/1 connection", "GET / HTTP/2.0\r\nHost: h\r\n\r\n", 505),
        ("invalid method token", "G(T / HTTP/1.1\r\nHost: h\r\n\r\n", 400),
        ("field without colon", "GET / HTTP/1.1\r\nHost: h\r\nNoColon\r\n\r\n", 400),
        ("space before colon", "GET / HTTP/1.1\r\nHost : h\r\n\r\n", 400),
        ("obsolete line folding", "GET / HTTP/1.1\r\nHost: h\r\nX: a\r\n b\r\n\r\n", 400),
        ("bare CR", "GET / HTTP/1.1\r\nHost: h\rX: y\r\n\r\n", 400),
        ("control char in value", "GET / HTTP/1.1\r\nHost: h\r\nX: a\u{01}b\r\n\r\n", 400),
        ("missing Host in HTTP/1.1", "GET / HTTP/1.1\r\n\r\n", 400),
        ("two Host fields", "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400),
        (
            "both CL and TE", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n",
            400
        ),
        ("non-numeric CL", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 12a\r\n\r\n", 400),
        ("negative CL", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: -1\r\n\r\n", 400),
        ("conflicting CLs", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n", 400),
        ("final coding not chunked", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip\r\n\r\n", 400),
        ("coding before chunked", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", 501),
        ("TE in HTTP/1.0", "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
        ("non-hex chunk size", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400),
        ("empty chunk size", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n\r\n", 400),
        (
            "overlong chunk size",
            "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n1000000000000000\r\n", 400
        ),
        (
            "chunk longer than declared",
            "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n0\r\n\r\n", 400
        ),
        ("huge CL", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 99999999999999999999999\r\n\r\n", 413),
        ("CL over limit", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 16777217\r\n\r\n", 413),
    ]

    @Test(arguments: rejected.indices)
    func malformedInputMapsToItsStatus(index: Int) {
        let (name, input, status) = Self.rejected[index]
        for split in [FeedSplit.whole, .byteByByte, .random(seed: 7)] {
            #expect(parse(input, split: split) == ["error \(status)"], "\(name) / \(split)")
        }
    }

    @Test func headerSectionOverTheLimitIs431EvenWithoutItsEnd() {
        let filler = String(repeating: "a", count: 70_000)
        #expect(parse("GET / HTTP/1.1\r\nHost: h\r\nX-Big: \(filler)") == ["error 431"])
        #expect(parse("GET / HTTP/1.1\r\nHost: h\r\nX-Big: \(filler)\r\n\r\n") == ["error 431"])
        let small = HTTP1RequestParser.Limits(maxHeaderBytes: 64, maxBodyBytes: 10)
        #expect(
            parse(
                "GET / HTTP/1.1\r\nHost: h\r\nX: \(String(repeating: "b", count: 60))\r\n\r\n", split: .byteByByte,
                limits: small)
                == ["error 431"])
    }

    @Test func chunkedBodyOverTheLimitIs413() {
        let limits = HTTP1RequestParser.Limits(maxHeaderBytes: 1024, maxBodyBytes: 10)
        let input =
            "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nabcdef\r\n6\r\nghijkl\r\n0\r\n\r\n"
        #expect(parse(input, split: .byteByByte, limits: limits) == ["error 413"])
        let fits =
            "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nabcde\r\n5\r\nfghij\r\n0\r\n\r\n"
        #expect(parse(fits, limits: limits) == ["POST / 1.1 keepAlive=true body=abcdefghij"])
    }

    @Test func nothingIsParsedAfterAnError() {
        let input = "BAD\r\n\r\nGET / HTTP/1.1\r\nHost: h\r\n\r\n"
        #expect(parse(input) == ["error 400"])
        var parser = HTTP1RequestParser()
        parser.feed(Array(input.utf8))
        _ = parser.next()
        parser.feed(Array("GET / HTTP/1.1\r\nHost: h\r\n\r\n".utf8))
        #expect(parser.next() == nil)
        #expect(parser.progress == .failed)
    }

    @Test func largeBodyByteByByteStaysLinear() {
        let body = String(repeating: "z", count: 200_000)
        let input = "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
        #expect(parse(input, split: .random(seed: 3)).first?.hasSuffix(body) == true)
    }
}

@Suite struct RequestTargetBytesTests {
    @Test func rawNonASCIIBytesInTheTargetAreABadRequest() {
        for raw: [UInt8] in [[0xFF, 0xFE], [0xC3, 0xA9]] {
            var parser = HTTP1RequestParser()
            parser.feed(Array("GET /c/".utf8) + raw + Array(" HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            var sawError = false
            while let event = parser.next() {
                if case .error = event { sawError = true }
            }
            #expect(sawError, "\(raw)")
        }
    }
}

/// The request-target split as first written, on `Character`s: the reference the byte scan
/// is checked against.
private func characterSplit(_ target: String) -> (path: String, query: String?) {
    var rest = Substring(target)
    if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
    if let schemeEnd = rest.firstRange(of: "://"), !rest.hasPrefix("/") {
        let afterScheme = rest[schemeEnd.upperBound...]
        let pathStart = afterScheme.firstIndex { $0 == "/" || $0 == "?" } ?? afterScheme.endIndex
        rest = afterScheme[pathStart...]
        if rest.isEmpty || rest.hasPrefix("?") { rest = "/" + rest }
    }
    guard let question = rest.firstIndex(of: "?") else { return (String(rest), nil) }
    return (String(rest[..<question]), String(rest[rest.index(after: question)...]))
}
