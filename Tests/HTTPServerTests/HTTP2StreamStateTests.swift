import Testing

@testable import HTTPServer

/// The transitions of one stream's ``HTTP2StreamState``: the response order, flow-control
/// credit, and how a returning handler finishes the stream.
@Suite struct HTTP2StreamStateTests {
    @Test func responseIsHeadersThenDataThenTrailers() throws {
        var state = HTTP2StreamState(remoteEnded: true)
        #expect(state.response == .awaitingHeaders)
        try state.checkHeaders()
        state.headersSent(status: 200, endStream: false)
        #expect(state.response == .streaming(status: 200))
        try state.sendData(endStream: false)
        #expect(state.response == .streaming(status: 200))
        try state.sendTrailers()
        #expect(state.response == .ended(status: 200))
    }

    @Test func dataWithEndStreamEndsTheResponse() throws {
        var state = HTTP2StreamState(remoteEnded: false)
        state.headersSent(status: 201, endStream: false)
        try state.sendData(endStream: true)
        #expect(state.response == .ended(status: 201))
        #expect(state.response.status == 201)
    }

    @Test func headersWithEndStreamEndTheResponse() {
        var state = HTTP2StreamState(remoteEnded: false)
        state.headersSent(status: 200, endStream: true)
        #expect(state.response == .ended(status: 200))
    }

    @Test func outOfOrderSendsAreRefused() {
        var fresh = HTTP2StreamState(remoteEnded: false)
        #expect(throws: HTTP2StreamError.invalidState("data before response headers")) {
            try fresh.sendData(endStream: false)
        }
        #expect(throws: HTTP2StreamError.invalidState("trailers before response headers")) {
            try fresh.sendTrailers()
        }
        #expect(fresh.response == .awaitingHeaders)

        var ended = HTTP2StreamState(remoteEnded: false)
        ended.headersSent(status: 200, endStream: true)
        #expect(throws: HTTP2StreamError.headersAlreadySent) { try ended.checkHeaders() }
        #expect(throws: HTTP2StreamError.invalidState("data after the end of the response")) {
            try ended.sendData(endStream: false)
        }
        #expect(throws: HTTP2StreamError.invalidState("trailers after the end of the response")) {
            try ended.sendTrailers()
        }
        #expect(ended.response == .ended(status: 200))
    }

    @Test func deliveredBytesOweCreditUntilTaken() {
        var state = HTTP2StreamState(remoteEnded: false)
        #expect(state.isUnclaimed)
        #expect(state.dataReceived(byteCount: 10) == .deliver)
        state.claim()
        #expect(!state.isUnclaimed)
        #expect(state.reader == .running(unconsumed: 10))
        #expect(state.dataReceived(byteCount: 5) == .deliver)
        #expect(state.consumed(byteCount: 12) == 12)
        #expect(state.consumed(byteCount: 12) == 3)  // Never more than is owed.
        #expect(state.unconsumed == 0)
        state.endStreamReceived()
        #expect(state.remoteEnded)
    }

    @Test func finishedHandlerReturnsCreditAndDropsLaterData() {
        var state = HTTP2StreamState(remoteEnded: false)
        state.claim()
        _ = state.dataReceived(byteCount: 7)
        state.headersSent(status: 200, endStream: false)
        let finished = state.handlerFinished()
        #expect(finished.ending == .endBody)
        #expect(finished.credit == 7)
        #expect(state.response == .ended(status: 200))
        #expect(state.reader == .finished)
        #expect(state.dataReceived(byteCount: 4) == .returnCredit)
        #expect(state.consumed(byteCount: 4) == 0)
        state.claim()
        #expect(state.reader == .finished)  // A late claim does not revive the reader.
        #expect(!state.isUnclaimed)
    }

    @Test func handlerFinishingWithoutHeadersResets() {
        var state = HTTP2StreamState(remoteEnded: true)
        state.claim()
        #expect(state.handlerFinished().ending == .reset)
        #expect(state.response == .awaitingHeaders)
    }

    @Test func handlerFinishingAfterTheEndLeavesTheResponse() throws {
        var state = HTTP2StreamState(remoteEnded: true)
        state.claim()
        state.headersSent(status: 200, endStream: false)
        try state.sendTrailers()
        #expect(state.handlerFinished().ending == .alreadyEnded)
        #expect(state.response == .ended(status: 200))
    }
}
