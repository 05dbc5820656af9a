import Testing

@testable import HTTPServer

/// Renders actions as short strings so whole sequences can be compared.
private func render(_ actions: [HTTP1ConnectionStateMachine.Action]) -> [String] {
    actions.compactMap { action in
        switch action {
        case .dispatch(let sequence, let request): "dispatch \(sequence) \(request.method) \(request.target)"
        case .write(let bytes):
            // Status lines only; body writes are left out.
            String(decoding: bytes, as: UTF8.self).split(separator: "\r\n").first.flatMap {
                $0.hasPrefix("HTTP/1.1") ? "write \($0)" : nil
            }
        case .log: "log"
        case .cancelHandlers: "cancel"
        case .attachStream(let sequence, _): "attach \(sequence)"
        case .cancelStream: "cancel stream"
        case .close(let graceful): graceful ? "close graceful" : "close now"
        }
    }
}

@Suite struct HTTP1ConnectionStateMachineTests {
    let t0 = ContinuousClock.now
    var config = HTTP1ConnectionStateMachine.Configuration(
        idleTimeout: .seconds(60), requestHeadTimeout: .seconds(10), bodyReadTimeout: .seconds(30))

    func machine() -> HTTP1ConnectionStateMachine {
        HTTP1ConnectionStateMachine(configuration: config, remoteAddress: "1.2.3.4:5", now: t0)
    }

    /// Every byte the actions write, in order, as text.
    private func written(_ actions: [HTTP1ConnectionStateMachine.Action]) -> String {
        actions.reduce(into: "") { text, action in
            if case .write(let bytes) = action { text += String(decoding: bytes, as: UTF8.self) }
        }
    }

    @Test func streamedBodyIsChunkedAndHoldsBackLaterResponses() {
        var m = machine()
        let input = "GET /stream HTTP/1.1\r\nHost: h\r\n\r\nGET /2 HTTP/1.1\r\nHost: h\r\n\r\n"
        _ = m.receive(Array(input.utf8), now: t0)
        #expect(render(m.responseReady(sequence: 1, response: .text(200, "second"), now: t0)).isEmpty)
        let streamed = HTTPResponse(status: 200, body: Array("ab".utf8), bodyStream: HTTPBodyStream())
        let head = m.responseReady(sequence: 0, response: streamed, now: t0)
        #expect(render(head) == ["write HTTP/1.1 200 OK", "attach 0"])
        let headText = written(head)
        #expect(headText.contains("transfer-encoding: chunked\r\n"))
        #expect(!headText.contains("content-length"))
        #expect(headText.hasSuffix("\r\n\r\n2\r\nab\r\n"))
        let middle = m.streamed(sequence: 0, chunks: [Array("hello".utf8), []], finished: false, now: t0)
        #expect(written(middle) == "5\r\nhello\r\n")
        #expect(m.outstandingResponses == 2)
        let end = m.streamed(sequence: 0, chunks: [Array("!".utf8)], finished: true, now: t0)
        #expect(render(end) == ["log", "write HTTP/1.1 200 OK", "log"])
        #expect(written(end).hasPrefix("1\r\n!\r\n0\r\n\r\nHTTP/1.1 200 OK"))
        #expect(m.outstandingResponses == 0)
    }

    @Test func streamedBodyToHEADIsCancelledAndHTTP10StreamEndsByClosing() {
        var m = machine()
        _ = m.receive(Array("HEAD /s HTTP/1.1\r\nHost: h\r\n\r\n".utf8), now: t0)
        let head = m.responseReady(
            sequence: 0, response: HTTPResponse(status: 200, bodyStream: HTTPBodyStream()), now: t0)
        #expect(render(head) == ["write HTTP/1.1 200 OK", "cancel stream", "log"])

        var old = machine()
        _ = old.receive(Array("GET /s HTTP/1.0\r\nConnection: keep-alive\r\n\r\n".utf8), now: t0)
        let started = old.responseReady(
            sequence: 0, response: HTTPResponse(status: 200, bodyStream: HTTPBodyStream()), now: t0)
        #expect(written(started).contains("connection: close\r\n"))
        #expect(!written(started).contains("chunked"))
        let end = old.streamed(sequence: 0, chunks: [Array("raw".utf8)], finished: true, now: t0)
        #expect(render(end) == ["log", "close graceful"])
        #expect(written(end) == "raw")
    }

    @Test func drainEndsAStreamedBody() {
        var m = machine()
        _ = m.receive(Array("GET /s HTTP/1.1\r\nHost: h\r\n\r\n".utf8), now: t0)
        _ = m.responseReady(sequence: 0, response: HTTPResponse(status: 200, bodyStream: HTTPBodyStream()), now: t0)
        let drained = m.beginDrain(now: t0)
        #expect(written(drained) == "0\r\n\r\n")
        #expect(render(drained) == ["log", "close graceful"])
    }

