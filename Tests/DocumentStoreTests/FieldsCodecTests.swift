import DeterministicRandom
import Testing

@testable import DocumentStore
@testable import FirestoreModel

@Suite struct FieldsCodecTests {
    static let edgeFields: [String: Value] = [
        "intMax": .integer(.max), "intMin": .integer(.min), "zero": .integer(0),
        "negZero": .double(-0.0), "nan": .double(.nan), "payloadNaN": .double(Double(nan: 0x1234, signaling: false)),
        "negNaN": .double(-Double.nan), "inf": .double(-.infinity), "tiny": .double(.leastNonzeroMagnitude),
        "ts": .timestamp(Timestamp(seconds: -62_135_596_800, nanos: 999_999_999)),
        "bytes": .bytes([0, 255, 0]), "emptyBytes": .bytes([]),
        "ref": .reference("projects/p/databases/(default)/documents/c/__id7__"),
        "geo": .geoPoint(GeoPoint(latitude: -0.0, longitude: 180)),
        "emptyMap": .map([:]), "emptyArray": .array([]), "null": .null, "t": .boolean(true), "f": .boolean(false),
        "nested": .map(["é😀": .array([.map(["\u{0}": .string("a\u{0}b")]), .null]), "": .string("")]),
        "ключ": .string("значение"),
    ]

    @Test func edgeValuesRoundTripBitForBit() throws {
        let decoded = try FieldsCodec.decode(FieldsCodec.encode(Self.edgeFields))
        #expect(bitIdentical(decoded, Self.edgeFields))
        if case .double(let d)? = decoded["payloadNaN"] {
            #expect(d.bitPattern == Double(nan: 0x1234, signaling: false).bitPattern)
        } else {
            Issue.record("payloadNaN missing")
        }
    }

    @Test func randomValuesRoundTrip() throws {
        var gen = ValueGenerator(rng: SplitMix64(seed: 7))
        for i in 0..<2000 {
            let fields = ["v": gen.value(), "w\(i % 3)": gen.value()]
            #expect(bitIdentical(try FieldsCodec.decode(FieldsCodec.encode(fields)), fields))
        }
    }

    @Test func extractingOneFieldMatchesFullDecoding() throws {
        var gen = ValueGenerator(rng: SplitMix64(seed: 11))
        var found = 0
        for _ in 0..<500 {
            let fields = ["a": gen.value(), "b": gen.mapValue(depth: 0), "é": gen.value()]
            let bytes = FieldsCodec.encode(fields)
            for p in [["a"], ["b"], ["b", "a"], ["b", "é"], ["é"], ["zz"], ["a", "a"], ["b", "a", "b"]].map(FieldPath.init) {
                let expected = fields.value(at: p)
                let got = try bytes.withUnsafeBytes { try FieldsCodec.value(at: p, in: $0) }
                #expect(got.map { g in expected.map { bitIdentical(g, $0) } ?? false } ?? (expected == nil), "\(p) in \(fields)")
                if expected != nil { found += 1 }
            }
        }
        #expect(found > 1500)
        for p in Self.edgeFields.keys {
            let bytes = FieldsCodec.encode(Self.edgeFields)
            let got = try bytes.withUnsafeBytes { try FieldsCodec.value(at: FieldPath([p]), in: $0) }
            #expect(got.map { bitIdentical($0, Self.edgeFields[p] ?? .null) } == true)
        }
    }

    @Test func corruptBytesThrowInsteadOfTrapping() {
        let good = FieldsCodec.encode(Self.edgeFields)
        for cut in stride(from: 0, to: good.count - 1, by: 7) {
            #expect(throws: FirestoreError.self) { try FieldsCodec.decode(Array(good.prefix(cut))) }
        }
        #expect(throws: FirestoreError.self) { try FieldsCodec.decode([0x09]) }  // unknown version
        #expect(throws: FirestoreError.self) { try FieldsCodec.decode([0x01, 0x01, 0x01, 0x61, 0x7F]) }  // unknown tag
        #expect(throws: FirestoreError.self) { try FieldsCodec.decode([0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F]) }  // huge count
    }
}
