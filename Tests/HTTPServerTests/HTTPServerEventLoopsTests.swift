import Foundation
import Testing

@testable import HTTPServer

/// Answers every request inline with the name of the thread that served it: the loop thread.
private struct ThreadNameHandler: HTTPHandler {
    func handle(_ request: HTTPRequest) async -> HTTPResponse { .text(200, "task") }
    func handleInline(_ request: HTTPRequest) -> HTTPResponse? {
        let name = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "?"
        return .text(200, "\(pthread_self()) \(name.trimmingCharacters(in: .whitespacesAndNewlines))")
    }
}

/// ``HTTPServerConfiguration/eventLoops`` above 1: connections spread over the loops, each
/// stays on its loop, and shutdown stops every loop.
@Suite(.serialized) struct HTTPServerEventLoopsTests {
    @Test func connectionsAreSpreadOverTheLoopsAndStayOnTheirs() async throws {
        var configuration = HTTPServerConfiguration()
        configuration.eventLoops = 3
        try await withServerInstance(configuration, handler: ThreadNameHandler()) { server, port, _ in
            let (first, second, open) = try await offloaded { () -> ([String], [String], Int) in
                let sockets = try (0..<6).map { _ in try TestSocket(port: port) }
                var first: [String] = []
                var second: [String] = []
                for socket in sockets {
                    try socket.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n")
                    first.append(try socket.readResponse().text)
                }
                for socket in sockets {
                    try socket.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n")
                    second.append(try socket.readResponse().text)
                }
                return (first, second, sockets.count)
            }
            #expect(open == 6)
            // Round robin: 6 connections on 3 loops, 2 each; every loop thread is named.
            let threads = Dictionary(grouping: first, by: { $0 })
            #expect(threads.count == 3)
            #expect(threads.values.allSatisfy { $0.count == 2 })
            #expect(first.allSatisfy { $0.hasSuffix(" hearth-http") })
            // A connection's second request is served by the loop of its first.
            #expect(second == first)
            _ = server
        }
    }

    @Test func shutdownClosesConnectionsOnEveryLoopAndCountsThemAll() async throws {
        var configuration = HTTPServerConfiguration()
        configuration.eventLoops = 2
        let server = HTTPServer(configuration: configuration, handler: ThreadNameHandler()) { _ in }
        let port = try server.start()
        let sockets = try await offloaded { () -> [TestSocket] in
            let sockets = try (0..<4).map { _ in try TestSocket(port: port) }
            for socket in sockets {
                try socket.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n")
                _ = try socket.readResponse()
            }
            return sockets
        }
        #expect(await server.openConnectionCount() == 4)
        await server.shutdown()
        let closed = try await offloaded { try sockets.map { try $0.waitForClose() } }
        #expect(closed == [true, true, true, true])
        #expect(await server.openConnectionCount() == 0)
        #expect(throws: (any Error).self) { _ = try TestSocket(port: port) }
    }
}
