import DeterministicRandom
import FirestoreModel
import GoogleWire
import Testing

@testable import FirestoreAPI

/// The REST answer written from stored bytes (`RESTCodec+Stored.swift`) against the answer
/// written from the decoded fields: the same bytes, for every value kind and key order.
@Suite struct RESTTranscoderTests {
    /// Keys whose UTF-8 order differs from insertion order, share prefixes, need escaping, or
    /// are outside the BMP.
    static let keys = ["b", "a", "ab", "Z", "é", "e\u{301}x", "\"q\"", "back\\slash", "\u{2028}", "tab\t", "😀", "", "a\u{0}"]

    static func randomFields(_ rng: inout SplitMix64) -> FieldMap {
        var fields: FieldMap = [:]
        for _ in 0..<(rng.next() % 8) {
            let key = keys[Int(rng.next() % UInt64(keys.count))]
            fields[key] = rng.next() % 4 == 0 ? .map(randomFields(&rng, depth: 1)) : randomValue(&rng, depth: 0)
        }
        return fields
    }

    static func randomFields(_ rng: inout SplitMix64, depth: Int) -> FieldMap {
        var fields: FieldMap = [:]
        for _ in 0..<(rng.next() % 5) {
            let key = keys[Int(rng.next() % UInt64(keys.count))]
            fields[key] = depth < 3 && rng.next() % 3 == 0 ? .map(randomFields(&rng, depth: depth + 1)) : randomValue(&rng, depth: depth)
        }
        return fields
    }

    static func fromTree(_ fields: FieldMap) -> [UInt8] {
        var out: [UInt8] = []
        RESTCodec.writeFields(fields, into: &out)
        return out
    }

    static func fromBytes(_ fields: FieldMap) throws -> [UInt8] {
        let encoded = try EncodedFields(validating: FieldsCodec.encode(fields))
        #expect(encoded.isOrdered)
        var out: [UInt8] = []
        RESTCodec.writeFields(encoded, into: &out)
        return out
    }

    @Test func randomFieldsTranscodeToTheSameJSON() throws {
        var rng = SplitMix64(seed: 41)
        for _ in 0..<3000 {
            let fields = Self.randomFields(&rng)
            let expected = Self.fromTree(fields)
            let got = try Self.fromBytes(fields)
            #expect(got == expected, "\(String(decoding: got, as: UTF8.self)) vs \(String(decoding: expected, as: UTF8.self))")
        }
    }

    @Test func everyValueKindTranscodes() throws {
        let values: [Value] = [
            .null, .boolean(true), .boolean(false), .integer(.min), .integer(.max), .integer(0), .integer(-7),
            .double(.nan), .double(-0.0), .double(.infinity), .double(-.infinity), .double(1e21), .double(0.1),
            .timestamp(Timestamp(seconds: Timestamp.minSeconds, nanos: 0)), .timestamp(Timestamp(seconds: 1, nanos: 1_000)),
            .timestamp(Timestamp(seconds: Timestamp.maxSeconds, nanos: 999_999_999)), .string(""), .string("a\"b\\c\u{0}\u{1F}\u{2028}\u{2029}é😀"),
            .bytes([]), .bytes([0, 1, 2, 255]), .reference("projects/p/databases/(default)/documents/c/d"),
            .geoPoint(GeoPoint(latitude: 0, longitude: 0)), .geoPoint(GeoPoint(latitude: -0.0, longitude: 12.5)),
            .geoPoint(GeoPoint(latitude: 1.5, longitude: 0)), .array([]), .array([.null, .array([.integer(1)])]),
            .map([:]), .map(["z": .map([:]), "a": .array([])]),
        ]
        for (i, v) in values.enumerated() {
            let fields: FieldMap = ["v": v, "k\(i)": .map(["inner": v])]
            #expect(try Self.fromBytes(fields) == Self.fromTree(fields), "\(v)")
        }
        #expect(try Self.fromBytes([:]) == Self.fromTree([:]))
    }

    @Test func storedAndDecodedDocumentsWriteTheSameDocument() throws {
        var rng = SplitMix64(seed: 5)
        let database = DatabaseID(project: "p", database: "(default)")
        for i in 0..<300 {
            let fields = Self.randomFields(&rng)
            let path = ResourcePath(["c", "d\(i)"])
            let times = (Timestamp(seconds: 1_700_000_000, nanos: 5_000), Timestamp(seconds: 1_700_000_001, nanos: 0))
            let decoded = Document(path: path, fields: fields, createTime: times.0, updateTime: times.1)
            let stored = Document(
                path: path, encodedFields: try EncodedFields(validating: FieldsCodec.encode(fields)), createTime: times.0,
                updateTime: times.1)
            #expect(stored == decoded)
            var a: [UInt8] = []
            var b: [UInt8] = []
            RESTCodec.writeDocument(decoded, database: database, into: &a)
            RESTCodec.writeDocument(stored, database: database, into: &b)
            #expect(a == b)
        }
    }
}
