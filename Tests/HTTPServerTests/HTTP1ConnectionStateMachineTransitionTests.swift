import Testing

@testable import HTTPServer

/// Each transition of ``HTTP1ConnectionStateMachine`` and the actions it returns, including
/// the closing paths and events that arrive after the connection closed.
@Suite struct HTTP1ConnectionStateMachineTransitionTests {
    let t0 = ContinuousClock.now
    let get = "GET / HTTP/1.1\r\nHost: h\r\n\r\n"

    func machine(maxPipelineDepth: Int = 16) -> HTTP1ConnectionStateMachine {
        var config = HTTP1ConnectionStateMachine.Configuration(
            idleTimeout: .seconds(60), requestHeadTimeout: .seconds(10), bodyReadTimeout: .seconds(30))
        config.maxPipelineDepth = maxPipelineDepth
        return HTTP1ConnectionStateMachine(configuration: config, remoteAddress: "1.2.3.4:5", now: t0)
    }

    /// Action kinds in order; writes show their status line (body writes are left out).
    func kinds(_ actions: [HTTP1ConnectionStateMachine.Action]) -> [String] {
        actions.compactMap { action in
            switch action {
            case .dispatch(let sequence, let request): "dispatch \(sequence) \(request.target)"
            case .write(let bytes):
                String(decoding: bytes, as: UTF8.self).split(separator: "\r\n").first.flatMap {
                    $0.hasPrefix("HTTP/1.1") ? "write \($0.dropFirst(9))" : nil
                }
            case .log: "log"
            case .cancelHandlers: "cancel"
            case .attachStream(let sequence, _): "attach \(sequence)"
            case .cancelStream: "cancel stream"
            case .close(let graceful): graceful ? "close graceful" : "close now"
            }
        }
    }

    @Test func freshConnectionReadsAndHasNothingOutstanding() {
        let m = machine()
        #expect(m.wantsRead)
        #expect(!m.isClosed)
        #expect(m.outstandingResponses == 0)
    }

