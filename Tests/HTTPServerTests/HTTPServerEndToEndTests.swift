import Foundation
import Testing

@testable import HTTPServer

@Suite(.serialized) struct HTTPServerEndToEndTests {
    @Test func keepAliveConnectionServesTwoRequests() async throws {
        try await withServer { port, logs in
            let (first, second) = try await offloaded {
                let socket = try TestSocket(port: port)
                try socket.send("GET /a?x=1 HTTP/1.1\r\nHost: t\r\n\r\n")
                let first = try socket.readResponse()
                try socket.send("POST /b HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\n\r\nxyz")
                return (first, try socket.readResponse())
            }
            #expect(first.status == 200)
            #expect(first.text == "GET /a ")
            #expect(first.header("connection") == nil)
            #expect(second.text == "POST /b xyz")
            let lines = logs.all
            #expect(lines.count == 2)
            #expect(lines.first?.hasPrefix("127.0.0.1:") == true)
            #expect(lines.first?.contains("\"GET /a?x=1 HTTP/1.1\" 200 7B ") == true)
            #expect(lines.first?.hasSuffix("ms") == true)
        }
    }

    @Test func pipelinedRequestsAreAnsweredInOrderWhateverTheHandlerTimes() async throws {
        let handler = ClosureHandler { request in
            let delay: Duration =
                switch request.path {
                case "/slow": .milliseconds(300)
                case "/medium": .milliseconds(100)
                default: .zero
                }
            try? await Task.sleep(for: delay)
            return .text(200, request.path)
        }
        try await withServer(handler: handler) { port, _ in
            let bodies = try await offloaded {
                let socket = try TestSocket(port: port)
                try socket.send(
                    "GET /slow HTTP/1.1\r\nHost: t\r\n\r\nGET /medium HTTP/1.1\r\nHost: t\r\n\r\n"
                        + "GET /fast HTTP/1.1\r\nHost: t\r\n\r\n")
                return try (0..<3).map { _ in try socket.readResponse().text }
            }
            #expect(bodies == ["/slow", "/medium", "/fast"])
        }
    }

    @Test func inlineAnswersKeepTheirPlaceAmongPipelinedRequests() async throws {
        let handler = InlineClosureHandler { request in
            try? await Task.sleep(for: request.path == "/slow" ? .milliseconds(200) : .zero)
            return .text(200, request.path)
        }
        try await withServer(handler: handler) { port, _ in
            let bodies = try await offloaded {
                let socket = try TestSocket(port: port)
                try socket.send(
                    "GET /inline/a HTTP/1.1\r\nHost: t\r\n\r\nGET /slow HTTP/1.1\r\nHost: t\r\n\r\n"
                        + "GET /inline/b HTTP/1.1\r\nHost: t\r\n\r\nGET /fast HTTP/1.1\r\nHost: t\r\n\r\n")
                return try (0..<4).map { _ in try socket.readResponse().text }
            }
            #expect(bodies == ["inline /inline/a", "/slow", "inline /inline/b", "/fast"])
        }
    }

    @Test func deferredAnswersFromAnotherThreadKeepTheirPlace() async throws {
        let handler = InlineClosureHandler { request in .text(200, request.path) }
        try await withServer(handler: handler) { port, _ in
            let bodies = try await offloaded {
                let socket = try TestSocket(port: port)
                try socket.send(
                    "POST /deferred/a HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\n\r\nGET /inline/b HTTP/1.1\r\nHost: t\r\n\r\n"
                        + "GET /c HTTP/1.1\r\nHost: t\r\n\r\nGET /deferred/d HTTP/1.1\r\nHost: t\r\n\r\n")
                return try (0..<4).map { _ in try socket.readResponse().text }
            }
            #expect(bodies == ["deferred /deferred/a", "inline /inline/b", "/c", "deferred /deferred/d"])
        }
    }

    @Test func aDeferredAnswerAfterTheClientLeftIsDropped() async throws {
        let handler = InlineClosureHandler { request in .text(200, request.path) }
        try await withServer(handler: handler) { port, _ in
            try await offloaded {
                let socket = try TestSocket(port: port)
                try socket.send("GET /deferred/gone HTTP/1.1\r\nHost: t\r\n\r\n")
            }  // the socket closes here, before the answer
            try await Task.sleep(for: .milliseconds(300))
            let body = try await offloaded {
                let socket = try TestSocket(port: port)
                try socket.send("GET /after HTTP/1.1\r\nHost: t\r\n\r\n")
                return try socket.readResponse().text
            }
            #expect(body == "/after")
        }
    }

    @Test func oversizedHeaderSectionGets431AndClose() async throws {
        try await withServer { port, _ in
            let (response, closed) = try await offloaded {
                let socket = try TestSocket(port: port)
                let big = String(repeating: "a", count: 70_000)
                try socket.send("GET / HTTP/1.1\r\nHost: t\r\nX-Big: \(big)\r\n\r\n")
                return (try socket.readResponse(), try socket.waitForClose())
            }
            #expect(response.status == 431)
            #expect(response.header("connection") == "close")
            #expect(closed)
        }
    }

