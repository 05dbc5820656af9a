import DeterministicRandom
import FirestoreModel
import GoogleWire
import Testing

@testable import FirestoreAPI

/// Decodes one Value from JSON text.
func decodeValue(_ text: String) throws -> Value {
    try RESTCodec.decodeValue(try JSONValue.parse(text))
}

/// Encodes one Value to compact JSON text.
func encodeValue(_ v: Value) -> String { RESTCodec.encodeValue(v).serializedString }

@Suite struct JSONValueCodecTests {
    @Test(arguments: [
        (#"{"nullValue":null}"#, Value.null), (#"{"nullValue":"NULL_VALUE"}"#, .null), (#"{"nullValue":0}"#, .null),
        (#"{"null_value":null}"#, .null), (#"{"booleanValue":true}"#, .boolean(true)),
        (#"{"integerValue":"-9223372036854775808"}"#, .integer(.min)), (#"{"integerValue":9223372036854775807}"#, .integer(.max)),
        (#"{"integer_value":"1e3"}"#, .integer(1000)), (#"{"doubleValue":1.5}"#, .double(1.5)),
        (#"{"doubleValue":"1.5"}"#, .double(1.5)), (#"{"doubleValue":"Infinity"}"#, .double(.infinity)),
        (#"{"doubleValue":"-Infinity"}"#, .double(-.infinity)), (#"{"doubleValue":3}"#, .double(3)),
        (#"{"timestampValue":"2024-01-02T03:04:05.123456789+01:30"}"#, .timestamp(Timestamp(seconds: 1_704_159_245, nanos: 123_456_789))),
        (#"{"timestampValue":"0001-01-01T00:00:00Z"}"#, .timestamp(Timestamp(seconds: Timestamp.minSeconds, nanos: 0))),
        (#"{"stringValue":"a\u0000b"}"#, .string("a\u{0}b")), (#"{"bytesValue":"AQID"}"#, .bytes([1, 2, 3])),
        (#"{"bytesValue":"_-8"}"#, .bytes([0xFF, 0xEF])), (#"{"bytesValue":"/+8="}"#, .bytes([0xFF, 0xEF])),
        (#"{"bytesValue":""}"#, .bytes([])), (#"{"bytesValue":"AQI"}"#, .bytes([1, 2])),
        (#"{"referenceValue":"projects/p/databases/(default)/documents/c/d"}"#, .reference("projects/p/databases/(default)/documents/c/d")),
        (#"{"geoPointValue":{}}"#, .geoPoint(GeoPoint(latitude: 0, longitude: 0))),
        (#"{"geoPointValue":{"latitude":"1.5","longitude":-2}}"#, .geoPoint(GeoPoint(latitude: 1.5, longitude: -2))),
        (#"{"arrayValue":{}}"#, .array([])), (#"{"arrayValue":{"values":[]}}"#, .array([])),
        (#"{"arrayValue":{"values":[{"integerValue":"1"},{"nullValue":null}]}}"#, .array([.integer(1), .null])),
        (#"{"mapValue":{}}"#, .map([:])), (#"{"mapValue":{"fields":null}}"#, .map([:])),
        (#"{"mapValue":{"fields":{"a_b":{"booleanValue":false},"":{"stringValue":"x"}}}}"#, .map(["a_b": .boolean(false), "": .string("x")])),
        (#"{"stringValue":null,"booleanValue":true}"#, .boolean(true)),
    ] as [(String, Value)])
    func decodes(_ text: String, _ expected: Value) throws {
        #expect(try decodeValue(text) == expected)
    }

    @Test func negativeZeroDecodesAsNegativeZero() throws {
        guard case .double(let d) = try decodeValue(#"{"doubleValue":"-0"}"#) else {
            Issue.record("not a double")
            return
        }
        #expect(d == 0 && d.sign == .minus)
        #expect(try decodeValue(#"{"doubleValue":"NaN"}"#).isNaN)
    }

    @Test(arguments: [
        (#"{}"#, "Invalid value at 'value': a Value must set one of its value fields; none is set."),
        (#"{"nullValue":null,"booleanValue":true}"#, "Invalid value at 'value': a Value must set exactly one value field; got nullValue and booleanValue."),
        (#"{"stringValue":"a","string_value":"b"}"#, "Invalid JSON payload received. Field \"stringValue\" at 'value' is given more than once."),
        (#"{"bogus":1,"nullValue":null}"#, "Invalid JSON payload received. Unknown name \"bogus\" at 'value': Cannot find field."),
        (#"{"integerValue":"9223372036854775808"}"#, "Invalid value at 'value.integerValue': \"9223372036854775808\" is not a 64-bit integer."),
        (#"{"integerValue":1.5}"#, "Invalid value at 'value.integerValue': 1.5 is not a 64-bit integer."),
        (#"{"doubleValue":1e400}"#, "Invalid value at 'value.doubleValue': 1e400 is out of range for a double."),
        (#"{"doubleValue":"nan"}"#, "Invalid value at 'value.doubleValue': \"nan\" is not a number."),
        (#"{"booleanValue":"true"}"#, "Invalid value at 'value.booleanValue': expected true or false, got string."),
        (#"{"nullValue":"NULL"}"#, "Invalid value at 'value.nullValue': expected one of NULL_VALUE; got \"NULL\"."),
        (#"{"timestampValue":"2024-01-02 03:04:05Z"}"#, "Invalid value at 'value.timestampValue': \"2024-01-02 03:04:05Z\" is not an RFC 3339 timestamp between 0001-01-01 and 9999-12-31."),
        (#"{"bytesValue":"A"}"#, "Invalid value at 'value.bytesValue': \"A\" is not valid base64."),
        (#"{"referenceValue":"x"}"#, "Invalid value at 'value.referenceValue': \"x\" is not a document name (projects/{p}/databases/{d}/documents/{path})."),
        (#"{"arrayValue":{"values":[{"integerValue":"x"}]}}"#, "Invalid value at 'value.arrayValue.values[0].integerValue': \"x\" is not a 64-bit integer."),
        (#"{"mapValue":{"fields":{"k":{}}}}"#, "Invalid value at 'value.mapValue.fields[\"k\"]': a Value must set one of its value fields; none is set."),
        (#"{"mapValue":{"fields":{"k":{"nullValue":null},"k":{"nullValue":null}}}}"#, "Invalid value at 'value.mapValue.fields[\"k\"]': field \"k\" is given more than once."),
        (#"{"geoPointValue":{"lat":1}}"#, "Invalid JSON payload received. Unknown name \"lat\" at 'value.geoPointValue': Cannot find field."),
        (#"{"fieldReferenceValue":"a"}"#, "Invalid value at 'value.fieldReferenceValue': pipeline values are not allowed here."),
        (#"[]"#, "Invalid value at 'value': expected a JSON object, got array."),
    ])
    func rejects(_ text: String, _ message: String) {
        #expect(throws: FirestoreError.invalidArgument(message)) { try decodeValue(text) }
    }

    @Test(arguments: [
        "A", "AB=", "A===", "AQID=", "A=BC", "AQ=D", "A B", "AQ==\n", "Ω",
    ])
    func rejectsBadBase64(_ text: String) {
        #expect(Base64.decode(text) == nil, "\(text)")
    }

    @Test func base64RoundTripsEveryLength() {
        var rng = SplitMix64(seed: 3)
        for n in 0..<40 {
            let bytes = (0..<n).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let text = Base64.encode(bytes)
            #expect(text.utf8.count % 4 == 0)
            #expect(Base64.decode(text) == bytes)
            let unpadded = String(text.prefix { $0 != "=" })
            #expect(Base64.decode(unpadded) == bytes)
            let urlSafe = String(text.map { $0 == "+" ? "-" : ($0 == "/" ? "_" : $0) })
            #expect(Base64.decode(urlSafe) == bytes)
        }
        #expect(Base64.encode([0xFB, 0xFF]) == "+/8=")
    }

    @Test(arguments: [
        (Value.null, #"{"nullValue":null}"#), (.boolean(false), #"{"booleanValue":false}"#),
        (.integer(.min), #"{"integerValue":"-9223372036854775808"}"#), (.double(1), #"{"doubleValue":1.0}"#),
        (.double(-0.0), #"{"doubleValue":-0.0}"#), (.double(1e21), #"{"doubleValue":1.0E21}"#),
        (.double(.nan), #"{"doubleValue":"NaN"}"#), (.double(-.infinity), #"{"doubleValue":"-Infinity"}"#),
        (.timestamp(Timestamp(seconds: 0, nanos: 100_000_000)), #"{"timestampValue":"1970-01-01T00:00:00.100Z"}"#),
        (.string("é\u{1}"), #"{"stringValue":"é\u0001"}"#), (.bytes([1, 2]), #"{"bytesValue":"AQI="}"#),
        (.reference("projects/p/databases/d/documents/c/x"), #"{"referenceValue":"projects/p/databases/d/documents/c/x"}"#),
        (.geoPoint(GeoPoint(latitude: 0, longitude: 2)), #"{"geoPointValue":{"longitude":2.0}}"#),
        (.geoPoint(GeoPoint(latitude: 0, longitude: 0)), #"{"geoPointValue":{}}"#),
        (.geoPoint(GeoPoint(latitude: -1.5, longitude: 0)), #"{"geoPointValue":{"latitude":-1.5}}"#),
        (.array([]), #"{"arrayValue":{}}"#), (.map([:]), #"{"mapValue":{}}"#),
        (.array([.integer(1), .array([])]), #"{"arrayValue":{"values":[{"integerValue":"1"},{"arrayValue":{}}]}}"#),
        (.map(["b": .null, "a": .map([:]), "é": .boolean(true), "Z": .integer(0)]),
         #"{"mapValue":{"fields":{"Z":{"integerValue":"0"},"a":{"mapValue":{}},"b":{"nullValue":null},"é":{"booleanValue":true}}}}"#),
    ] as [(Value, String)])
    func encodes(_ v: Value, _ expected: String) {
        #expect(encodeValue(v) == expected)
    }

    /// Every value survives encode → serialize → parse → decode as the same value (-0 becomes 0).
    @Test func roundTripsRandomValues() throws {
        var rng = SplitMix64(seed: 11)
        for _ in 0..<500 {
            let v = randomValue(&rng, depth: 0)
            let back = try RESTCodec.decodeValue(try JSONValue.parse(RESTCodec.encodeValue(v).serialized()))
            #expect(back.firestoreEqualsIdentically(v), "\(v) → \(back)")
        }
    }
}

extension Value {
    /// Identity equality except that -0.0 and 0.0 are the same (the encoder writes both as 0.0).
    func firestoreEqualsIdentically(_ other: Value) -> Bool {
        switch (self, other) {
        case (.double(let a), .double(let b)): return a == b || (a.isNaN && b.isNaN)
        case (.geoPoint(let a), .geoPoint(let b)): return a == b
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.firestoreEqualsIdentically($1) }
        case (.map(let a), .map(let b)):
            return a.count == b.count && a.allSatisfy { k, v in b[k].map { v.firestoreEqualsIdentically($0) } ?? false }
        default: return self == other
        }
    }
}

func randomValue(_ rng: inout SplitMix64, depth: Int) -> Value {
    let pick = rng.next() % (depth > 2 ? 9 : 11)
    switch pick {
    case 0: return .null
    case 1: return .boolean(rng.next() % 2 == 0)
    case 2: return .integer(Int64(bitPattern: rng.next()))
    case 3:
        let specials: [Double] = [.nan, .infinity, -.infinity, 0, -0.0, 1, 1e21, .leastNonzeroMagnitude, .greatestFiniteMagnitude]
        return .double(rng.next() % 3 == 0 ? specials[Int(rng.next() % UInt64(specials.count))] : Double(bitPattern: rng.next() >> 2))
    case 4:
        let s = Int64(rng.next() % UInt64(Timestamp.maxSeconds - Timestamp.minSeconds)) + Timestamp.minSeconds
        return .timestamp(Timestamp(seconds: s, nanos: Int32(rng.next() % 1_000_000_000)))
    case 5:
        let scalars = (0..<(rng.next() % 6)).compactMap { _ in Unicode.Scalar(UInt32(rng.next() % 0x11_0000)) }
        return .string(String(String.UnicodeScalarView(scalars)))
    case 6: return .bytes((0..<(rng.next() % 7)).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
    case 7: return .reference("projects/p/databases/(default)/documents/c/d\(rng.next() % 100)")
    case 8: return .geoPoint(GeoPoint(latitude: Double(rng.next() % 180) - 90, longitude: Double(rng.next() % 3600) / 10 - 180))
    case 9: return .array((0..<(rng.next() % 4)).map { _ in randomValue(&rng, depth: depth + 1) })
    default:
        var m: FieldMap = [:]
        for _ in 0..<(rng.next() % 4) { m["k\(rng.next() % 10)"] = randomValue(&rng, depth: depth + 1) }
        return .map(m)
    }
}
