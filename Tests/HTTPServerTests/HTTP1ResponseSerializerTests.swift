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

    @Test func parseErrorsBecomeGoogleErrorJSON() {
        let response = HTTP1ResponseSerializer.errorResponse(for: .headerSectionTooLarge(limitBytes: 10))
        #expect(response.status == 431)
        #expect(response.headers["content-type"] == "application/json; charset=utf-8")
        #expect(
            String(decoding: response.body, as: UTF8.self)
                == #"{"error":{"code":431,"message":"request header section exceeds 10 bytes","status":"INVALID_ARGUMENT"}}"#)
        let quoted = HTTPResponse.googleError(400, "bad \"x\"\n")
        #expect(String(decoding: quoted.body, as: UTF8.self).contains(#""message":"bad \"x\"\u000a""#))
    }
}
