import Testing

@testable import HTTPServer

@Suite("LoopbackHTTPClient: the commands' HTTP/1.1 client (RFC 9112)")
struct LoopbackHTTPClientTests {
    @Test("a GET and a POST with a body reach the server and come back whole")
    func roundTrip() async throws {
        try await withServer { port, _ in
            let client = LoopbackHTTPClient(host: "127.0.0.1", port: port)
            let get = try await client.send("GET", "/a?x=1", headers: [("Authorization", "Bearer owner")])
            #expect(get.status == 200)
            #expect(String(decoding: get.body, as: UTF8.self) == "GET /a ")
            let post = try await client.send("POST", "/b", headers: [("Content-Type", "application/json")], body: Array("{}".utf8))
            #expect(String(decoding: post.body, as: UTF8.self) == "POST /b {}")
            #expect(post.headers.contains { $0.name == "content-length" && $0.value == "10" })
        }
    }

    @Test("a refused port is a Failure naming the address, not a crash or a hang")
    func refused() async throws {
        let port = try closedPort()
        await #expect(throws: LoopbackHTTPClient.Failure.self) {
            _ = try await LoopbackHTTPClient(host: "127.0.0.1", port: port, timeoutSeconds: 1).send("GET", "/")
        }
        do {
            _ = try await LoopbackHTTPClient(host: "127.0.0.1", port: port, timeoutSeconds: 1).send("GET", "/")
        } catch {
            #expect(error.description.hasPrefix("cannot connect to 127.0.0.1:\(port): "))
        }
    }

    @Test("answers parse with Content-Length, chunked coding (extensions ignored) and to the end of the stream")
    func parsing() throws {
        let sized = try LoopbackHTTPClient.parse(Array("HTTP/1.1 404 Not Found\r\nContent-Length: 3\r\nX-A:  b \r\n\r\nabcdef".utf8))
        #expect(sized.status == 404)
        #expect(sized.body == Array("abc".utf8))
        #expect(sized.headers.last?.name == "x-a" && sized.headers.last?.value == "b")
        let chunked = try LoopbackHTTPClient.parse(
            Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;ext=1\r\nWiki\r\nA\r\n0123456789\r\n0\r\n\r\n".utf8))
        #expect(String(decoding: chunked.body, as: UTF8.self) == "Wiki0123456789")
        let unsized = try LoopbackHTTPClient.parse(Array("HTTP/1.0 200 OK\r\n\r\nall of it".utf8))
        #expect(String(decoding: unsized.body, as: UTF8.self) == "all of it")
    }

    @Test(
        "answers that are not HTTP, or cut short, are Failures",
        arguments: [
            "SSH-2.0-OpenSSH\r\n\r\n", "HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nshort",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\nxx\r\n", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n9\r\nab",
            "no header end",
        ])
    func malformed(_ text: String) {
        #expect(throws: LoopbackHTTPClient.Failure.self) { try LoopbackHTTPClient.parse(Array(text.utf8)) }
    }

    @Test("request heads name the host (brackets for IPv6), close the connection and size the body")
    func encoding() {
        let v6 = LoopbackHTTPClient(host: "::1", port: 8080).encode("POST", "/p", headers: [("A", "b")], body: [1, 2])
        #expect(v6 == Array("POST /p HTTP/1.1\r\nHost: [::1]:8080\r\nConnection: close\r\nA: b\r\nContent-Length: 2\r\n\r\n".utf8) + [1, 2])
    }

    @Test("LogFormat writes milliseconds with one decimal, rounded")
    func milliseconds() {
        #expect(LogFormat.milliseconds(12.345) == "12.3")
        #expect(LogFormat.milliseconds(0.05) == "0.1")
        #expect(LogFormat.milliseconds(0) == "0.0")
        #expect(LogFormat.milliseconds(1999.96) == "2000.0")
    }

    /// A loopback port nothing listens on: bound, then closed.
    private func closedPort() throws -> Int {
        let (fd, port) = try Syscall.makeListeningSocket(host: "127.0.0.1", port: 0, backlog: 1)
        Syscall.close(fd)
        return port
    }
}
