import Foundation
import Testing

@testable import HTTPServer

/// A gRPC-shaped handler: echoes the request body, then trailers with `grpc-status: 0`.
struct EchoWithTrailers: HTTP2StreamHandler {
    func handle(_ stream: HTTP2Stream) async {
        do {
            try await stream.sendHeaders(status: 200, ["content-type": "application/grpc", "x-path": stream.path])
            var total = 0
            for try await chunk in stream.requestBody {
                total += chunk.count
                try await stream.sendData(chunk)
            }
            try await stream.sendTrailers(["grpc-status": "0", "x-received": String(total)])
        } catch {
            await stream.reset(.internalError)
        }
    }
}

private func http2Server(_ handler: any HTTP2StreamHandler, logs: LogCollector) -> HTTP2Server {
    HTTP2Server(handler: handler) { logs.append($0) }
}

@Suite(.serialized, .enabled(if: Curl.supportsHTTP2, "needs curl with HTTP/2"))
struct HTTP2ServerTests {
    @Test func restHandlerAnswersOverHTTP2PriorKnowledge() async throws {
        let logs = LogCollector()
        try await withServer(http2: http2Server(HTTPHandlerStreamAdapter(echoHandler), logs: logs)) { port, _ in
            let output = try await offloaded {
                try Curl.run(["-sS", "--http2-prior-knowledge", "-i", "http://127.0.0.1:\(port)/v1/doc?x=1"])
            }
            #expect(output.status == 0, "\(output.stderr)")
            #expect(output.stdout.hasPrefix("HTTP/2 200"))
            #expect(output.stdout.hasSuffix("GET /v1/doc "))
            #expect(logs.all.contains { $0.contains("\"GET /v1/doc?x=1 HTTP/2\" 200") })
        }
    }

    @Test func largeUploadIsFlowControlledAndEchoedWithTrailers() async throws {
        let logs = LogCollector()
        let payload = (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        try await withServer(http2: http2Server(EchoWithTrailers(), logs: logs)) { port, _ in
            let output = try await offloaded {
                try Curl.run(
                    [
                        "-sS", "--http2-prior-knowledge", "-D", "/dev/stderr", "-o", "/dev/null", "-w",
                        "%{size_download}",
                        "--data-binary", "@-", "-H", "content-type: application/grpc",
                        "http://127.0.0.1:\(port)/google.firestore.v1.Firestore/Echo",
                    ], stdin: payload)
            }
            #expect(output.status == 0, "\(output.stderr)")
            #expect(output.stdout == String(payload.count))
            #expect(output.stderr.contains("grpc-status: 0"))
            #expect(output.stderr.contains("x-received: \(payload.count)"))
        }
    }

    @Test func largeResponseWaitsForTheClientWindow() async throws {
        let size = 8 << 20
        let handler = HTTPHandlerStreamAdapter(
            ClosureHandler { _ in HTTPResponse(status: 200, body: [UInt8](repeating: 0x5A, count: size)) })
        try await withServer(http2: http2Server(handler, logs: LogCollector())) { port, _ in
            let output = try await offloaded {
                try Curl.run([
                    "-sS", "--http2-prior-knowledge", "-o", "/dev/null", "-w", "%{size_download}",
                    "http://127.0.0.1:\(port)/big",
                ])
            }
            #expect(output.stdout == String(size), "\(output.stderr)")
        }
    }

    @Test func concurrentStreamsOnOneConnection() async throws {
        let handler = HTTPHandlerStreamAdapter(
            ClosureHandler { request in
                // The first stream answers last, so streams must really be concurrent.
                if request.path == "/0" { try? await Task.sleep(for: .milliseconds(200)) }
                return .text(200, request.path + "\n")
            })
        let logs = LogCollector()
        try await withServer(http2: http2Server(handler, logs: logs)) { port, _ in
            let output = try await offloaded {
                try Curl.run(
                    ["-sS", "--http2-prior-knowledge", "-Z", "--parallel-immediate", "--parallel-max", "10"]
                        + (0..<10).map { "http://127.0.0.1:\(port)/\($0)" })
            }
            #expect(output.status == 0, "\(output.stderr)")
            #expect(Set(output.stdout.split(separator: "\n")) == Set((0..<10).map { "/\($0)" }))
            #expect(logs.all.count == 10)
        }
    }

    @Test func shutdownEndsAnOpenHTTP2Connection() async throws {
        let started = LockedValue(false)
        let handler = ClosureStreamHandler { stream in
            started.withLock { $0 = true }
            // A Listen-like stream: open until cancelled by shutdown.
            try? await stream.sendHeaders(status: 200, ["content-type": "application/grpc"])
            while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(10)) }
            try? await stream.sendTrailers(["grpc-status": "14"])
        }
        let logs = LogCollector()
        let server = HTTPServer(configuration: .init(), handler: echoHandler, http2: http2Server(handler, logs: logs)) {
            _ in
        }
        let port = try server.start()
        let curl = Task {
            try await offloaded {
                try Curl.run(["-sS", "-v", "--http2-prior-knowledge", "http://127.0.0.1:\(port)/listen"])
            }
        }
        while !started.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
        let clock = ContinuousClock()
        let shutdownTime = await clock.measure { await server.shutdown() }
        let output = try await curl.value
        #expect(shutdownTime < .seconds(2))
        // GOAWAY first, then the stream ends cleanly with its trailers (curl 7.88 does not print
        // trailers that follow a GOAWAY; `trailersFollowAnIdleStream` checks them on the wire).
        #expect(output.stderr.contains("GOAWAY"), "\(output.stderr)")
        #expect(output.status == 0, "\(output.stderr)")
        #expect(logs.all.contains { $0.contains("\"GET /listen HTTP/2\" 200 0B") && !$0.contains("reset") })
    }

    @Test func trailersFollowAnIdleStream() async throws {
        let handler = ClosureStreamHandler { stream in
            try? await stream.sendHeaders(status: 200, ["content-type": "application/grpc"])
            try? await Task.sleep(for: .milliseconds(50))
            try? await stream.sendTrailers(["grpc-status": "14", "grpc-message": "shutting down"])
        }
        try await withServer(http2: http2Server(handler, logs: LogCollector())) { port, _ in
            let output = try await offloaded {
                try Curl.run(["-sS", "--http2-prior-knowledge", "-D", "/dev/stderr", "http://127.0.0.1:\(port)/x"])
            }
            #expect(output.stderr.contains("grpc-status: 14"), "\(output.stderr)")
            #expect(output.stderr.contains("grpc-message: shutting down"))
        }
    }

    @Test func handlerThatSendsNothingResetsTheStream() async throws {
        try await withServer(http2: http2Server(ClosureStreamHandler { _ in }, logs: LogCollector())) { port, _ in
            let output = try await offloaded {
                try Curl.run(["-sS", "--http2-prior-knowledge", "http://127.0.0.1:\(port)/nothing"])
            }
            #expect(output.status != 0)
            #expect(output.stderr.contains("INTERNAL_ERROR") || output.stderr.contains("stream"), "\(output.stderr)")
        }
    }
}

/// A stream handler built from a closure.
struct ClosureStreamHandler: HTTP2StreamHandler {
    let body: @Sendable (HTTP2Stream) async -> Void
    init(_ body: @escaping @Sendable (HTTP2Stream) async -> Void) { self.body = body }
    func handle(_ stream: HTTP2Stream) async { await body(stream) }
}
