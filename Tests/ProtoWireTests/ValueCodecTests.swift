import DeterministicRandom
import FirestoreModel
import Testing

@testable import ProtoWire

@Suite("Value codec")
struct ValueCodecTests {
    /// Every arm, with the defaults that proto3 would drop outside a oneof (docs/reference/grpc-and-listen.md §5.2).
    static let arms: [(Value, String)] = [
        (.null, "58 00"),
        (.boolean(false), "08 00"),
        (.boolean(true), "08 01"),
        (.integer(0), "10 00"),
        (.integer(30), "10 1e"),
        (.integer(-1), "10 ff ff ff ff ff ff ff ff ff 01"),
        (.integer(Int64.min), "10 80 80 80 80 80 80 80 80 80 01"),
        (.integer(Int64.max), "10 ff ff ff ff ff ff ff ff 7f"),
        (.double(0), "19 00 00 00 00 00 00 00 00"),
        (.double(-0.0), "19 00 00 00 00 00 00 00 80"),
        (.double(1.5), "19 00 00 00 00 00 00 f8 3f"),
        (.double(.nan), "19 00 00 00 00 00 00 f8 7f"),
        (.double(-.infinity), "19 00 00 00 00 00 00 f0 ff"),
        (.timestamp(Timestamp(seconds: 0, nanos: 0)), "52 00"),
        (.timestamp(Timestamp(seconds: 1, nanos: 2)), "52 04 08 01 10 02"),
        (.timestamp(Timestamp(seconds: -62_135_596_800, nanos: 0)), "52 0b 08 80 92 b8 c3 98 fe ff ff ff 01"),
        (.string(""), "8a 01 00"),
        (.string("Alice"), "8a 01 05 \"Alice\""),
        (.string("é"), "8a 01 02 c3 a9"),
        (.bytes([]), "92 01 00"),
        (.bytes([0, 255]), "92 01 02 00 ff"),
        (.reference(Fx.name("rooms/r1")), "2a 39 \"" + Fx.name("rooms/r1") + "\""),
        (.geoPoint(GeoPoint(latitude: 0, longitude: 0)), "42 00"),
        (.geoPoint(GeoPoint(latitude: -0.0, longitude: 1.5)), "42 12 09 00 00 00 00 00 00 00 80 11 00 00 00 00 00 00 f8 3f"),
        (.array([]), "4a 00"),
        (.array([.string("a"), .string("b")]), "4a 0c 0a 04 8a 01 01 61 0a 04 8a 01 01 62"),  // docs/reference/grpc-and-listen.md §1.4
        (.array([.null, .array([])]), "4a 08 0a 02 58 00 0a 02 4a 00"),
        (.map([:]), "32 00"),
        (.map(["x": .null]), "32 09 0a 07 0a 01 78 12 02 58 00"),  // docs/reference/grpc-and-listen.md §1.4
        (.map(["b": .integer(0), "a": .map([:]), "": .boolean(false)]),
         "32 1a 0a 06 0a 00 12 02 08 00 0a 07 0a 01 \"a\" 12 02 32 00 0a 07 0a 01 \"b\" 12 02 10 00"),
        // Keys sorted by UTF-8 bytes: "a" 61 < "z" 7a < "é" c3 a9.
        (.map(["é": .null, "z": .null, "a": .null]),
         "32 1c 0a 07 0a 01 61 12 02 58 00 0a 07 0a 01 7a 12 02 58 00 0a 08 0a 02 c3 a9 12 02 58 00"),
    ]

    @Test(arguments: arms)
    func encodesEveryArmAndItsDefaults(value: Value, hex: String) throws {
        #expect(Hex.string(FirestoreProto.serializedValue(value)) == Hex.string(Hex.bytes(hex)))
        let decoded = try FirestoreProto.value(serializedBytes: Hex.bytes(hex))
        #expect(decoded == value)
        if case .double(let d) = value, case .double(let e) = decoded {
            #expect(d.bitPattern == e.bitPattern)  // -0.0 and the NaN payload survive
        }
    }

