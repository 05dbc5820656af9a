import Testing

@testable import FirestoreModel

@Suite struct FieldPathTests {
    @Test(arguments: [
        ("a", ["a"]), ("a.b.c", ["a", "b", "c"]), ("_x9", ["_x9"]), ("__name__", ["__name__"]),
        ("`a.b`", ["a.b"]), ("foo.`x&y`", ["foo", "x&y"]), ("`bak\\`tik`", ["bak`tik"]), ("`a\\\\b`", ["a\\b"]),
        ("`9lives`.`é`", ["9lives", "é"]), ("` `", [" "]), ("`a`.b", ["a", "b"]), ("`😀`", ["😀"]),
    ])
    func parses(_ text: String, _ segments: [String]) throws {
        #expect(try FieldPath(parsing: text).segments == segments)
    }

    @Test(arguments: [
        "", ".", "a.", ".a", "a..b", "9lives", "a-b", "a b", "é", "`", "`a", "a`", "``", "`a`b", "a`b`", "`a``b`",
        "`a\\b`", "`a\\`", "a.`b`c", String(repeating: "a", count: 1501),
    ])
    func rejects(_ text: String) {
        #expect(throws: FirestoreError.self) { try FieldPath(parsing: text) }
    }

    @Test func rejectionsAreInvalidArgument() {
        #expect(throws: FirestoreError(.invalidArgument, "Invalid field path: a..b")) { try FieldPath(parsing: "a..b") }
        #expect(throws: FirestoreError(.invalidArgument, "Unterminated ` in field path: `a")) { try FieldPath(parsing: "`a") }
    }

    @Test(arguments: [
        (["a", "b"], "a.b"), (["a.b"], "`a.b`"), (["bak`tik"], "`bak\\`tik`"), (["a\\b"], "`a\\\\b`"), (["9"], "`9`"),
        (["é"], "`é`"), ([""], "``"), (["_"], "_"),
    ])
    func canonicalForm(_ segments: [String], _ text: String) throws {
        #expect(FieldPath(segments).canonical == text)
        if !segments.contains("") { #expect(try FieldPath(parsing: text).segments == segments) }
    }

    @Test func orderingAndPrefixes() throws {
        let a = try FieldPath(parsing: "a")
        let ab = try FieldPath(parsing: "a.b")
        let b = try FieldPath(parsing: "b")
        let upper = try FieldPath(parsing: "B")
        #expect(a < ab && ab < b && upper < a)
        #expect(a.isPrefix(of: ab) && a.isPrefix(of: a) && !ab.isPrefix(of: a) && !b.isPrefix(of: ab))
        #expect(FieldPath.documentKey.isDocumentKey && !a.isDocumentKey)
        #expect(FieldPath(["\u{FFFD}"]) < FieldPath(["😀"]))
    }

    @Test func writeValidation() throws {
        try FieldPath(parsing: "a.b").validateForWrite()
        try FieldPath(parsing: "`__a`").validateForWrite()
        #expect(throws: FirestoreError.self) { try FieldPath(parsing: "__name__").validateForWrite() }
        #expect(throws: FirestoreError.self) { try FieldPath(parsing: "a.`__x__`").validateForWrite() }
        #expect(throws: FirestoreError.self) { try FieldPath(["a", ""]).validateForWrite() }
    }

    @Test func dictionaryPathHelpers() {
        var fields: FieldMap = ["a": .map(["b": .integer(1)]), "s": .string("x")]
        #expect(fields.value(at: FieldPath(["a", "b"])) == .integer(1))
        #expect(fields.value(at: FieldPath(["s", "b"])) == nil)
        #expect(fields.value(at: FieldPath(["zz"])) == nil)
        fields.setValue(.integer(2), at: FieldPath(["s", "t"]))
        #expect(fields["s"] == .map(["t": .integer(2)]))
        fields.setValue(.null, at: FieldPath(["a", "c", "d"]))
        #expect(fields["a"] == .map(["b": .integer(1), "c": .map(["d": .null])]))
        fields.removeValue(at: FieldPath(["a", "b"]))
        fields.removeValue(at: FieldPath(["missing", "x"]))
        #expect(fields["a"] == .map(["c": .map(["d": .null])]))
        #expect(fields.projected(to: [FieldPath(["a", "c"]), .documentKey, FieldPath(["nope"])]) == ["a": .map(["c": .map(["d": .null])])])
    }
}
