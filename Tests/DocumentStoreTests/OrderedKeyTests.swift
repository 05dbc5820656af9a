import DeterministicRandom
import Testing

@testable import DocumentStore
@testable import FirestoreModel

/// The sign of memcmp over two keys, as SQLite compares BLOBs.
private func memcmpOrder(_ a: [UInt8], _ b: [UInt8]) -> Ordering {
    a == b ? .equal : (a.lexicographicallyPrecedes(b) ? .less : .greater)
}

@Suite struct OrderedKeyTests {
    @Test func randomPairsOrderLikeValueCompare() {
        var gen = ValueGenerator(rng: SplitMix64(seed: 42))
        var checked = 0
        var equalPairs = 0
        for _ in 0..<20_000 {
            let a = gen.value()
            let b = gen.chance(0.2) ? a : gen.value()
            let expected = Value.compare(a, b)
            let actual = memcmpOrder(OrderedKey.value(a), OrderedKey.value(b))
            #expect(actual == expected, "\(a) vs \(b)")
            checked += 1
            if expected == .equal { equalPairs += 1 }
        }
        #expect(checked == 20_000)
        #expect(equalPairs > 1000)  // the generator does produce equal-but-not-identical pairs
    }

    /// Every value of the fixed edge-case pools, each against each.
    @Test func edgeCasesOrderLikeValueCompare() {
        var pool: [Value] = [.null, .boolean(false), .boolean(true)]
        pool += ValueGenerator.integers.map(Value.integer) + ValueGenerator.doubles.map(Value.double)
        pool += ValueGenerator.strings.map(Value.string)
        pool += [.bytes([]), .bytes([0]), .bytes([0, 0]), .bytes([0, 1]), .bytes([255])]
        pool += [.array([]), .array([.null]), .array([.integer(1), .integer(2)]), .array([.integer(1), .integer(2), .integer(3)])]
        pool += [.map([:]), .map(["a": .integer(1)]), .map(["a": .integer(1), "b": .null]), .map(["b": .null]), .map(["": .null])]
        pool += ["c", "c/a", "c/a/d", "c/__id5__", "c/__id05__", "c/__id-1__", "c/a-", "c/a/d/x", "c/\u{0}"].map {
            Value.reference("projects/p/databases/(default)/documents/\($0)")
        }
        pool += [.timestamp(ts(-1, 999_999_999)), .timestamp(ts(0)), .timestamp(ts(0, 1))]
        pool += [.geoPoint(GeoPoint(latitude: 0, longitude: -0.0)), .geoPoint(GeoPoint(latitude: -0.0, longitude: 1))]
        for a in pool {
            for b in pool {
                #expect(memcmpOrder(OrderedKey.value(a), OrderedKey.value(b)) == Value.compare(a, b), "\(a) vs \(b)")
            }
        }
    }

    @Test func numbersAreExactAcrossIntAndDouble() {
        let big = Int64(1) << 53
        #expect(memcmpOrder(OrderedKey.value(.integer(big + 1)), OrderedKey.value(.double(Double(big)))) == .greater)
        #expect(OrderedKey.value(.integer(3)) == OrderedKey.value(.double(3.0)))
        #expect(OrderedKey.value(.double(-0.0)) == OrderedKey.value(.double(0.0)))
        #expect(OrderedKey.value(.integer(.min)) == OrderedKey.value(.double(-9_223_372_036_854_775_808.0)))
        #expect(memcmpOrder(OrderedKey.value(.integer(.max)), OrderedKey.value(.double(9_223_372_036_854_775_808.0))) == .less)
        #expect(memcmpOrder(OrderedKey.value(.double(.nan)), OrderedKey.value(.double(-.infinity))) == .less)
        #expect(OrderedKey.value(.double(.nan)) == OrderedKey.value(.double(-Double.nan)))
    }

    @Test func pathKeysOrderLikeResourcePathsAndBoundSubtrees() throws {
        let paths = ["c/a", "c/a/d/x", "c/a-", "c/b", "c/__id5__", "c/__id12__", "c/\u{0}", "d/a", "c/a/d/x/e/y", "c/ab", "c/é\u{0}z\u{0}/d/😀"].map(path)
        for a in paths {
            for b in paths {
                let expected: Ordering = a == b ? .equal : (a < b ? .less : .greater)
                #expect(memcmpOrder(OrderedKey.path(a), OrderedKey.path(b)) == expected, "\(a) vs \(b)")
            }
            let key = OrderedKey.path(a)
            let decoded = try key.withUnsafeBytes { buffer in try OrderedKey.decodePath(buffer) }
            #expect(decoded == a)
        }
        // Descendants of c/a, and only they, fall in (key(c/a), key(c/a)+0x03).
        let parent = OrderedKey.path(path("c/a"))
        let end = OrderedKey.descendantsEnd(of: parent)
        for p in paths {
            let k = OrderedKey.path(p)
            let inside = bytesLess(parent, k) && bytesLess(k, end)
            #expect(inside == (p.segments.count > 2 && p.segments.prefix(2) == ["c", "a"]), "\(p)")
        }
        // Numeric ids with the same number stay distinct documents.
        #expect(OrderedKey.path(path("c/__id5__")) != OrderedKey.path(path("c/__id05__")))
    }

    @Test func fieldPathKeysRoundTrip() throws {
        for f in [FieldPath(["a"]), FieldPath(["a", "b.c"]), FieldPath(["\u{0}", "😀", ""])] {
            let key = OrderedKey.fieldPath(f)
            #expect(try key.withUnsafeBytes { try OrderedKey.decodeFieldPath($0) } == f)
        }
    }
}
