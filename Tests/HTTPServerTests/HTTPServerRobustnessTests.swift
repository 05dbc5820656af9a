import DeterministicRandom
import Foundation
import Testing

@testable import HTTPServer

/// Timeouts, vanishing clients and load, over real loopback sockets.
@Suite(.serialized) struct HTTPServerRobustnessTests {
    static let fastTimeouts = HTTPServerConfiguration(
        idleTimeout: .milliseconds(300), requestHeaderTimeout: .milliseconds(200),
        bodyReadTimeout: .milliseconds(200))

    @Test func slowRequestHeadGets408ThenClose() async throws {
        try await withServer(Self.fastTimeouts) { port, _ in
            let (response, closed) = try await offloaded {
                let socket = try TestSocket(port: port)
                try socket.send("GET /slow HTTP/1.1\r\nHo")
                return (try socket.readResponse(), try socket.waitForClose())
            }
            #expect(response.status == 408)
            #expect(closed)
        }
    }

    @Test func stalledBodyClosesTheConnection() async throws {
        try await withServer(Self.fastTimeouts) { port, _ in
            let closed = try await offloaded {
                let socket = try TestSocket(port: port)
                try socket.send("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 10\r\n\r\nabc")
                return try socket.waitForClose()
            }
            #expect(closed)
        }
    }

    @Test func idleKeepAliveConnectionIsClosed() async throws {
        try await withServer(Self.fastTimeouts) { port, _ in
            let (response, closed) = try await offloaded {
                let socket = try TestSocket(port: port)
                try socket.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n")
                return (try socket.readResponse(), try socket.waitForClose())
            }
            #expect(response.status == 200)
            #expect(closed)
        }
    }

    @Test func clientVanishingMidBodyOrMidHandlerLeavesTheServerHealthy() async throws {
        let cancelled = LockedValue(0)
        let handler = ClosureHandler { request in
            if request.path == "/sleep" {
                try? await Task.sleep(for: .seconds(5))
                if Task.isCancelled { cancelled.withLock { $0 += 1 } }
            }
            return .text(200, "ok")
        }
        try await withServer(handler: handler) { port, _ in
            try await offloaded {
                for _ in 0..<20 {
                    let socket = try TestSocket(port: port)
                    try socket.send("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 100000\r\n\r\npartial")
                }
                let socket = try TestSocket(port: port)
                try socket.send("GET /sleep HTTP/1.1\r\nHost: t\r\n\r\n")
            }
            // The sockets above are closed (deinit); the handler for /sleep must be cancelled.
            for _ in 0..<200 where cancelled.withLock({ $0 }) == 0 {
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(cancelled.withLock { $0 } == 1)
            let response = try await offloaded {
                let socket = try TestSocket(port: port)
                try socket.send("GET /after HTTP/1.1\r\nHost: t\r\n\r\n")
                return try socket.readResponse()
            }
            #expect(response.text == "ok")
        }
    }

    @Test func vanishedClientsFreeTheirConnections() async throws {
        let handler = ClosureHandler { _ in
            try? await Task.sleep(for: .seconds(5))
            return .text(200, "late")
        }
        try await withServerInstance(handler: handler) { server, port, _ in
            try await offloaded {
                var sockets: [TestSocket] = []
                for index in 0..<30 {
                    let socket = try TestSocket(port: port)
                    switch index % 3 {
                    case 0: try socket.send("GET /sleep HTTP/1.1\r\nHost: t\r\n\r\n")  // Mid-handler.
                    case 1: try socket.send("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 9\r\n\r\nab")  // Mid-body.
                    default: try socket.send("GET / HT")  // Mid-head.
                    }
                    sockets.append(socket)
                }
                usleep(50_000)
            }  // All 30 sockets close here.
            var open = await server.openConnectionCount()
            for _ in 0..<200 where open > 0 {
                try await Task.sleep(for: .milliseconds(10))
                open = await server.openConnectionCount()
            }
            #expect(open == 0)
        }
    }

    @Test func garbageAndHalfClosedInputNeverCrash() async throws {
        var rng = SplitMix64(seed: 42)
        let inputs: [[UInt8]] =
            (0..<30).map { _ in
                (0..<Int.random(in: 1...300, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            }
            + [Array("GET / HTTP/1.1\r\nHost: t\r\n\r\nGET /x HTTP/1.1\r\n".utf8)]
        try await withServer(Self.fastTimeouts) { port, _ in
            try await offloaded {
                for input in inputs {
                    let socket = try TestSocket(port: port)
                    try? socket.send(input)
                    socket.shutdownWrite()
                    _ = try socket.readToEnd()
                }
            }
            let response = try await offloaded {
                let socket = try TestSocket(port: port)
                try socket.send("GET /still-alive HTTP/1.1\r\nHost: t\r\n\r\n")
                return try socket.readResponse()
            }
            #expect(response.status == 200)
        }
    }

    @Test func halfClosedClientStillGetsItsPipelinedResponses() async throws {
        try await withServer { port, _ in
            let bytes = try await offloaded {
                let socket = try TestSocket(port: port)
                try socket.send("GET /1 HTTP/1.1\r\nHost: t\r\n\r\nGET /2 HTTP/1.1\r\nHost: t\r\n\r\n")
                socket.shutdownWrite()
                return try socket.readToEnd()
            }
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(text.contains("GET /1 ") && text.contains("GET /2 "))
        }
    }

    @Test func fiveHundredConcurrentConnections() async throws {
        try await withServer { port, _ in
            let bodies = try await offloaded {
                let sockets = try (0..<500).map { _ in try TestSocket(port: port) }
                for (index, socket) in sockets.enumerated() {
                    try socket.send("GET /c\(index) HTTP/1.1\r\nHost: t\r\n\r\n")
                }
                return try sockets.map { try $0.readResponse().text }
            }
            #expect(bodies == (0..<500).map { "GET /c\($0) " })
        }
    }

    @Test func twoThousandIdleKeepAliveConnectionsStayServed() async throws {
        try await withServer { port, _ in
            let (count, last) = try await offloaded {
                var sockets: [TestSocket] = []
                for _ in 0..<2_000 {
                    let socket = try TestSocket(port: port)
                    try socket.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n")
                    sockets.append(socket)
                }
                var ok = 0
                for socket in sockets where try socket.readResponse().status == 200 { ok += 1 }
                try sockets[0].send("GET /again HTTP/1.1\r\nHost: t\r\n\r\n")
                return (ok, try sockets[0].readResponse().text)
            }
            #expect(count == 2_000)
            #expect(last == "GET /again ")
        }
    }
}
