import FirestoreModel
import Testing

@testable import SecurityRules

/// Built-ins that need more than one line of checking, and the table itself.
struct LibraryTests {
    @Test func everyEntryIsDocumentedAndUnique() {
        var seen = Set<String>()
        for e in Library.entries {
            let key = "\(e.receiver?.rawValue ?? "").\(e.name)"
            #expect(seen.insert(key).inserted, "duplicate \(key)")
            #expect(!e.doc.isEmpty && !e.signatures.isEmpty, "\(key)")
        }
        #expect(Library.methods[.string]?["matches"] != nil)
        #expect(Library.functions["math.abs"] != nil)
        #expect(Library.functions["bool"] == nil)
        #expect(Library.reference.contains("string.matches(string) -> bool — RE2 match of the whole string."))
    }

    static let cases: [(String, String)] = [
        ("'a b'.split(' ')", "['a', 'b']"),
        ("['b', 'a'].toSet()", "set('b', 'a')"),
        ("{'b': 1, 'a': 2}.keys()", "['a', 'b']"),
        ("{'a': 1}.diff({'a': 1, 'b': 2}).removedKeys()", "set('b')"),
        ("'abc'.toUtf8()", "b'\\x61\\x62\\x63'"),
        ("hashing.md5(b'')", "b'\\xD4\\x1D\\x8C\\xD9\\x8F\\x00\\xB2\\x04\\xE9\\x80\\x09\\x98\\xEC\\xF8\\x42\\x7E'"),
        ("timestamp.date(2024, 2, 29).dayOfYear()", "60"),
        ("timestamp.date(2023, 2, 29)", "ERR(Invalid date.)"),
        ("timestamp.value(-1).toMillis()", "-1"),
        ("timestamp.value(-1).nanos()", "999000000"),
        ("timestamp.value(-9223372036854775808)", "ERR(Timestamp out of range.)"),
        ("duration.time(0, 0, -9223372036854775808, 0)", "ERR(Duration out of range.)"),
        ("duration.value(-9223372036854775808, 's')", "ERR(Duration out of range.)"),
        ("duration.value(9223372036854775807, 'w')", "ERR(Duration out of range.)"),
        ("timestamp.date(1969, 12, 31).dayOfWeek()", "3"),
        ("duration.value(90, 'm').seconds()", "5400"),
        ("duration.time(1, 2, 3, 4).nanos()", "4"),
        ("timestamp.date(9999, 12, 31) + duration.value(1, 'd')", "ERR(Timestamp out of range.)"),
        ("latlng.value(1, 2) == latlng.value(1.0, 2.0)", "true"),
        (
            "latlng.value(-100, -122.08)",
            "ERR(Latitude should be in [-90,90] range and longitude should be in [-180,180] range. latitude: -100.0, longitude: -122.08.)"
        ),
        ("math.floor(2)", "2.0"), ("math.abs(-9223372036854775808)", "ERR(Integer overflow error.)"),
        ("math.ceil(0.0 / 0.0)", "NaN"), ("math.ceil(1.2)", "2.0"), ("math.floor(-1.5)", "-2.0"),
        ("math.round(-2.5)", "-2"), ("math.round(2.5)", "3"), ("math.round(-0.5)", "0"), ("math.round(7)", "7"),
        ("math.round(0.0 / 0.0)", "0"), ("math.round(-1.0 / 0.0)", "-9223372036854775808"),
        ("math.round('x')", "ERR(Unsupported operation error. Received: math.round(string). Expected: math.round(float).)"),
        ("math.isInfinite(1.0)", "ERR(Function not found error: Name: [math.isInfinite].)"),
        ("[1, 2.5, true, null, 'x'].join('-')", "'1-2.5-true-null-x'"),
        (
            "[{}].join('-')",
            "ERR(Unsupported operation error. Received: string(map). Expected: string(int), string(float), string(null), string(string), string(bool), string(path).)"
        ),
        ("['a'].hasAll(['a'].toSet())", "ERR(Unsupported operation error. Received: list.hasAll(set). Expected: list.hasAll(list).)"),
        ("[1].hasAny([1.0])", "false"), ("[1.0].hasOnly([1])", "false"), ("[1].toSet().hasAll([1.0])", "true"),
        ("int(float('1e300'))", "ERR(Cannot convert 1.0E300 to int.)"), ("float('x')", "ERR(Cannot convert 'x' to float.)"),
        (
            "string([1])",
            "ERR(Unsupported operation error. Received: string(list). Expected: string(int), string(float), string(null), string(string), string(bool), string(path).)"
        ),
        ("path('a/b').bind({'x': 1})", "path(/a/b)"),
        ("'abc'.matches(1)", "ERR(Unsupported operation error. Received: string.matches(int). Expected: string.matches(string).)"),
        ("'abc'.size(1)", "ERR(Unsupported operation error. Received: string.size(int). Expected: string.size().)"),
        (
            "['a'].toSet().difference(['a'])",
            "ERR(Unsupported operation error. Received: set.difference(list). Expected: set.difference(set).)"
        ),
        ("[1, 2, 3].removeAll([2, 2.0])", "[1, 3]"), ("[1, 2.0, 3].removeAll([2])", "[1, 2.0, 3]"),
        ("{'a': {'b': 1}}.get(['a', 'b'], 0)", "1"),
        // Keys are exact bytes: U+00E9 and e + U+0301 are two keys of a diff (issue 23 item 3).
        ("{'\u{E9}': 1}.diff({'e\u{301}': 1}).affectedKeys().size()", "2"),
        ("{'\u{E9}': 1, 'e\u{301}': 2}.diff({'\u{E9}': 1}).addedKeys().size()", "1"),
        (
            "{'a': 1}.get(1, 0)",
            "ERR(Unsupported operation error. Received: map.get(int, int). Expected: map.get(string, any), map.get(list, any).)"
        ),
    ]

