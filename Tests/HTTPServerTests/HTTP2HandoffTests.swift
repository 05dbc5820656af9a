import Foundation
import Testing

@testable import HTTPServer

/// Echoes every byte back until the peer closes.
struct EchoByteStreamHandler: HTTP2ConnectionHandler {
    func serve(_ connection: any ByteStreamConnection) async {
        while let bytes = await connection.read() {
            do { try await connection.write(bytes) } catch { return }
        }
    }
}

@Suite(.serialized) struct HTTP2HandoffTests {
    static let preface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"

    @Test func sniffer() {
        #expect(ProtocolSniffer.classify([UInt8]()) == nil)
        #expect(ProtocolSniffer.classify(Array("PRI * HTTP/2".utf8)) == nil)
        #expect(ProtocolSniffer.classify(Array(Self.preface.utf8)) == .http2)
        #expect(ProtocolSniffer.classify(Array("POST / HTTP/1.1".utf8)) == .http1)
        #expect(ProtocolSniffer.classify(Array("PRI /x HTTP/1.1".utf8)) == .http1)
        #expect(ProtocolSniffer.classify([0x16, 0x03, 0x01]) == .tls)
    }

    @Test func prefaceRoutesTheConnectionToTheHTTP2HandlerByteByByte() async throws {
        try await withServer(http2: EchoByteStreamHandler()) { port, _ in
            let echoed = try await offloaded {
                let socket = try TestSocket(port: port)
                for byte in Array(Self.preface.utf8) {
                    try socket.send([byte])
                    usleep(200)
                }
                try socket.send("frames")
                socket.shutdownWrite()
                return try socket.readToEnd()
            }
            #expect(String(decoding: echoed, as: UTF8.self) == Self.preface + "frames")
        }
    }

    @Test func largeBidirectionalTransferKeepsOrder() async throws {
        let payload = (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try await withServer(http2: EchoByteStreamHandler()) { port, _ in
            let echoed = try await offloaded {
                let socket = try TestSocket(port: port)
                let sender = Thread {
                    try? socket.send(Array(Self.preface.utf8) + payload)
                    socket.shutdownWrite()
                }
                sender.start()
                return try socket.readToEnd()
            }
            #expect(echoed.count == 24 + payload.count)
            #expect(Array(echoed.dropFirst(24)) == payload)
        }
    }

    @Test func prefaceWithoutHTTP2HandlerIsClosed() async throws {
        try await withServer { port, logs in
            let closed = try await offloaded {
                let socket = try TestSocket(port: port)
                try socket.send(Self.preface)
                return try socket.waitForClose()
            }
            #expect(closed)
            #expect(logs.all.contains { $0.contains("no HTTP/2 handler") })
        }
    }

    @Test func tlsHandshakeIsClosedWithAHint() async throws {
        try await withServer { port, logs in
            let closed = try await offloaded {
                let socket = try TestSocket(port: port)
                try socket.send([0x16, 0x03, 0x01, 0x02, 0x00])
                return try socket.waitForClose()
            }
            #expect(closed)
            #expect(logs.all.contains { $0.contains("TLS") })
        }
    }
}
