import Testing

@testable import FirestoreModel

/// A reference in the test database.
func ref(_ path: String) -> Value { .reference("projects/p/databases/(default)/documents/" + path) }

/// A vector value as Firestore stores it.
func vector(_ xs: Double...) -> Value {
    .map(["__type__": .string("__vector__"), "value": .array(xs.map(Value.double))])
}

@Suite struct ValueOrderingTests {
    /// One representative per type, in Firestore's cross-type order (docs/reference/firestore-wire.md §1.9).
    static let ascendingTypes: [Value] = [
        .null, .boolean(false), .double(.nan), .integer(0), .timestamp(Timestamp(seconds: 0, nanos: 0)), .string(""),
        .bytes([]), ref("c/d"), .geoPoint(GeoPoint(latitude: 0, longitude: 0)), .array([]), vector(), .map([:]),
    ]

    @Test func crossTypeOrder() {
        for (i, a) in Self.ascendingTypes.enumerated() {
            for (j, b) in Self.ascendingTypes.enumerated() {
                #expect(Value.compare(a, b) == Ordering(i, j), "\(a) vs \(b)")
            }
        }
        #expect(Self.ascendingTypes.map(\.typeOrder) == [0, 1, 2, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    }

    /// Strictly ascending runs; each inner array holds values that compare equal.
    static let numbers: [[Value]] = [
        [.double(.nan), .double(-.nan)], [.double(-.infinity)], [.double(-1e300)],
        [.integer(.min), .double(-9_223_372_036_854_775_808.0)], [.double(-1.5)], [.integer(-1), .double(-1)],
        [.double(-0.0), .integer(0), .double(0)], [.double(.leastNonzeroMagnitude)], [.double(0.5)],
        [.integer(1), .double(1)], [.integer(9_007_199_254_740_992), .double(9_007_199_254_740_992)],
        [.integer(9_007_199_254_740_993)], [.double(9_007_199_254_740_994)], [.integer(.max - 1)], [.integer(.max)],
        [.double(9_223_372_036_854_775_808.0)], [.double(1e300)], [.double(.infinity)],
    ]

    @Test func numbersCompareExactly() {
        for (i, run) in Self.numbers.enumerated() {
            for (j, other) in Self.numbers.enumerated() {
                for a in run {
                    for b in other { #expect(Value.compare(a, b) == Ordering(i, j), "\(a) vs \(b)") }
                }
            }
        }
    }

    @Test func intNearDoubleBoundaries() {
        // 2^63 - 1024 is the largest double below 2^63; the int just above it is greater.
        #expect(Value.compare(.integer(9_223_372_036_854_774_784), .double(9_223_372_036_854_774_784)) == .equal)
        #expect(Value.compare(.integer(9_223_372_036_854_774_785), .double(9_223_372_036_854_774_784)) == .greater)
        #expect(Value.compare(.integer(-9_223_372_036_854_775_807), .double(-9_223_372_036_854_775_808.0)) == .greater)
        #expect(Value.compare(.integer(2), .double(2.5)) == .less)
        #expect(Value.compare(.integer(-2), .double(-2.5)) == .greater)
        #expect(Value.compare(.integer(-3), .double(-2.5)) == .less)
        #expect(Value.compare(.double(-2.5), .integer(-3)) == .greater)
        #expect(Value.compare(.integer(0), .double(-0.0)) == .equal)
        #expect(Value.compare(.integer(.min), .double(-.infinity)) == .greater)
    }

    @Test func stringsByUTF8Bytes() {
        let ascending = ["", "\u{0}", "A", "Z", "a", "a\u{0}b", "ab", "b", "e\u{301}", "\u{7f}", "é", "\u{FF5E}", "\u{FFFD}", "😀"]
        for (i, a) in ascending.enumerated() {
            for (j, b) in ascending.enumerated() {
                #expect(Value.compare(.string(a), .string(b)) == Ordering(i, j), "\(a) vs \(b)")
            }
        }
        // UTF-16 order would put U+1F600 (D83D DE00) before U+FFFD.
        #expect(utf8Less("\u{FFFD}", "😀"))
        // Canonically equivalent but different bytes: not equal (Swift `==` would say equal).
        #expect(Value.compare(.string("é"), .string("e\u{301}")) != .equal)
        #expect(Value.string("é") != Value.string("e\u{301}"))
    }

    @Test func bytesUnsignedAndPrefixFirst() {
        let ascending: [[UInt8]] = [[], [0], [0, 0], [1], [0x7F], [0x80], [0xFF], [0xFF, 0]]
        for (i, a) in ascending.enumerated() {
            for (j, b) in ascending.enumerated() { #expect(Value.compare(.bytes(a), .bytes(b)) == Ordering(i, j)) }
        }
    }

    @Test func referencesSegmentBySegment() {
        let ascending = [
            "projects/a/databases/(default)/documents/c/a", "projects/p/databases/(default)/documents/c/__id-5__",
            "projects/p/databases/(default)/documents/c/__id5__", "projects/p/databases/(default)/documents/c/__id10__",
            "projects/p/databases/(default)/documents/c/A", "projects/p/databases/(default)/documents/c/a",
            "projects/p/databases/(default)/documents/c/a/s/x", "projects/p/databases/(default)/documents/c/b",
            "projects/p/databases/(default)/documents/ca/a", "projects/p/databases/other/documents/c/a",
        ]
        for (i, a) in ascending.enumerated() {
            for (j, b) in ascending.enumerated() {
                #expect(Value.compare(.reference(a), .reference(b)) == Ordering(i, j), "\(a) vs \(b)")
            }
        }
        #expect(compareSegments("__id9__", "__id10__") == .less)
        #expect(compareSegments("__id10__", "A") == .less)
        #expect(compareSegments("__idx__", "__id1__") == .greater)
        #expect(compareSegments("__id99999999999999999999__", "a") == .less)  // too big for int64: a string id
    }

    @Test func geoPointsLatitudeThenLongitude() {
        let ascending = [(-90.0, 0.0), (0, -180), (0, 0), (0, 1), (1, -1), (90, 180)]
        for (i, a) in ascending.enumerated() {
            for (j, b) in ascending.enumerated() {
                let c = Value.compare(
                    .geoPoint(GeoPoint(latitude: a.0, longitude: a.1)), .geoPoint(GeoPoint(latitude: b.0, longitude: b.1)))
                #expect(c == Ordering(i, j))
            }
        }
    }

    @Test func arraysElementWiseThenShorter() {
        let ascending: [[Value]] = [
            [], [.null], [.boolean(false)], [.integer(1)], [.integer(1), .integer(2)], [.integer(1), .integer(2), .integer(3)],
            [.integer(1), .integer(2), .integer(3), .integer(1)], [.integer(2)], [.string("a")], [.map([:])],
        ]
        for (i, a) in ascending.enumerated() {
            for (j, b) in ascending.enumerated() { #expect(Value.compare(.array(a), .array(b)) == Ordering(i, j)) }
        }
        #expect(Value.compare(.array([.integer(1)]), .array([.double(1)])) == .equal)
    }

    @Test func vectorsByLengthThenElements() {
        #expect(vector(1).typeOrder == 9)
        #expect(vector(3) < vector(1, 2))
        #expect(vector(1, 2) < vector(1, 3))
        #expect(vector(1, 2) < vector(0, 0, 0))
        #expect(Value.compare(vector(1, 2), vector(1, 2)) == .equal)
        #expect(Value.compare(.array([.double(9)]), vector()) == .less)
        #expect(Value.compare(vector(9, 9, 9), .map([:])) == .less)
        // Only the `__type__` sentinel makes a vector.
        #expect(Value.map(["__type__": .string("other"), "value": .array([])]).typeOrder == 10)
        #expect(Value.map(["__type__": .string("__vector__")]).vectorElements == [])
    }

    @Test func mapsByKeysThenValuesThenSize() {
        let ascending: [FieldMap] = [
            [:], ["B": .integer(9)], ["a": .integer(1)], ["a": .integer(1), "b": .integer(1)], ["a": .integer(2)],
            ["a": .string("x")], ["a": .map(["b": .integer(1)])], ["b": .integer(0)], ["é": .integer(0)],
        ]
        for (i, a) in ascending.enumerated() {
            for (j, b) in ascending.enumerated() { #expect(Value.compare(.map(a), .map(b)) == Ordering(i, j), "\(a) vs \(b)") }
        }
        #expect(Value.compare(.map(["a": .integer(1)]), .map(["a": .double(1)])) == .equal)
    }

    @Test func identityEqualityIsStricterThanFirestoreEquality() {
        #expect(Value.integer(1) != Value.double(1))
        #expect(Value.integer(1).firestoreEquals(.double(1)))
        #expect(Value.double(.nan) == Value.double(.nan))
        #expect(Value.double(-0.0) != Value.double(0))
        #expect(Value.double(-0.0).firestoreEquals(.double(0)))
        #expect(Set([Value.double(.nan), .double(.nan), .integer(1), .double(1)]).count == 3)
        #expect(Value.double(.nan).isNaN && !Value.integer(0).isNaN && Value.integer(0).isNumber && !Value.null.isNumber)
    }

    @Test func typeNames() {
        #expect(Self.ascendingTypes.map(\.typeName) == [
            "null", "bool", "float", "int", "timestamp", "string", "bytes", "path", "latlng", "list", "map", "map",
        ])
    }
}

extension Value {
    static func < (a: Value, b: Value) -> Bool { Value.compare(a, b) == .less }
}
