import DeterministicRandom
import FirestoreModel
import Testing

@testable import ProtoWire

@Suite("GRPCMessageFramer")
struct GRPCMessageFramerTests {
    /// Messages of assorted sizes, including empty (`Empty`) and one over 64 KiB.
    static let payloads: [[UInt8]] = [
        [], [0x08, 0x01], Array(repeating: 0x5A, count: 300), (0..<70_000).map { UInt8(truncatingIfNeeded: $0 * 7) }, [0x0A, 0x00],
    ]

    static var stream: [UInt8] {
        var out: [UInt8] = []
        for p in payloads { GRPCMessageFramer.appendFrame(p, to: &out) }
        return out
    }

    /// Cuts `input` into chunks: whole, byte by byte, or random lengths from a seed.
    static func chunks(_ input: [UInt8], split: Int) -> [ArraySlice<UInt8>] {
        switch split {
        case 0: return [input[...]]
        case 1: return input.indices.map { input[$0...$0] }
        default:
            var rng = SplitMix64(seed: UInt64(split))
            var out: [ArraySlice<UInt8>] = []
            var start = 0
            while start < input.count {
                let n = Int.random(in: 1...max(1, min(20_000, input.count - start)), using: &rng)
                out.append(input[start..<start + n])
                start += n
            }
            return out
        }
    }

    @Test(arguments: 0..<10)
    func reassemblesMessagesFromAnySplit(split: Int) throws {
        var framer = GRPCMessageFramer()
        var received: [[UInt8]] = []
        for chunk in Self.chunks(Self.stream, split: split) {
            framer.append(chunk)
            while let m = try framer.nextMessage() {
                #expect(!m.isCompressed)
                received.append(m.payload)
            }
        }
        try framer.finish()
        #expect(received == Self.payloads)
        #expect(framer.bufferedByteCount == 0)
    }

    @Test func frameLayoutIsFlagThenBigEndianLength() {
        #expect(GRPCMessageFramer.frame([]) == [0, 0, 0, 0, 0])
        #expect(GRPCMessageFramer.frame([0xAA, 0xBB]) == [0, 0, 0, 0, 2, 0xAA, 0xBB])
        #expect(GRPCMessageFramer.frame([UInt8](repeating: 1, count: 0x01_02_03)).prefix(5) == [0, 0, 1, 2, 3])
        #expect(GRPCMessageFramer.frame([7], compressed: true) == [1, 0, 0, 0, 1, 7])
    }

    @Test func needsTheWholePrefixAndPayload() throws {
        var framer = GRPCMessageFramer()
        framer.append([0, 0, 0, 0])
        #expect(try framer.nextMessage() == nil)
        framer.append([3, 1, 2])
        #expect(try framer.nextMessage() == nil)
        #expect(framer.bufferedByteCount == 7)
        framer.append([3])
        #expect(try framer.nextMessage() == GRPCMessage(payload: [1, 2, 3]))
        #expect(try framer.nextMessage() == nil)
    }

    @Test func compressedFlagWithoutEncodingIsAnError() throws {
        var framer = GRPCMessageFramer()
        framer.append(GRPCMessageFramer.frame([1, 2], compressed: true))
        #expect(throws: GRPCFramingError.compressedWithoutEncoding) { try framer.nextMessage() }
        #expect(GRPCFramingError.compressedWithoutEncoding.status.code == .internalError)

        var accepting = GRPCMessageFramer(acceptsCompressedMessages: true)
        accepting.append(GRPCMessageFramer.frame([1, 2], compressed: true))
        #expect(try accepting.nextMessage() == GRPCMessage(isCompressed: true, payload: [1, 2]))
    }

    @Test func flagOtherThanZeroOrOneIsAnError() {
        var framer = GRPCMessageFramer()
        framer.append([2, 0, 0, 0, 0])
        #expect(throws: GRPCFramingError.invalidCompressedFlag(2)) { try framer.nextMessage() }
    }

    @Test func oversizedMessageIsResourceExhaustedBeforeItsPayloadArrives() throws {
        var framer = GRPCMessageFramer()
        // Only the prefix of a 4 MiB + 1 message: rejected at once.
        framer.append([0, 0x00, 0x40, 0x00, 0x01])
        #expect(throws: GRPCFramingError.messageTooLarge(length: 4 * 1024 * 1024 + 1, limit: 4 * 1024 * 1024)) {
            try framer.nextMessage()
        }
        #expect(GRPCFramingError.messageTooLarge(length: 5, limit: 4).status.code == .resourceExhausted)

        var small = GRPCMessageFramer(maxMessageBytes: 3)
        small.append(GRPCMessageFramer.frame([1, 2, 3]))
        #expect(try small.nextMessage()?.payload == [1, 2, 3])
        small.append(GRPCMessageFramer.frame([1, 2, 3, 4]))
        #expect(throws: GRPCFramingError.messageTooLarge(length: 4, limit: 3)) { try small.nextMessage() }
    }

    @Test func maximumLengthFieldDoesNotOverflow() throws {
        var framer = GRPCMessageFramer(maxMessageBytes: Int(UInt32.max))
        framer.append([0, 0xFF, 0xFF, 0xFF, 0xFF, 1])
        #expect(try framer.nextMessage() == nil)
        #expect(framer.bufferedByteCount == 6)
    }

    @Test func endOfStreamInsideAMessageIsAnError() throws {
        var framer = GRPCMessageFramer()
        framer.append([0, 0, 0, 0, 4, 1, 2])
        #expect(try framer.nextMessage() == nil)
        #expect(throws: GRPCFramingError.incompleteMessage(bufferedBytes: 7)) { try framer.finish() }
        #expect(GRPCFramingError.incompleteMessage(bufferedBytes: 7).status.code == .internalError)
    }

    @Test func randomGarbageNeverTraps() {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<2_000 {
            var framer = GRPCMessageFramer(maxMessageBytes: 1 << 16)
            var bytes = rng.bytes(Int(rng.next() % 64))
            // Bias the flag toward 0 so the length path is exercised too.
            if !bytes.isEmpty && rng.next() % 2 == 0 { bytes[0] = 0 }
            framer.append(bytes)
            while let m = try? framer.nextMessage() { _ = m }
        }
    }
}
