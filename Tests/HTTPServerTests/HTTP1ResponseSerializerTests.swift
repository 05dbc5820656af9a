import Testing

@testable import HTTPServer

private func wire(_ response: HTTPResponse, method: String = "GET", minor: Int = 1, keepAlive: Bool = true) -> String {
    let message = HTTP1ResponseSerializer.serialize(
        response, context: .init(requestMethod: method, requestMinorVersion: minor, keepAlive: keepAlive))
    return String(decoding: message.bytes, as: UTF8.self)
}

@Suite struct HTTP1ResponseSerializerTests {
    @Test func jsonResponseCarriesContentTypeAndLength() {
        #expect(
            wire(.json(200, Array("{}".utf8)))
                == "HTTP/1.1 200 OK\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: 2\r\n\r\n{}")
    }

    @Test func closingConnectionsSayConnectionClose() {
        #expect(wire(.text(404, "no"), keepAlive: false).contains("\r\nconnection: close\r\n"))
        #expect(wire(.text(200, "x"), minor: 0).contains("\r\nconnection: keep-alive\r\n"))
        #expect(!wire(.text(200, "x")).contains("connection:"))
    }

    @Test func headAnd204And304CarryNoBody() {
        #expect(wire(.text(200, "abc"), method: "HEAD").hasSuffix("content-length: 3\r\n\r\n"))
        #expect(wire(HTTPResponse(status: 204, body: [1, 2])) == "HTTP/1.1 204 No Content\r\n\r\n")
        #expect(wire(HTTPResponse(status: 304)) == "HTTP/1.1 304 Not Modified\r\n\r\n")
    }

    @Test func handlerFramingFieldsAreReplacedAndValuesSanitized() {
        var headers: HTTPHeaders = ["Content-Length": "999", "Transfer-Encoding": "chunked", "Connection": "upgrade"]
        headers.add("X-Echo", "a\r\nSet-Cookie: evil")
        headers.add("Bad Name", "v")
        let text = wire(HTTPResponse(status: 201, headers: headers, body: [0x41]))
        #expect(text == "HTTP/1.1 201 Created\r\nX-Echo: a  Set-Cookie: evil\r\ncontent-length: 1\r\n\r\nA")
    }

    @Test func invalidStatusBecomes500() {
        #expect(wire(HTTPResponse(status: 42)).hasPrefix("HTTP/1.1 500 Internal Server Error\r\n"))
    }

    @Test func parseErrorsAnswerWithTheOwnersErrorResponse() {
        var config = HTTP1ConnectionStateMachine.Configuration()
        config.limits = .init(maxHeaderBytes: 10, maxBodyBytes: 100)
        config.errorResponse = { status, message in .text(status, "owner: \(message)") }
        var m = HTTP1ConnectionStateMachine(configuration: config, remoteAddress: "1.2.3.4:5", now: .now)
        let written = m.receive(Array("GET / HTTP/1.1\r\nHost: a-long-host-name\r\n\r\n".utf8), now: .now)
            .compactMap { action -> String? in
                if case .write(let bytes) = action { return String(decoding: bytes, as: UTF8.self) }
                return nil
            }
            .joined()
        #expect(written.hasPrefix("HTTP/1.1 431 "))
        #expect(written.hasSuffix("owner: request header section exceeds 10 bytes"))
    }

    @Test func theDefaultTransportErrorIsPlainText() {
        let response = plainTransportErrorResponse(408, "request head not received within the timeout")
        #expect(response.status == 408)
        #expect(response.headers["content-type"]?.hasPrefix("text/plain") == true)
        #expect(String(decoding: response.body, as: UTF8.self) == "request head not received within the timeout\n")
    }
}
