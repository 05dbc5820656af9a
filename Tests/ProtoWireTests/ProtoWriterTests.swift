import DeterministicRandom
import Testing

@testable import ProtoWire

@Suite("ProtoWriter")
struct ProtoWriterTests {
    @Test(arguments: [UInt64(0), 1, 127, 128, 150, 300, 16_383, 16_384, 20601, 1 << 35, UInt64(Int64.max), UInt64.max])
    func varintRoundTrip(value: UInt64) throws {
        var w = ProtoWriter()
        w.writeVarint(value)
        #expect(w.bytes.count == max(1, (64 - value.leadingZeroBitCount + 6) / 7))
        var r = ProtoReader(w.bytes)
        #expect(try r.readVarint() == value)
        #expect(r.isAtEnd)
    }

    @Test func knownFieldEncodings() {
        var w = ProtoWriter()
        w.writeInt64Field(2, 30)  // integer_value 30 → 10 1e (docs/reference/grpc-and-listen.md §1.4)
        w.writeDoubleField(3, 1.5)  // double_value 1.5
        w.writeStringField(17, "Alice")  // string_value → 8a 01 05 …
        w.writeUInt64Field(11, 0)  // null_value → 58 00
        w.writeInt32Field(1, -1)  // int32 -1 → ten bytes
        #expect(
            w.bytes
                == Hex.bytes(
                    "10 1e  19 00 00 00 00 00 00 f8 3f  8a 01 05 \"Alice\"  58 00  08 ff ff ff ff ff ff ff ff ff 01"))
    }

    @Test func packedInt32() {
        var w = ProtoWriter()
        w.writePackedInt32Field(2, [20601])
        w.writePackedInt32Field(5, [])
        #expect(w.bytes == Hex.bytes("12 03 f9 a0 01"))
    }

    @Test(arguments: [0, 1, 127, 128, 300, 16_383, 16_384, 70_000])
    func submessageLengthIsPatched(length: Int) throws {
        let payload = (0..<length).map { UInt8(truncatingIfNeeded: $0) }
        var w = ProtoWriter()
        w.writeUInt64Field(1, 7)
        w.writeMessageField(2) { $0.writeRaw(payload) }
        w.writeUInt64Field(3, 9)
        var r = ProtoReader(w.bytes)
        #expect(try r.readTag()?.fieldNumber == 1)
        #expect(try r.readVarint() == 7)
        #expect(try r.readTag() == ProtoTag(fieldNumber: 2, wireType: .len))
        #expect(Array(try r.readLengthDelimited()) == payload)
        #expect(try r.readTag()?.fieldNumber == 3)
        #expect(try r.readVarint() == 9)
        #expect(r.isAtEnd)
    }

    @Test func nestedSubmessagesAcrossTheOneByteLengthBoundary() throws {
        // Three levels whose inner payload crosses 127 → 128 bytes at different depths.
        for size in [120, 126, 127, 128, 200] {
            var w = ProtoWriter()
            w.writeMessageField(1) { a in
                a.writeMessageField(1) { b in
                    b.writeBytesField(1, [UInt8](repeating: 0xAB, count: size))
                }
            }
            var r = ProtoReader(w.bytes)
            _ = try r.readTag()
            var a = try r.readSubmessage()
            _ = try a.readTag()
            var b = try a.readSubmessage()
            _ = try b.readTag()
            #expect(try b.readBytes() == [UInt8](repeating: 0xAB, count: size))
            #expect(b.isAtEnd && a.isAtEnd && r.isAtEnd)
        }
    }

    @Test func randomScalarRoundTrips() throws {
        var rng = SplitMix64(seed: 42)
        for _ in 0..<2_000 {
            let i64 = Int64(bitPattern: rng.next())
            let i32 = Int32(truncatingIfNeeded: rng.next())
            let d = Double(bitPattern: rng.next())
            let s = String(decoding: rng.bytes(Int(rng.next() % 20)).map { $0 & 0x7F }, as: UTF8.self)
            let b = rng.bytes(Int(rng.next() % 40))
            var w = ProtoWriter()
            w.writeInt64Field(1, i64)
            w.writeInt32Field(2, i32)
            w.writeDoubleField(3, d)
            w.writeStringField(4, s)
            w.writeBytesField(5, b)
            w.writeSInt64Field(6, i64)
            w.writeBoolField(7, i32 < 0)
            w.writeFixed32Field(8, UInt32(truncatingIfNeeded: i64))
            var r = ProtoReader(w.bytes)
            _ = try r.readTag()
            #expect(try r.readInt64() == i64)
            _ = try r.readTag()
            #expect(try r.readInt32() == i32)
            _ = try r.readTag()
            #expect(try r.readDouble().bitPattern == d.bitPattern)
            _ = try r.readTag()
            #expect(try r.readString() == s)
            _ = try r.readTag()
            #expect(try r.readBytes() == b)
            _ = try r.readTag()
            #expect(try r.readSInt64() == i64)
            _ = try r.readTag()
            #expect(try r.readBool() == (i32 < 0))
            _ = try r.readTag()
            #expect(try r.readFixed32() == UInt32(truncatingIfNeeded: i64))
            #expect(r.isAtEnd)
        }
    }
}
