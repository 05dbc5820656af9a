import Testing

@testable import ProtoWire

@Suite("ProtoReader")
struct ProtoReaderTests {
    /// Varint encodings from the protobuf encoding guide and docs/reference/grpc-and-listen.md §1.4.
    @Test(arguments: [
        ("00", UInt64(0)), ("01", 1), ("7f", 127), ("80 01", 128), ("96 01", 150), ("ac 02", 300),
        ("f9 a0 01", 20601), ("ff ff ff ff 0f", 4_294_967_295),
        ("ff ff ff ff ff ff ff ff ff 01", UInt64.max), ("80 80 80 80 80 80 80 80 80 01", 1 << 63),
        ("80 00", 0),  // non-minimal encodings are legal
    ])
    func varints(hex: String, value: UInt64) throws {
        var r = ProtoReader(Hex.bytes(hex))
        #expect(try r.readVarint() == value)
        #expect(r.isAtEnd)
    }

    @Test func varintLongerThanTenBytesIsOverlong() {
        var r = ProtoReader(Hex.bytes("80 80 80 80 80 80 80 80 80 80 01"))
        #expect(throws: ProtoWireError(.overlongVarint, offset: 0)) { try r.readVarint() }
    }

    @Test func tenthVarintByteAboveOneIsOverlong() {
        var r = ProtoReader(Hex.bytes("ff ff ff ff ff ff ff ff ff 02"))
        #expect(throws: ProtoWireError(.overlongVarint, offset: 0)) { try r.readVarint() }
    }

    @Test func truncatedVarint() throws {
        var r = ProtoReader(Hex.bytes("08 96"))
        #expect(try r.readTag() == ProtoTag(fieldNumber: 1, wireType: .varint))
        #expect(throws: ProtoWireError(.truncated, offset: 1)) { try r.readVarint() }
    }

    @Test func signedIntegersAreSignExtendedTwosComplement() throws {
        // int32 -1 arrives as 10 bytes (docs/reference/grpc-and-listen.md §5.1); int64 min / max.
        var r = ProtoReader(Hex.bytes("ff ff ff ff ff ff ff ff ff 01  80 80 80 80 80 80 80 80 80 01  ff ff ff ff ff ff ff ff 7f"))
        #expect(try r.readInt32() == -1)
        #expect(try r.readInt64() == Int64.min)
        #expect(try r.readInt64() == Int64.max)
    }

    @Test func int32IsTruncatedFromSixtyFourBits() throws {
        // 2^32 + 5 read as int32 → 5 (protobuf truncation rule).
        var r = ProtoReader(Hex.bytes("85 80 80 80 10"))
        #expect(try r.readInt32() == 5)
    }

    @Test(arguments: [(Int64(0), UInt64(0)), (-1, 1), (1, 2), (-2, 3), (2_147_483_647, 4_294_967_294), (Int64.min, UInt64.max)])
    func zigZag(value: Int64, encoded: UInt64) throws {
        #expect(ProtoWriter.zigZagEncode(value) == encoded)
        #expect(ProtoReader.zigZagDecode(encoded) == value)
        var w = ProtoWriter()
        w.writeSInt64Field(1, value)
        var r = ProtoReader(w.bytes)
        _ = try r.readTag()
        #expect(try r.readSInt64() == value)
    }

    @Test func fixedWidthValuesAreLittleEndian() throws {
        var r = ProtoReader(Hex.bytes("00 00 00 00 00 00 f8 3f  78 56 34 12"))
        #expect(try r.readDouble() == 1.5)
        #expect(try r.readFixed32() == 0x1234_5678)
        var short = ProtoReader(Hex.bytes("00 00 00 00 00 00 f8"))
        #expect(throws: ProtoWireError(.truncated, offset: 0)) { try short.readFixed64() }
        var short32 = ProtoReader(Hex.bytes("00 00 00"))
        #expect(throws: ProtoWireError(.truncated, offset: 0)) { try short32.readFixed32() }
    }

    @Test func tagsCarryFieldNumberAndWireType() throws {
        var r = ProtoReader(Hex.bytes("8a 01 00  19 00 00 00 00 00 00 f8 3f"))
        #expect(try r.readTag() == ProtoTag(fieldNumber: 17, wireType: .len))
        #expect(try r.readString() == "")
        #expect(try r.readTag() == ProtoTag(fieldNumber: 3, wireType: .i64))
        #expect(try r.readDouble() == 1.5)
        #expect(try r.readTag() == nil)
    }

    @Test func fieldNumberZeroIsRejected() {
        var r = ProtoReader(Hex.bytes("02 00"))
        #expect(throws: ProtoWireError(.invalidFieldNumber(0), offset: 0)) { try r.readTag() }
    }

    @Test func fieldNumberAboveTwoToTheTwentyNineIsRejected() throws {
        // key = 2^29 << 3 = 2^32 → varint 80 80 80 80 10.
        var r = ProtoReader(Hex.bytes("80 80 80 80 10"))
        #expect(throws: ProtoWireError(.invalidFieldNumber(1 << 29), offset: 0)) { try r.readTag() }
        // The largest legal field number parses.
        var w = ProtoWriter()
        w.writeTag(ProtoTag.maxFieldNumber, .varint)
        var ok = ProtoReader(w.bytes)
        #expect(try ok.readTag()?.fieldNumber == ProtoTag.maxFieldNumber)
    }

    @Test(arguments: [UInt8(6), 7])
    func invalidWireTypes(type: UInt8) {
        var r = ProtoReader([8 | type])
        #expect(throws: ProtoWireError(.invalidWireType(type), offset: 0)) { try r.readTag() }
    }

