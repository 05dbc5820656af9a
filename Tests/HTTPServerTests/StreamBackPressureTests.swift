import Foundation
import Synchronization
import Testing

@testable import HTTPServer

/// A streamed HTTP/1.1 body to a peer that does not read: the server's send queue stops at
/// its high-water mark and the rest stays in the stream (`queuedByteCount`), so an endless
/// producer (the Emulator UI's event stream) can see the stuck peer and bound its memory.
@Suite(.serialized) struct StreamBackPressureTests {
    @Test func chunksWaitInTheStreamWhileThePeerDoesNotReadAndAllArriveInOrderWhenItDoes() async throws {
        let stream = HTTPBodyStream()
        let handler = ClosureHandler { _ in HTTPResponse(status: 200, headers: ["content-type": "text/plain"], bodyStream: stream) }
        try await withServer(handler: handler) { port, _ in
            let socket = try TestSocket(port: port, receiveTimeout: .seconds(10))
            // A small receive buffer so the kernel soon stops taking bytes for the peer.
            var size: Int32 = 16_384
            setsockopt(socket.fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            try socket.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
            let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 64 << 10)
            let chunks = 128  // 8 MiB, far above the server's 1 MiB send queue and the kernel buffers
            var accepted = 0
            for i in 0..<chunks {
                var c = chunk
                c[0] = UInt8(i % 256)
                if stream.write(c) { accepted += 1 }
                try await Task.sleep(for: .milliseconds(2))
            }
            #expect(accepted == chunks)
            // The server took at most its queue's worth plus what the kernel holds; the rest waits here.
            var queued = 0
            for _ in 0..<100 {
                queued = stream.queuedByteCount
                if queued > 3 << 20 { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            print("back-pressure: \(queued) bytes wait in the stream")
            #expect(queued > 3 << 20, "queued \(queued): the server kept taking what the peer did not read")
            stream.finish()
            // Now read everything: the chunked body carries all 8 MiB, in order.
            var received: [UInt8] = []
            while true {
                let part = try socket.readSome()
                if part.isEmpty { break }
                received.append(contentsOf: part)
                // The last-chunk marker; an index range, not `suffix` (a full pass over 8 MiB each time).
                if received.count >= 5, received[(received.count - 5)...].elementsEqual("0\r\n\r\n".utf8) { break }
            }
            let text = received
            var firstBytes: [UInt8] = []
            var index = text.firstRange(of: Array("\r\n\r\n".utf8))!.upperBound
            while index < text.count {
                guard let lineEnd = text[index...].firstRange(of: Array("\r\n".utf8)) else { break }
                let size = Int(String(decoding: text[index..<lineEnd.lowerBound], as: UTF8.self), radix: 16) ?? -1
                if size <= 0 { break }
                firstBytes.append(text[lineEnd.upperBound])
                index = lineEnd.upperBound + size + 2
            }
            #expect(firstBytes.count == chunks)
            #expect(firstBytes == (0..<chunks).map { UInt8($0 % 256) })
            #expect(stream.queuedByteCount == 0)
        }
    }
}
