import DeterministicRandom
import Testing

@testable import DocumentStore
@testable import FirestoreModel

@Suite struct FieldsCodecTests {
    static let edgeFields: FieldMap = [
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
            let fields: FieldMap = ["v": gen.value(), "w\(i % 3)": gen.value()]
            #expect(bitIdentical(try FieldsCodec.decode(FieldsCodec.encode(fields)), fields))
        }
    }

    @Test func extractingOneFieldMatchesFullDecoding() throws {
        var gen = ValueGenerator(rng: SplitMix64(seed: 11))
        var found = 0
        for _ in 0..<500 {
            let fields: FieldMap = ["a": gen.value(), "b": gen.mapValue(depth: 0), "é": gen.value()]
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

    /// Keys of every map in the encoding, in stored order (depth-first).
    static func storedKeyRuns(_ bytes: [UInt8]) throws -> [[[UInt8]]] {
        var runs: [[[UInt8]]] = []
        func entries(_ r: inout FieldsReader) throws {
            var keys: [[UInt8]] = []
            for _ in 0..<(try r.length()) {
                keys.append(Array(try r.slice()))
                try value(&r)
            }
            runs.append(keys)
        }
        func value(_ r: inout FieldsReader) throws {
            var probe = r
            switch try probe.byte() {
            case FieldsCodec.Tag.map:
                r = probe
                try entries(&r)
            case FieldsCodec.Tag.array:
                r = probe
                for _ in 0..<(try r.length()) { try value(&r) }
            default: try r.skipValue(depth: 0)
            }
        }
        try bytes.withUnsafeBytes { buffer in
            var r = FieldsReader(buffer)
            #expect(try r.version())
            try entries(&r)
        }
        return runs
    }

    @Test func version2WritesEveryMapInUTF8KeyOrder() throws {
        var gen = ValueGenerator(rng: SplitMix64(seed: 19))
        var checked = 0
        for _ in 0..<500 {
            let fields: FieldMap = ["é": gen.mapValue(depth: 0), "Z": gen.value(), "a": .array([gen.mapValue(depth: 1)]), "😀": gen.value(), "ab": .null]
            let bytes = FieldsCodec.encode(fields)
            #expect(bytes.first == FieldsCodec.version)
            for run in try Self.storedKeyRuns(bytes) {
                #expect(zip(run, run.dropFirst()).allSatisfy { $0.lexicographicallyPrecedes($1) })
                checked += run.count
            }
        }
        #expect(checked > 2500)
    }

    @Test func version1BytesStillDecodeAndExtract() throws {
        // ["b": 1, "a": true] in dictionary order, as earlier builds stored it: "b" first.
        let v1: [UInt8] = [0x01, 0x02, 0x01, 0x62, 0x03, 0x02, 0x01, 0x61, 0x02]
        #expect(try FieldsCodec.decode(v1) == ["b": .integer(1), "a": .boolean(true)])
        let encoded = try EncodedFields(validating: v1)
        #expect(!encoded.isOrdered)
        // An unordered seek may not stop at the first larger key.
        #expect(encoded.value(at: FieldPath(["a"])) == .boolean(true))
        #expect(encoded.value(at: FieldPath(["b"])) == .integer(1))
        #expect(encoded.value(at: FieldPath(["c"])) == nil)
        #expect(encoded.fields == ["b": .integer(1), "a": .boolean(true)])
    }

    @Test func encodedFieldsAnswerAsTheDecodedFields() throws {
        var gen = ValueGenerator(rng: SplitMix64(seed: 23))
        for _ in 0..<300 {
            let fields: FieldMap = ["a": gen.value(), "b": gen.mapValue(depth: 0), "é": gen.value()]
            let encoded = try EncodedFields(validating: FieldsCodec.encode(fields))
            for p in [["a"], ["b"], ["b", "a"], ["b", "é"], ["é"], ["zz"], ["0"], ["a", "a"]].map(FieldPath.init) {
                let expected = fields.value(at: p)
                let got = encoded.value(at: p)
                #expect(got.map { g in expected.map { bitIdentical(g, $0) } ?? false } ?? (expected == nil))
            }
            #expect(bitIdentical(encoded.fields, fields))
            #expect(encoded.isEmpty == fields.isEmpty)
        }
        #expect(try EncodedFields(validating: FieldsCodec.encode([:])).isEmpty)
    }

    @Test func validationRefusesCorruptBytes() {
        let good = FieldsCodec.encode(Self.edgeFields)
        for cut in stride(from: 0, to: good.count - 1, by: 5) {
            #expect(throws: FirestoreError.self) { try EncodedFields(validating: Array(good.prefix(cut))) }
        }
        #expect(throws: FirestoreError.self) { try EncodedFields(validating: good + [0]) }  // trailing byte
        #expect(throws: FirestoreError.self) { try EncodedFields(validating: [0x02, 0x01, 0x01, 0x61, 0x06, 0x01, 0xFF]) }  // string not UTF-8
        #expect(throws: FirestoreError.self) { try EncodedFields(validating: [0x02, 0x01, 0x01, 0xC3, 0x00]) }  // key not UTF-8
        #expect(throws: FirestoreError.self) { try EncodedFields(validating: [0x02, 0x01, 0x01, 0x61, 0x7F]) }  // unknown tag
        #expect(throws: FirestoreError.self) { try EncodedFields(validating: [0x03, 0x00]) }  // unknown version
        var deep: [UInt8] = [0x02, 0x01, 0x01, 0x61]
        for _ in 0..<(FieldsCodec.maxDepth + 6) { deep += [0x0B, 0x01, 0x01, 0x61] }
        deep.append(0x00)
        #expect(throws: FirestoreError.self) { try EncodedFields(validating: deep) }  // nested too deeply
    }

    @Test func projectionOfAStoredDocumentIsTheProjectionOfItsFields() throws {
        var gen = ValueGenerator(rng: SplitMix64(seed: 29))
        let masks: [[FieldPath]] = [
            [], [FieldPath(["a"])], [FieldPath(["b", "a"]), FieldPath(["é"])], [FieldPath(["b"]), FieldPath(["b", "a"])],
            [FieldPath.documentKey, FieldPath(["zz"])], [FieldPath(["b", "é"]), FieldPath(["b", "a", "b"])],
        ]
        let t = Timestamp(seconds: 1, nanos: 0)
        for _ in 0..<300 {
            let fields: FieldMap = ["a": gen.value(), "b": gen.mapValue(depth: 0), "é": gen.value()]
            let stored = Document(
                path: ResourcePath(["c", "d"]), encodedFields: try EncodedFields(validating: FieldsCodec.encode(fields)),
                createTime: t, updateTime: t)
            for mask in masks {
                #expect(bitIdentical(stored.projected(to: mask), fields.projected(to: mask)))
            }
        }
    }
}