    @Test func responsesLeaveInRequestOrder() {
        var m = machine()
        let input = "GET /1 HTTP/1.1\r\nHost: h\r\n\r\nGET /2 HTTP/1.1\r\nHost: h\r\n\r\n"
        #expect(render(m.receive(Array(input.utf8), now: t0)) == ["dispatch 0 GET /1", "dispatch 1 GET /2"])
        #expect(render(m.responseReady(sequence: 1, response: .text(200, "2"), now: t0)).isEmpty)
        #expect(
            render(m.responseReady(sequence: 0, response: .text(201, "1"), now: t0)) == [
                "write HTTP/1.1 201 Created", "log", "write HTTP/1.1 200 OK", "log",
            ])
    }

    @Test func dispatchedRequestsCarryTheRemoteAddress() {
        var m = machine()
        let actions = m.receive(Array("GET / HTTP/1.1\r\nHost: h\r\n\r\n".utf8), now: t0)
        guard case .dispatch(_, let request) = actions.first else {
            Issue.record("no dispatch")
            return
        }
        #expect(request.remoteAddress == "1.2.3.4:5")
    }

    @Test func pipelineDepthPausesReading() {
        var config = self.config
        config.maxPipelineDepth = 2
        var m = HTTP1ConnectionStateMachine(configuration: config, remoteAddress: "r", now: t0)
        let three = String(repeating: "GET / HTTP/1.1\r\nHost: h\r\n\r\n", count: 3)
        #expect(render(m.receive(Array(three.utf8), now: t0)).count == 2)
        #expect(!m.wantsRead)
        let next = render(m.responseReady(sequence: 0, response: .text(200, ""), now: t0))
        #expect(next == ["write HTTP/1.1 200 OK", "log", "dispatch 2 GET /"])
    }

    @Test func continueWaitsForEarlierResponses() {
        var m = machine()
        let input =
            "GET /1 HTTP/1.1\r\nHost: h\r\n\r\nPUT /2 HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 1\r\n\r\n"
        #expect(render(m.receive(Array(input.utf8), now: t0)) == ["dispatch 0 GET /1"])
        #expect(
            render(m.responseReady(sequence: 0, response: .text(200, ""), now: t0)) == [
                "write HTTP/1.1 200 OK", "log", "write HTTP/1.1 100 Continue",
            ])
        #expect(render(m.receive(Array("x".utf8), now: t0)) == ["dispatch 1 PUT /2"])
    }

    @Test func slowHeadGets408AndGracefulClose() {
        var m = machine()
        _ = m.receive(Array("GET / HT".utf8), now: t0)
        #expect(render(m.tick(now: t0 + .seconds(9), outputPending: false)).isEmpty)
        #expect(
            render(m.tick(now: t0 + .seconds(11), outputPending: false)) == [
                "write HTTP/1.1 408 Request Timeout", "log", "close graceful",
            ])
    }

    @Test func stalledBodyAndIdleConnectionsCloseAtOnce() {
        var body = machine()
        _ = body.receive(Array("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nab".utf8), now: t0)
        #expect(render(body.tick(now: t0 + .seconds(29), outputPending: false)).isEmpty)
        #expect(render(body.tick(now: t0 + .seconds(31), outputPending: false)) == ["close now"])

        var idle = machine()
        #expect(render(idle.tick(now: t0 + .seconds(59), outputPending: false)).isEmpty)
        #expect(render(idle.tick(now: t0 + .seconds(61), outputPending: false)) == ["close now"])
    }

    @Test func busyConnectionIsNotIdle() {
        var m = machine()
        _ = m.receive(Array("GET / HTTP/1.1\r\nHost: h\r\n\r\n".utf8), now: t0)
        #expect(render(m.tick(now: t0 + .seconds(120), outputPending: false)).isEmpty)
    }

    @Test func drainMarksTheLastResponseConnectionClose() {
        var m = machine()
        _ = m.receive(Array("GET / HTTP/1.1\r\nHost: h\r\n\r\n".utf8), now: t0)
        #expect(render(m.beginDrain(now: t0)).isEmpty)
        let actions = m.responseReady(sequence: 0, response: .text(200, "x"), now: t0)
        guard case .write(let head) = actions.first else {
            Issue.record("no write")
            return
        }
        #expect(String(decoding: head, as: UTF8.self).contains("connection: close"))
        #expect(render(actions).last == "close graceful")
    }

    @Test func endOfStreamCancelsHandlersButStillAnswers() {
        var m = machine()
        _ = m.receive(Array("GET / HTTP/1.1\r\nHost: h\r\n\r\n".utf8), now: t0)
        #expect(render(m.receiveEndOfStream(now: t0)) == ["cancel"])
        #expect(
            render(m.responseReady(sequence: 0, response: .text(200, ""), now: t0)) == [
                "write HTTP/1.1 200 OK", "log", "close graceful",
            ])
    }

    @Test func errorAfterPipelinedRequestWaitsItsTurn() {
        var m = machine()
        let actions = m.receive(Array("GET / HTTP/1.1\r\nHost: h\r\n\r\nBAD\r\n\r\n".utf8), now: t0)
        #expect(render(actions) == ["dispatch 0 GET /"])
        #expect(
            render(m.responseReady(sequence: 0, response: .text(200, ""), now: t0)) == [
                "write HTTP/1.1 200 OK", "log", "write HTTP/1.1 400 Bad Request", "log", "close graceful",
            ])
    }
}
