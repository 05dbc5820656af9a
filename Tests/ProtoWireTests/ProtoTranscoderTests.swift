import DeterministicRandom
import FirestoreModel
import Testing

@testable import ProtoWire

/// The gRPC Document written from stored bytes (`FirestoreProto+Stored.swift`) against the one
/// written from the decoded fields.
@Suite struct ProtoTranscoderTests {
    static let asciiKeys = ["b", "a", "ab", "Z", "a_b", "k10", "k9", "", "`x`"]
    static let unicodeKeys = ["é", "😀", "\u{FFFF}", "ключ", "\u{7F}", "a\u{0}"]

    static func random(_ rng: inout SplitMix64, keys: [String], depth: Int) -> Value {
        switch rng.next() % (depth > 3 ? 9 : 11) {
        case 0: return .null
        case 1: return .boolean(rng.next() % 2 == 0)
        case 2: return .integer(Int64(bitPattern: rng.next()))
        case 3: return .double(Double(bitPattern: rng.next()))
        case 4: return .timestamp(Timestamp(seconds: Int64(rng.next() % 253_402_300_799), nanos: Int32(rng.next() % 1_000_000_000)))
        case 5: return .string(String(decoding: rng.bytes(Int(rng.next() % 12)).map { $0 % 0x60 + 0x20 }, as: UTF8.self) + "é")
        case 6: return .bytes(rng.bytes(Int(rng.next() % 12)))
        case 7: return .reference("projects/p/databases/(default)/documents/c/\(rng.next() % 100)")
        case 8:
            return .geoPoint(GeoPoint(latitude: rng.next() % 5 == 0 ? 0 : Double(rng.next() % 180) - 90, longitude: Double(rng.next() % 360) - 180))
        case 9: return .array((0..<Int(rng.next() % 4)).map { _ in random(&rng, keys: keys, depth: depth + 1) })
        default: return .map(fields(&rng, keys: keys, depth: depth + 1))
        }
    }

    static func fields(_ rng: inout SplitMix64, keys: [String], depth: Int) -> FieldMap {
        var m: FieldMap = [:]
        for _ in 0..<Int(rng.next() % 6) { m[keys[Int(rng.next() % UInt64(keys.count))]] = random(&rng, keys: keys, depth: depth) }
        return m
    }

    static func documents(_ fields: FieldMap) throws -> (decoded: Document, stored: Document) {
        let path = ResourcePath(["c", "d"])
        let t = Timestamp(seconds: 1_700_000_000, nanos: 123_000)
        return (
            Document(path: path, fields: fields, createTime: t, updateTime: t),
            Document(path: path, encodedFields: try EncodedFields(validating: FieldsCodec.encode(fields)), createTime: t, updateTime: t)
        )
    }

    @Test func asciiKeysTranscodeToTheSameBytes() throws {
        var rng = SplitMix64(seed: 77)
        let database = DatabaseID(project: "p")
        for _ in 0..<2_000 {
            let (decoded, stored) = try Self.documents(Self.fields(&rng, keys: Self.asciiKeys, depth: 0))
            #expect(FirestoreProto.serializedDocument(stored, database: database) == FirestoreProto.serializedDocument(decoded, database: database))
        }
    }

    @Test func unicodeKeysTranscodeToTheSameDocument() throws {
        var rng = SplitMix64(seed: 78)
        let database = DatabaseID(project: "p")
        for _ in 0..<1_000 {
            let fields = Self.fields(&rng, keys: Self.asciiKeys + Self.unicodeKeys, depth: 0)
            let (_, stored) = try Self.documents(fields)
            let bytes = FirestoreProto.serializedDocument(stored, database: database)
            let body = try FirestoreProto.decodeDocumentBody(ProtoReader(bytes))
            #expect(body.fields == fields)
        }
    }
}
