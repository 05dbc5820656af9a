import FirestoreModel
import Testing

@testable import ProtoWire

/// The LevelDB log framing of managed exports and the proto2 groups of their entities.
@Suite struct LevelDBLogTests {
    @Test func crc32cMatchesRFC3720() {
        // RFC 3720 §B.4: 32 bytes of zeros → 0x8A9136AA; the ASCII digits "123456789" → 0xE3069283.
        #expect(CRC32C.finish(CRC32C.update(CRC32C.start, [UInt8](repeating: 0, count: 32))) == 0x8A91_36AA)
        #expect(CRC32C.finish(CRC32C.update(CRC32C.start, Array("123456789".utf8))) == 0xE306_9283)
    }

    @Test(arguments: [0, 1, 100, 32_761, 32_762, 32_768, 70_000, 200_000])
    func recordsOfEverySizeRoundTripAcrossBlocks(_ size: Int) throws {
        var log = LevelDBLog.Writer()
        let payloads: [[UInt8]] = [Array("3".utf8), (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) }, [], [7, 7]]
        for p in payloads { log.append(p) }
        #expect(try LevelDBLog.records(in: log.bytes) == payloads)
    }

    @Test func aBlockTailTooShortForAHeaderIsPadding() throws {
        var log = LevelDBLog.Writer()
        log.append([UInt8](repeating: 1, count: LevelDBLog.blockSize - 7 - 3))  // leaves 3 bytes in the block
        log.append([2, 2])
        #expect(log.bytes[LevelDBLog.blockSize - 3..<LevelDBLog.blockSize] == [0, 0, 0])
        #expect(try LevelDBLog.records(in: log.bytes).last == [2, 2])
    }

    @Test func damageIsReportedWithItsOffset() {
        var log = LevelDBLog.Writer()
        log.append([1, 2, 3])
        log.append([4, 5, 6])
        var flipped = log.bytes
        flipped[12] ^= 1  // inside the second record's header checksum
        #expect(throws: LevelDBLog.Failure(offset: 10, reason: "checksum mismatch (a corrupt or truncated file)")) {
            try LevelDBLog.records(in: flipped)
        }
        #expect(throws: LevelDBLog.Failure.self) { try LevelDBLog.records(in: Array(log.bytes.dropLast())) }
        var big = LevelDBLog.Writer()
        big.append([UInt8](repeating: 9, count: 40_000))
        // Only the FIRST fragment: the file ends inside the record.
        #expect(throws: LevelDBLog.Failure(offset: 0, reason: "the file ends inside a fragmented record")) {
            try LevelDBLog.records(in: Array(big.bytes.prefix(LevelDBLog.blockSize)))
        }
    }

    @Test func groupsAreReadOnlyWhenAccepted() throws {
        var w = ProtoWriter()
        w.writeGroup(5) { p in
            p.writeDoubleField(6, 1.5)
            p.writeGroup(9) { $0.writeStringField(1, "inner") }
            p.writeDoubleField(7, -2.25)
        }
        w.writeInt64Field(1, 42)
        var strict = ProtoReader(w.bytes)
        #expect(throws: ProtoWireError.self) { _ = try strict.readTag() }
        var r = ProtoReader(w.bytes, acceptsGroups: true)
        let tag = try #require(try r.readTag())
        #expect(tag.fieldNumber == 5 && tag.wireType == .startGroup)
        var g = try r.readGroup(5)
        var seen: [Int] = []
        while let t = try g.readTag() {
            seen.append(t.fieldNumber)
            try g.skipField(t)  // the nested group 9 is skipped whole
        }
        #expect(seen == [6, 9, 7])
        #expect(try r.readTag()?.fieldNumber == 1)
        #expect(try r.readInt64() == 42)
        #expect(r.isAtEnd)
    }

    @Test func aGroupWithoutItsEndOrWithAnotherEndIsRefused() {
        var open = ProtoWriter()
        open.writeTag(5, .startGroup)
        open.writeInt64Field(1, 1)
        var r = ProtoReader(open.bytes, acceptsGroups: true)
        #expect(throws: ProtoWireError.self) {
            _ = try r.readTag()
            _ = try r.readGroup(5)
        }
        var crossed = ProtoWriter()
        crossed.writeTag(5, .startGroup)
        crossed.writeTag(6, .endGroup)
        var c = ProtoReader(crossed.bytes, acceptsGroups: true)
        #expect(throws: ProtoWireError.self) {
            _ = try c.readTag()
            _ = try c.readGroup(5)
        }
    }

    @Test func entitiesRoundTripEveryValueAndRefuseWhatHasNoFirestoreType() throws {
        let db = DatabaseID(project: "p", database: "named")
        let fields: FieldMap = [
            "a": .array([.integer(1), .null, .map(["x": .array([])])]), "e": .array([]), "m": .map([:]),
            "r": .reference("projects/q/databases/(default)/documents/c/__id9__"), "t": .timestamp(Timestamp(seconds: -1, nanos: 500_000)),
            "v": .map(["__type__": .string("__vector__"), "value": .array([.double(1), .double(2)])]),
            "g": .geoPoint(GeoPoint(latitude: 1, longitude: 2)), "b": .bytes([0, 255]), "s": .string("é"),
        ]
        let bytes = ManagedExportEntity.encode(path: ResourcePath(["c", "__id7__", "s", "x"]), fields: fields, database: db)
        let back = try ManagedExportEntity.decode(bytes)
        #expect(back.database == db)
        #expect(back.path == ResourcePath(["c", "__id7__", "s", "x"]))
        #expect(back.fields == fields)
        // "__id7__" is Datastore's numeric id 7; "__id07__" and "__id0__" are names.
        #expect(ManagedExportEntity.numericID("__id7__") == 7)
        #expect(ManagedExportEntity.numericID("__id07__") == nil && ManagedExportEntity.numericID("__id0__") == nil)
        // A property both single and repeated is refused with its name.
        var w = ProtoWriter()
        w.writeMessageField(13) { k in
            k.writeStringField(13, "dev~p")
            k.writeMessageField(14) { ManagedExportEntity.writePath(["c", "d"], into: &$0) }
        }
        ManagedExportEntity.writeProperty("f", .integer(1), multiple: false, meaning: nil, into: &w)
        ManagedExportEntity.writeProperty("f", .integer(2), multiple: true, meaning: nil, into: &w)
        let error = #expect(throws: ProtoWireError.self) { _ = try ManagedExportEntity.decode(w.bytes) }
        #expect(error?.reason == .invalidValue("field f is given more than once"))
    }

    /// An entity key for `c/d` of project p, then `body` for its properties.
    static func entity(_ body: (inout ProtoWriter) -> Void) -> [UInt8] {
        var w = ProtoWriter()
        w.writeMessageField(13) { k in
            k.writeStringField(13, "dev~p")
            k.writeMessageField(14) { ManagedExportEntity.writePath(["c", "d"], into: &$0) }
        }
        body(&w)
        return w.bytes
    }

    @Test func hostileEntitiesAreRefusedNotCrashedOn() throws {
        // Maps nested 1,500 deep, each an embedded entity in a string value (found by the
        // attack of 2026-12-04: every level began a fresh reader, so the depth never counted).
        var value: Value = .integer(1)
        for _ in 0..<1500 { value = .map(["m": value]) }
        let deep = Self.entity { ManagedExportEntity.writeProperty("m", value, multiple: false, meaning: nil, into: &$0) }
        let deepError = #expect(throws: ProtoWireError.self) { _ = try ManagedExportEntity.decode(deep) }
        #expect(deepError.map { if case .nestingTooDeep = $0.reason { true } else { false } } == true)
        // A timestamp of 2^63 µs (it trapped on export).
        let late = Self.entity { w in
            w.writeMessageField(15) { p in
                p.writeUInt64Field(1, ManagedExportEntity.Meaning.timestamp)
                p.writeStringField(3, "t")
                p.writeBoolField(4, false)
                p.writeMessageField(5) { $0.writeInt64Field(1, .min) }
            }
        }
        #expect(throws: ProtoWireError.self) { _ = try ManagedExportEntity.decode(late) }
        // Numeric id 0, and a vector holding a string.
        var zero = ProtoWriter()
        zero.writeMessageField(13) { k in
            k.writeStringField(13, "dev~p")
            k.writeMessageField(14) { path in
                path.writeGroup(1) { e in
                    e.writeStringField(2, "c")
                    e.writeInt64Field(3, 0)
                }
            }
        }
        #expect(throws: ProtoWireError.self) { _ = try ManagedExportEntity.decode(zero.bytes) }
        let badVector = Self.entity { w in
            ManagedExportEntity.writeProperty("v", .string("x"), multiple: true, meaning: ManagedExportEntity.Meaning.vector, into: &w)
        }
        #expect(throws: ProtoWireError.self) { _ = try ManagedExportEntity.decode(badVector) }
        // Far outside the range, microseconds saturate instead of trapping.
        #expect(Timestamp(seconds: .min, nanos: 0).microseconds == .min)
        #expect(Timestamp(seconds: .max, nanos: 999_999_999).microseconds == .max)
    }
}
