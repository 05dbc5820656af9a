import DeterministicRandom
import FirestoreModel
import Testing

/// Names are exact bytes (issue 23 item 3): maps, paths and field paths never merge names that
/// Swift's `String` calls canonically equivalent, and order them by UTF-8 bytes.
@Suite struct ExactNameTests {
    static let nfc = "\u{E9}"
    static let nfd = "e\u{301}"

    @Test func canonicallyEquivalentNamesStayDistinct() {
        #expect(Self.nfc == Self.nfd)  // what Swift says, and why ExactName exists
        #expect(ExactName(Self.nfc) != ExactName(Self.nfd))
        var fields: FieldMap = [:]
        fields[Self.nfc] = .integer(1)
        fields[Self.nfd] = .integer(2)
        #expect(fields.count == 2)
        #expect(fields[Self.nfc] == .integer(1) && fields[Self.nfd] == .integer(2))
        #expect(fields.sortedKeys().map { Array($0.utf8) } == [Array(Self.nfd.utf8), Array(Self.nfc.utf8)])
        #expect(ResourcePath(["c", Self.nfc]) != ResourcePath(["c", Self.nfd]))
        #expect(Set([ResourcePath(["c", Self.nfc]), ResourcePath(["c", Self.nfd])]).count == 2)
        #expect(FieldPath([Self.nfc]) != FieldPath([Self.nfd]))
        #expect(!FieldPath([Self.nfc]).isPrefix(of: FieldPath([Self.nfd, "x"])))
        #expect(Value.map(["a": .map([Self.nfc: .null])]) != Value.map(["a": .map([Self.nfd: .null])]))
    }

    /// A random name from scalars that break normalization-based comparison: combining marks,
    /// precomposed letters, Hangul jamo and syllables, NUL, right-to-left marks, the
    /// neighbours of the surrogate range, and the last scalars of the BMP and of Unicode.
    static func randomName(_ rng: inout SplitMix64) -> String {
        let pool: [UInt32] = [
            0x0, 0x41, 0x65, 0xE9, 0x301, 0x308, 0x327, 0xC5, 0x212B, 0x1100, 0x1161, 0x11A8, 0xAC00, 0xAC01,
            0x200F, 0x202E, 0xD7FF, 0xE000, 0xFFFD, 0xFFFF, 0x10000, 0x1F600, 0x10FFFF, 0x2F, 0x2E,
        ]
        let n = Int(rng.next() % 4) + 1
        var s = ""
        for _ in 0..<n { s.unicodeScalars.append(Unicode.Scalar(pool[Int(rng.next() % UInt64(pool.count))])!) }
        return s
    }

    @Test func randomNamesRoundTripAndOrderByBytes() throws {
        var rng = SplitMix64(seed: 23)
        for _ in 0..<300 {
            let names = (0..<6).map { _ in Self.randomName(&rng) }
            let distinct = Set(names.map { Array($0.utf8) })
            var fields: FieldMap = [:]
            for (i, name) in names.enumerated() { fields[name] = .integer(Int64(i)) }
            #expect(fields.count == distinct.count)
            // Stored encoding round trip keeps every name's bytes.
            let decoded = try FieldsCodec.decode(FieldsCodec.encode(fields))
            #expect(Set(decoded.keys.map { Array($0.utf8) }) == distinct)
            #expect(decoded == fields)
            // Order: UTF-8 bytes, as Firestore orders strings.
            let sorted = fields.sortedKeys().map { Array($0.utf8) }
            #expect(sorted == distinct.sorted { $0.lexicographicallyPrecedes($1) })
            let values = names.map(Value.string).sorted { Value.compare($0, $1) == .less }
            for (a, b) in zip(values, values.dropFirst()) {
                guard case .string(let x) = a, case .string(let y) = b else { continue }
                #expect(!Array(y.utf8).lexicographicallyPrecedes(Array(x.utf8)))
            }
            let paths = Set(names.map { ResourcePath(["c", $0]) })
            #expect(paths.count == distinct.count)
        }
    }
}
