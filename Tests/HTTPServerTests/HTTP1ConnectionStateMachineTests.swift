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