    @Test(arguments: [UInt8(3), 4])
    func groupsAreRejected(type: UInt8) {
        var r = ProtoReader([0x28 | type, 0x00])
        #expect(throws: ProtoWireError(.groupNotSupported(fieldNumber: 5), offset: 0)) { try r.readTag() }
    }

    @Test func unknownFieldsOfEveryWireTypeAreSkipped() throws {
        // field 1 varint, field 2 fixed64, field 3 LEN, field 4 fixed32, then field 9 varint 7.
        let bytes = Hex.bytes("08 96 01  11 01 02 03 04 05 06 07 08  1a 03 61 62 63  25 01 02 03 04  48 07")
        var r = ProtoReader(bytes)
        var seen: [Int] = []
        var last: UInt64 = 0
        while let tag = try r.readTag() {
            seen.append(tag.fieldNumber)
            if tag.fieldNumber == 9 { last = try r.readVarint() } else { try r.skipField(tag) }
        }
        #expect(seen == [1, 2, 3, 4, 9])
        #expect(last == 7)
    }

    @Test func lengthBeyondTheBufferIsRejected() {
        var r = ProtoReader(Hex.bytes("0a 05 61 62"))
        _ = try? r.readTag()
        #expect(throws: ProtoWireError(.lengthExceedsInput(length: 5, available: 2), offset: 1)) { try r.readLengthDelimited() }
    }

    @Test func hugeLengthDoesNotOverflow() {
        var r = ProtoReader(Hex.bytes("0a ff ff ff ff ff ff ff ff ff 01"))
        _ = try? r.readTag()
        #expect(throws: ProtoWireError(.lengthExceedsInput(length: UInt64.max, available: 0), offset: 1)) { try r.readLengthDelimited() }
    }

    @Test func submessageIsBoundedByItsLength() throws {
        // field 1 { field 1 varint 1 } then field 2 varint 2: the child must not read past its end.
        var r = ProtoReader(Hex.bytes("0a 02 08 01  10 02"))
        _ = try r.readTag()
        var child = try r.readSubmessage()
        #expect(child.depth == 1)
        #expect(try child.readTag() == ProtoTag(fieldNumber: 1, wireType: .varint))
        #expect(try child.readVarint() == 1)
        #expect(try child.readTag() == nil)
        #expect(try r.readTag() == ProtoTag(fieldNumber: 2, wireType: .varint))
    }

    @Test func submessageLengthPastParentEndIsRejected() {
        // outer LEN 3 holds "0a 05 ..." claiming 5 bytes inside a 3-byte message.
        var r = ProtoReader(Hex.bytes("0a 03 0a 05 00 00 00 00 00"))
        #expect(throws: ProtoWireError(.lengthExceedsInput(length: 5, available: 1), offset: 3)) {
            _ = try r.readTag()
            var child = try r.readSubmessage()
            _ = try child.readTag()
            _ = try child.readLengthDelimited()
        }
    }

    @Test func nestingDeeperThanTheLimitIsRejected() throws {
        func nested(_ levels: Int) -> [UInt8] {
            var body: [UInt8] = []
            for _ in 0..<levels {
                var w = ProtoWriter()
                w.writeBytesField(1, body)
                body = w.bytes
            }
            return body
        }
        func descend(_ bytes: [UInt8], maxDepth: Int) throws(ProtoWireError) -> Int {
            var r = ProtoReader(bytes, maxDepth: maxDepth)
            var depth = 0
            while let tag = try r.readTag() {
                #expect(tag.fieldNumber == 1)
                r = try r.readSubmessage()
                depth += 1
            }
            return depth
        }
        #expect(try descend(nested(100), maxDepth: 100) == 100)
        #expect(throws: ProtoWireError.self) { try descend(nested(101), maxDepth: 100) }
        #expect(throws: ProtoWireError.self) { try descend(nested(4), maxDepth: 3) }
        do {
            _ = try descend(nested(101), maxDepth: 100)
        } catch {
            #expect(error.reason == .nestingTooDeep(limit: 100))
        }
    }

    @Test func invalidUTF8IsRejected() throws {
        var r = ProtoReader(Hex.bytes("0a 02 c3 28"))
        _ = try? r.readTag()
        #expect(throws: ProtoWireError(.invalidUTF8, offset: 1)) { try r.readString() }
        var ok = ProtoReader(Hex.bytes("0a 05 \"café\""))
        _ = try? ok.readTag()
        #expect(try ok.readString() == "café")
    }

    @Test func repeatedVarintsAcceptPackedAndUnpacked() throws {
        // packed [20601, 1, -1] then an unpacked 7 for the same field.
        let bytes = Hex.bytes("12 0e f9 a0 01 01 ff ff ff ff ff ff ff ff ff 01  10 07")
        var r = ProtoReader(bytes)
        var ids: [Int32] = []
        while let tag = try r.readTag() { try r.readRepeatedInt32(tag, into: &ids) }
        #expect(ids == [20601, 1, -1, 7])
    }

    @Test func packedPayloadWithTruncatedVarintIsRejected() {
        var r = ProtoReader(Hex.bytes("12 02 f9 a0"))
        var ids: [Int32] = []
        #expect(throws: ProtoWireError(.truncated, offset: 2)) {
            while let tag = try r.readTag() { try r.readRepeatedInt32(tag, into: &ids) }
        }
    }

    @Test func childReaderStopsAtItsBoundEvenWhenTheBufferGoesOn() throws {
        // The child is [08 96]; the 00 after it belongs to the parent, so the child's varint
        // is truncated (offsets stay absolute: the varint starts at byte 3).
        var r = ProtoReader(Hex.bytes("0a 02 08 96 00"))
        _ = try r.readTag()
        var child = try r.readSubmessage()
        #expect(child.offset == 2)
        _ = try child.readTag()
        #expect(throws: ProtoWireError(.truncated, offset: 3)) { try child.readVarint() }
    }
}