    @Test(arguments: cases) func builtins(_ expression: String, _ expected: String) {
        #expect(show(evaluate(expression)) == expected, "\(expression)")
    }

    @Test func enormousListsStayLinear() {
        let big = RulesValue.list((0..<200_000).map { .int(Int64($0)) })
        let needles = RulesValue.list((0..<100_000).map { .int(Int64($0 * 2)) })
        let start = ContinuousClock.now
        let r = evaluate("big.hasAll(needles) && big.toSet().size() == 200000 && !big.hasOnly(needles)", ["big": big, "needles": needles])
        #expect(show(r) == "true")
        #expect(ContinuousClock.now - start < .seconds(10))
    }

    @Test func workBudgetStopsHugeCollections() {
        let big = RulesValue.list((0..<50_000).map { .int(Int64($0)) })
        let r = evaluate("big.hasAll(big)", ["big": big], limits: RulesLimits(maxWork: 10_000))
        guard case .failure(let e) = r else {
            Issue.record("expected a budget error")
            return
        }
        #expect(e.kind == .fatal && e.message.contains("work budget"))
    }

    @Test func conversionsRoundTripDocumentValues() {
        let doc: FieldMap = [
            "n": .integer(1), "f": .double(1.5), "s": .string("x"), "t": .timestamp(testTime), "b": .bytes([1]),
            "g": .geoPoint(GeoPoint(latitude: 1, longitude: 2)), "r": .reference("projects/demo-project/databases/(default)/documents/a/b"),
            "l": .array([.null, .boolean(true)]), "m": .map(["k": .integer(2)]),
        ]
        let v = RulesValue(.map(doc))
        #expect(v.firestoreValue(project: "demo-project") == .map(doc))
        if case .map(let m) = v, case .path(let p)? = m.entries["r"] {
            #expect(p.description == "/databases/(default)/documents/a/b")
        } else {
            Issue.record("reference should read as a path")
        }
    }

    @Test func javaStyleDoubles() {
        let cases: [(Double, String)] = [
            (2, "2.0"), (0.5, "0.5"), (1e7, "1.0E7"), (12345678.9, "1.23456789E7"), (1e-3, "0.001"), (1e-4, "1.0E-4"),
            (-2.5e-5, "-2.5E-5"), (.nan, "NaN"), (-.infinity, "-Infinity"), (1e21, "1.0E21"), (123.456, "123.456"),
        ]
        for (d, s) in cases { #expect(RulesFormat.double(d) == s, "\(d)") }
    }
}
