import Dispatch
import Foundation

@testable import HTTPServer

/// A handler built from a closure.
struct ClosureHandler: HTTPHandler {
    let body: @Sendable (HTTPRequest) async -> HTTPResponse
    init(_ body: @escaping @Sendable (HTTPRequest) async -> HTTPResponse) { self.body = body }
    func handle(_ request: HTTPRequest) async -> HTTPResponse { await body(request) }
}

/// A handler answering paths that start with `/inline` on the loop thread (`handleInline`),
/// everything else through `body` on a task.
struct InlineClosureHandler: HTTPHandler {
    let body: @Sendable (HTTPRequest) async -> HTTPResponse
    init(_ body: @escaping @Sendable (HTTPRequest) async -> HTTPResponse) { self.body = body }
    func handle(_ request: HTTPRequest) async -> HTTPResponse { await body(request) }
    func handleInline(_ request: HTTPRequest) -> HTTPResponse? {
        request.path.hasPrefix("/inline") ? .text(200, "inline " + request.path) : nil
    }
    /// Paths starting with `/deferred` are answered 150 ms later from a Dispatch thread.
    func handleDeferred(_ request: HTTPRequest, respond: @escaping @Sendable (HTTPResponse) -> Void) -> Bool {
        guard request.path.hasPrefix("/deferred") else { return false }
        let path = request.path
        DispatchQueue(label: "deferred-answer").asyncAfter(deadline: .now() + .milliseconds(150)) {
            respond(.text(200, "deferred " + path))
        }
        return true
    }
}

/// Collects log lines from the server.
final class LogCollector: Sendable {
    private let lines = LockedValue<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }

    /// Waits up to `timeout` for a line matching `predicate` (lines may be logged just after the
    /// client saw the response).
    func waitForLine(timeout: Duration = .seconds(2), where predicate: (String) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if all.contains(where: predicate) { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return all.contains(where: predicate)
    }
}

/// Echoes `METHOD path body` so tests can see what arrived.
let echoHandler = ClosureHandler { request in
    .text(200, "\(request.method) \(request.path) \(String(decoding: request.body, as: UTF8.self))")
}

/// Starts a server on an ephemeral loopback port, runs `body`, and always shuts the server down.
func withServer(
    _ configuration: HTTPServerConfiguration = HTTPServerConfiguration(),
    handler: any HTTPHandler = echoHandler, http2: (any HTTP2ConnectionHandler)? = nil,
    _ body: (_ port: Int, _ logs: LogCollector) async throws -> Void
) async throws {
    try await withServerInstance(configuration, handler: handler, http2: http2) { _, port, logs in
        try await body(port, logs)
    }
}

/// Like ``withServer(_:handler:http2:_:)`` but also hands the server to `body`.
func withServerInstance(
    _ configuration: HTTPServerConfiguration = HTTPServerConfiguration(),
    handler: any HTTPHandler = echoHandler, http2: (any HTTP2ConnectionHandler)? = nil,
    _ body: (_ server: HTTPServer, _ port: Int, _ logs: LogCollector) async throws -> Void
) async throws {
    let logs = LogCollector()
    let server = HTTPServer(configuration: configuration, handler: handler, http2: http2) { logs.append($0) }
    let port = try server.start()
    do {
        try await body(server, port, logs)
    } catch {
        await server.shutdown()
        throw error
    }
    await server.shutdown()
}