    @Test func declaredBodyOverTheLimitGets413WithoutReadingIt() async throws {
        try await withServer { port, _ in
            let response = try await offloaded {
                let socket = try TestSocket(port: port)
                try socket.send("PUT /big HTTP/1.1\r\nHost: t\r\nContent-Length: \(16 << 20 + 1)\r\n\r\n")
                return try socket.readResponse()
            }
            #expect(response.status == 413)
        }
    }

    @Test func chunkedUploadArrivingInPiecesIsReassembled() async throws {
        try await withServer { port, _ in
            let response = try await offloaded {
                let socket = try TestSocket(port: port)
                try socket.send("POST /up HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n")
                for piece in ["5\r\nhello\r\n", "1;ext=x\r\n", " \r\n", "5\r\nworld\r\n", "0\r\nT: 1\r\n\r\n"] {
                    try socket.send(piece)
                    usleep(5_000)
                }
                return try socket.readResponse()
            }
            #expect(response.text == "POST /up hello world")
        }
    }

    @Test func expectContinueGets100BeforeTheBody() async throws {
        try await withServer { port, _ in
            let (interim, final) = try await offloaded {
                let socket = try TestSocket(port: port)
                try socket.send("PUT /e HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
                let interim = try socket.readResponse()
                try socket.send("data")
                return (interim, try socket.readResponse())
            }
            #expect(interim.status == 100)
            #expect(final.text == "PUT /e data")
        }
    }

    @Test func connectionCloseAndHTTP10CloseAfterTheResponse() async throws {
        try await withServer { port, _ in
            let results = try await offloaded {
                try ["GET / HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n", "GET / HTTP/1.0\r\n\r\n"].map {
                    request in
                    let socket = try TestSocket(port: port)
                    try socket.send(request)
                    return (try socket.readResponse(), try socket.waitForClose())
                }
            }
            for (response, closed) in results {
                #expect(response.status == 200)
                #expect(response.header("connection") == "close")
                #expect(closed)
            }
        }
    }

    @Test func malformedRequestGets400AfterEarlierPipelinedResponses() async throws {
        try await withServer { port, _ in
            let (first, second, closed) = try await offloaded {
                let socket = try TestSocket(port: port)
                try socket.send("GET /ok HTTP/1.1\r\nHost: t\r\n\r\nGARBAGE\r\n\r\n")
                return (try socket.readResponse(), try socket.readResponse(), try socket.waitForClose())
            }
            #expect(first.text == "GET /ok ")
            #expect(second.status == 400)
            #expect(closed)
        }
    }

    @Test func largeResponseIsDeliveredToASlowReader() async throws {
        let size = 8 << 20
        let handler = ClosureHandler { _ in HTTPResponse(status: 200, body: [UInt8](repeating: 0x61, count: size)) }
        try await withServer(handler: handler) { port, _ in
            let response = try await offloaded {
                let socket = try TestSocket(port: port)
                try socket.send("GET /big HTTP/1.1\r\nHost: t\r\n\r\n")
                usleep(100_000)  // Let the server fill the socket buffer and wait for EPOLLOUT.
                return try socket.readResponse()
            }
            #expect(response.body.count == size)
            #expect(response.body.allSatisfy { $0 == 0x61 })
        }
    }

    @Test func headRequestGetsLengthButNoBody() async throws {
        try await withServer { port, _ in
            let (head, next) = try await offloaded {
                let socket = try TestSocket(port: port)
                try socket.send("HEAD /h HTTP/1.1\r\nHost: t\r\n\r\nGET /g HTTP/1.1\r\nHost: t\r\n\r\n")
                return (try socket.readResponse(toHead: true), try socket.readResponse())
            }
            #expect(head.header("content-length") == "8")
            #expect(next.text == "GET /g ")
        }
    }

    @Test func secondServerOnTheSamePortFailsWithAddressInUse() async throws {
        try await withServer { port, _ in
            let other = HTTPServer(configuration: .init(port: port), handler: echoHandler) { _ in }
            #expect(throws: HTTPServerError.addressInUse(host: "127.0.0.1", port: port)) { try other.start() }
        }
    }

    @Test func shutdownLetsInFlightRequestsFinish() async throws {
        let started = LockedValue(false)
        let handler = ClosureHandler { _ in
            started.withLock { $0 = true }
            try? await Task.sleep(for: .milliseconds(200))
            return .text(200, "done")
        }
        let server = HTTPServer(configuration: .init(), handler: handler) { _ in }
        let port = try server.start()
        let pending = Task {
            try await offloaded {
                let socket = try TestSocket(port: port)
                try socket.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n")
                return (try socket.readResponse(), try socket.waitForClose())
            }
        }
        while !started.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
        await server.shutdown()
        let (response, closed) = try await pending.value
        #expect(response.text == "done")
        #expect(response.header("connection") == "close")
        #expect(closed)
        #expect(throws: (any Error).self) { _ = try TestSocket(port: port) }
    }
}