    @Test func valueWithNoArmIsInvalid() {
        #expect(throws: FirestoreError.invalidArgument("Invalid Value: Value has no value_type set.")) {
            try FirestoreProto.value(serializedBytes: [])
        }
        // Only an unknown field: still no arm.
        #expect(throws: FirestoreError.self) { try FirestoreProto.value(serializedBytes: Hex.bytes("f8 01 05")) }
    }

    @Test func lastArmWins() throws {
        // integer 1 then string "x": a oneof keeps the last one seen.
        #expect(try FirestoreProto.value(serializedBytes: Hex.bytes("10 01 8a 01 01 78")) == .string("x"))
    }

    @Test func pipelineArmsAreUnimplemented() throws {
        do {
            _ = try FirestoreProto.value(serializedBytes: Hex.bytes("9a 01 01 61"))  // field_reference_value 19
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .unimplemented)
        }
    }

    @Test func mapEntryWithoutValueNamesTheKey() {
        #expect(throws: FirestoreError.invalidArgument("Invalid Value at map_value.fields.k: map entry has no value.")) {
            try FirestoreProto.value(serializedBytes: Hex.bytes("32 05 0a 03 0a 01 6b"))
        }
        #expect(throws: FirestoreError.invalidArgument("Invalid Value at map_value.fields.`a b`.array_value.values[1]: Value has no value_type set.")) {
            try FirestoreProto.value(serializedBytes: Hex.bytes("32 14 0a 12 0a 03 \"a b\" 12 0b 4a 09 0a 02 58 00 0a 03 f8 01 00"))
        }
    }

    @Test func duplicateMapKeysKeepTheLast() throws {
        #expect(try FirestoreProto.value(serializedBytes: Hex.bytes("32 12 0a 07 0a 01 6b 12 02 10 01 0a 07 0a 01 6b 12 02 10 02")) == .map(["k": .integer(2)]))
    }

    @Test func timestampOutOfRangeIsInvalid() {
        #expect(throws: FirestoreError.self) { try FirestoreProto.value(serializedBytes: Hex.bytes("52 06 08 01 10 ff ff ff ff 0f")) }
        #expect(throws: FirestoreError.self) {
            try FirestoreProto.value(serializedBytes: Hex.bytes("52 0b 08 ff 91 b8 c3 98 fe ff ff ff 01"))  // one second before 0001-01-01
        }
    }

    @Test func deepValuesStopAtTheNestingLimit() throws {
        // 30 levels of arrays (60 message levels) decode; 60 levels (120 message levels) exceed 100.
        func nested(_ levels: Int) -> Value {
            var v = Value.null
            for _ in 0..<levels { v = .array([v]) }
            return v
        }
        #expect(try FirestoreProto.value(serializedBytes: FirestoreProto.serializedValue(nested(30))) == nested(30))
        #expect(throws: FirestoreError.self) { try FirestoreProto.value(serializedBytes: FirestoreProto.serializedValue(nested(60))) }
    }

    @Test func pythonEncodingOfEveryArm() throws {
        let bytes = Hex.bytes(PythonFixtures.valueEveryArm)
        let expected = Value.map([
            "a_null": .null, "b_true": .boolean(true), "c_false": .boolean(false), "d_zero": .integer(0),
            "e_min": .integer(.min), "f_max": .integer(.max), "g_double": .double(1.5), "h_negzero": .double(-0.0),
            "i_nan": .double(.nan), "j_inf": .double(-.infinity), "k_ts": .timestamp(Fx.ts), "l_str": .string("héllo"),
            "m_emptystr": .string(""), "n_bytes": .bytes([0, 255]), "o_emptybytes": .bytes([]),
            "p_ref": .reference(Fx.name("rooms/r1")), "q_geo": .geoPoint(GeoPoint(latitude: -33.5, longitude: 151.25)),
            "r_array": .array([.integer(1), .string("two"), .null, .double(3.0)]), "s_emptyarray": .array([]),
            "t_map": .map(["k": .map(["deep": .boolean(true)])]), "u_emptymap": .map([:]),
        ])
        let decoded = try FirestoreProto.value(serializedBytes: bytes)
        #expect(decoded == expected)
        // Deterministic Python serialization sorts map keys as Hearth does: identical bytes.
        #expect(Hex.string(FirestoreProto.serializedValue(decoded)) == Hex.string(bytes))
    }

    @Test func randomValuesRoundTrip() throws {
        var rng = SplitMix64(seed: 2024)
        func random(_ depth: Int) -> Value {
            switch rng.next() % (depth > 3 ? 9 : 11) {
            case 0: return .null
            case 1: return .boolean(rng.next() % 2 == 0)
            case 2: return .integer(Int64(bitPattern: rng.next()))
            case 3: return .double(Double(bitPattern: rng.next()))
            case 4: return .timestamp(Timestamp(seconds: Int64(rng.next() % 253_402_300_799), nanos: Int32(rng.next() % 1_000_000_000)))
            case 5: return .string(String(decoding: rng.bytes(Int(rng.next() % 12)).map { $0 % 0x60 + 0x20 }, as: UTF8.self))
            case 6: return .bytes(rng.bytes(Int(rng.next() % 12)))
            case 7: return .reference(Fx.name("c/\(rng.next() % 100)"))
            case 8: return .geoPoint(GeoPoint(latitude: Double(rng.next() % 180) - 90, longitude: Double(rng.next() % 360) - 180))
            case 9: return .array((0..<Int(rng.next() % 4)).map { _ in random(depth + 1) })
            default:
                var m: FieldMap = [:]
                for _ in 0..<Int(rng.next() % 4) { m["k\(rng.next() % 50)"] = random(depth + 1) }
                return .map(m)
            }
        }
        for _ in 0..<1_000 {
            let v = random(0)
            #expect(try FirestoreProto.value(serializedBytes: FirestoreProto.serializedValue(v)) == v)
        }
    }
}