    @Test func connectionCloseRequestIsTheLast() {
        var m = machine()
        let input = "GET /1 HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\nGET /2 HTTP/1.1\r\nHost: h\r\n\r\n"
        #expect(kinds(m.receive(Array(input.utf8), now: t0)) == ["dispatch 0 /1"])
        #expect(!m.wantsRead)
        #expect(kinds(m.receive(Array(get.utf8), now: t0)).isEmpty)  // Dropped: nothing more is parsed.
        #expect(
            kinds(m.responseReady(sequence: 0, response: .text(200, "x"), now: t0)) == [
                "write 200 OK", "log", "close graceful",
            ])
        #expect(m.isClosed)
    }

    @Test func malformedRequestGetsItsErrorResponseAndCloses() {
        var m = machine()
        #expect(
            kinds(m.receive(Array("BAD\r\n\r\n".utf8), now: t0)) == ["write 400 Bad Request", "log", "close graceful"])
        #expect(m.isClosed)
        #expect(!m.wantsRead)
    }

    @Test func oversizedBodyIsRejectedBeforeItArrives() {
        var config = HTTP1ConnectionStateMachine.Configuration()
        config.limits.maxBodyBytes = 4
        var m = HTTP1ConnectionStateMachine(configuration: config, remoteAddress: "r", now: t0)
        let input = "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\n"
        #expect(kinds(m.receive(Array(input.utf8), now: t0)) == ["write 413 Content Too Large", "log", "close graceful"])
    }

    @Test func everyEventAfterCloseIsIgnored() {
        var m = machine()
        _ = m.receive(Array("BAD\r\n\r\n".utf8), now: t0)
        #expect(m.receive(Array(get.utf8), now: t0).isEmpty)
        #expect(m.receiveEndOfStream(now: t0).isEmpty)
        #expect(m.responseReady(sequence: 0, response: .text(200, ""), now: t0).isEmpty)
        #expect(m.tick(now: t0 + .seconds(600), outputPending: true).isEmpty)
        #expect(m.beginDrain(now: t0).isEmpty)
        #expect(m.outstandingResponses == 0)
    }

    @Test func responseForAnUnknownSequenceIsIgnored() {
        var m = machine()
        _ = m.receive(Array(get.utf8), now: t0)
        #expect(m.responseReady(sequence: 7, response: .text(200, ""), now: t0).isEmpty)
        #expect(m.outstandingResponses == 1)
    }

    @Test func endOfStreamWithNothingOutstandingClosesGracefully() {
        var m = machine()
        #expect(kinds(m.receiveEndOfStream(now: t0)) == ["close graceful"])
        #expect(m.isClosed)
    }

    @Test func endOfStreamStillParsesWhatWasReceived() {
        var m = machine()
        _ = m.receive(Array("GET /1 HTTP/1.1\r\nHost: h\r\n\r\nGET /2 HTTP/1.1\r\nHost: h\r\n".utf8), now: t0)
        #expect(kinds(m.receive(Array("\r\n".utf8), now: t0)) == ["dispatch 1 /2"])
        #expect(kinds(m.receiveEndOfStream(now: t0)) == ["cancel"])
        #expect(!m.wantsRead)
        #expect(kinds(m.responseReady(sequence: 0, response: .text(200, ""), now: t0)) == ["write 200 OK", "log"])
        #expect(
            kinds(m.responseReady(sequence: 1, response: .text(204, ""), now: t0)) == [
                "write 204 No Content", "log", "close graceful",
            ])
    }

    @Test func drainWithNothingOutstandingClosesAtOnce() {
        var m = machine()
        #expect(kinds(m.beginDrain(now: t0)) == ["close graceful"])
        #expect(m.isClosed)
    }

    @Test func drainAbandonsARequestStillArriving() {
        var m = machine()
        _ = m.receive(Array("GET / HT".utf8), now: t0)
        #expect(kinds(m.beginDrain(now: t0)) == ["close graceful"])

        var waiting = machine()
        let head = "PUT / HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 1\r\n\r\n"
        #expect(kinds(waiting.receive(Array(head.utf8), now: t0)) == ["write 100 Continue"])
        #expect(kinds(waiting.beginDrain(now: t0)) == ["close graceful"])
    }

    @Test func drainStopsReadingAndAnswersInOrder() {
        var m = machine()
        _ = m.receive(Array((get + get).utf8), now: t0)
        #expect(kinds(m.beginDrain(now: t0)).isEmpty)
        #expect(!m.wantsRead)
        #expect(kinds(m.responseReady(sequence: 1, response: .text(200, ""), now: t0)).isEmpty)
        #expect(
            kinds(m.responseReady(sequence: 0, response: .text(200, ""), now: t0)) == [
                "write 200 OK", "log", "write 200 OK", "log", "close graceful",
            ])
    }

    @Test func fullPipelineResumesReadingWhenAResponseLeaves() {
        var m = machine(maxPipelineDepth: 1)
        #expect(kinds(m.receive(Array(get.utf8), now: t0)) == ["dispatch 0 /"])
        #expect(!m.wantsRead)
        _ = m.responseReady(sequence: 0, response: .text(200, ""), now: t0)
        #expect(m.wantsRead)
    }

    @Test func writeThatMakesNoProgressClosesAtOnce() {
        var m = machine()
        _ = m.receive(Array(get.utf8), now: t0)
        _ = m.responseReady(sequence: 0, response: .text(200, ""), now: t0)
        #expect(m.tick(now: t0 + .seconds(59), outputPending: true).isEmpty)
        m.wroteBytes(now: t0 + .seconds(59))
        #expect(m.tick(now: t0 + .seconds(100), outputPending: true).isEmpty)
        #expect(kinds(m.tick(now: t0 + .seconds(120), outputPending: true)) == ["close now"])
    }

    @Test func stalledWriteClosesWhileFinishingToo() {
        var m = machine()
        let input = "GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n"
        _ = m.receive(Array(input.utf8), now: t0)
        #expect(kinds(m.tick(now: t0 + .seconds(61), outputPending: true)) == ["close now"])
    }

    @Test func headTimeoutClockRestartsWithEachRequest() {
        var m = machine()
        _ = m.receive(Array(get.utf8), now: t0)
        _ = m.responseReady(sequence: 0, response: .text(200, ""), now: t0)
        _ = m.receive(Array("GET /2 HT".utf8), now: t0 + .seconds(8))
        #expect(m.tick(now: t0 + .seconds(12), outputPending: false).isEmpty)
        #expect(
            kinds(m.tick(now: t0 + .seconds(19), outputPending: false)) == [
                "write 408 Request Timeout", "log", "close graceful",
            ])
    }

    @Test func bodyClockStartsWhenContinueIsSent() {
        var m = machine()
        _ = m.receive(Array(get.utf8), now: t0)
        let head = "PUT / HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 1\r\n\r\n"
        #expect(kinds(m.receive(Array(head.utf8), now: t0)).isEmpty)  // Waits behind request 0.
        #expect(
            kinds(m.responseReady(sequence: 0, response: .text(200, ""), now: t0 + .seconds(40))) == [
                "write 200 OK", "log", "write 100 Continue",
            ])
        #expect(m.tick(now: t0 + .seconds(60), outputPending: false).isEmpty)
        #expect(kinds(m.tick(now: t0 + .seconds(71), outputPending: false)) == ["close now"])
    }

    @Test func badBodyAfterContinueGetsItsErrorResponse() {
        var m = machine()
        let head = "PUT / HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nTransfer-Encoding: chunked\r\n\r\n"
        #expect(kinds(m.receive(Array(head.utf8), now: t0)) == ["write 100 Continue"])
        #expect(kinds(m.receive(Array("zz\r\n".utf8), now: t0)) == ["write 400 Bad Request", "log", "close graceful"])
    }

    @Test func responseForARequestNotYetDispatchedIsIgnored() {
        var m = machine()
        _ = m.receive(Array(get.utf8), now: t0)
        let head = "PUT / HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 1\r\n\r\n"
        _ = m.receive(Array(head.utf8), now: t0)
        #expect(m.responseReady(sequence: 1, response: .text(200, ""), now: t0).isEmpty)
        #expect(m.outstandingResponses == 2)
    }
}
