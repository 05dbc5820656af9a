import DeterministicRandom
import FirestoreModel
import GoogleWire
import Testing

@testable import FirestoreAPI

@Suite struct JSONValueParseTests {
    @Test func keepsNumberTextExact() throws {
        let v = try JSONValue.parse("[9223372036854775807, -9223372036854775808, 1.5, 1e400, -0, 0.1E-3]")
        #expect(
            v == .array([
                .number("9223372036854775807"), .number("-9223372036854775808"), .number("1.5"), .number("1e400"),
                .number("-0"), .number("0.1E-3"),
            ]))
    }

    @Test func objectsKeepOrderAndDuplicates() throws {
        let v = try JSONValue.parse(#" { "b" : 1 , "a" : [ ] , "b" : null } "#)
        #expect(v == .object([.init("b", .number("1")), .init("a", .array([])), .init("b", .null)]))
        #expect(v["b"] == .number("1"))
    }

    @Test func unescapesStrings() throws {
        let v = try JSONValue.parse(#""a\"\\\/\b\f\n\r\t\u0041\u00e9\ud83d\ude00é""#)
        #expect(v == .string("a\"\\/\u{8}\u{c}\n\r\tAé😀é"))
    }

    @Test(arguments: [
        "", " ", "[", "]", "{", "{\"a\"}", "{\"a\":}", "{a:1}", "[1,]", "[,1]", "{\"a\":1,}", "01", "-", "1.", ".5",
        "1e", "+1", "NaN", "Infinity", "tru", "nul", "\"abc", "\"\\x\"", "\"\\u12\"", "\"\\ud800\"", "\"\\udc00x\"",
        "\"\u{01}\"", "1 2", "[1]x", "'a'", "[1 2]",
    ])
    func rejectsMalformed(_ text: String) {
        #expect(throws: FirestoreError.self) { try JSONValue.parse(text) }
    }

    @Test func rejectsInvalidUTF8() {
        #expect(throws: FirestoreError.self) { try JSONValue.parse([0x22, 0xFF, 0x22]) }
        #expect(throws: FirestoreError.self) { try JSONValue.parse([0x22, 0xC3, 0x22]) }
    }

    @Test func skipsBOM() throws {
        #expect(try JSONValue.parse([0xEF, 0xBB, 0xBF] + Array("true".utf8)) == .bool(true))
    }

    @Test func depthIsLimitedWithoutRecursingDeeply() throws {
        let ok = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        _ = try JSONValue.parse(ok)
        let tooDeep = String(repeating: "[", count: 101) + String(repeating: "]", count: 101)
        #expect(throws: FirestoreError(.invalidArgument, "Invalid JSON payload at byte 100: nesting deeper than 100 levels.")) {
            try JSONValue.parse(tooDeep)
        }
        // A hostile body far deeper than any stack: rejected at byte 100, never recursed into.
        let hostile = Array(repeating: UInt8(ascii: "["), count: 1_000_000)
        #expect(throws: FirestoreError.self) { try JSONValue.parse(hostile) }
        let objects = String(repeating: "{\"a\":", count: 101) + "1" + String(repeating: "}", count: 101)
        #expect(throws: FirestoreError.self) { try JSONValue.parse(objects) }
    }

    @Test func serializesCompactlyWithEscapes() {
        let v = JSONValue.object([
            "s": .string("q\"b\\n\n\u{1}\u{1f}\u{7f}é😀\u{2028}\u{2029}/"), "a": .array([.null, .bool(true), .bool(false), .number("-1.5E-7")]),
            "o": .object([]),
        ])
        #expect(v.serializedString == #"{"s":"q\"b\\n\n\u0001\u001f"# + "\u{7f}é😀" + #"\u2028\u2029/","a":[null,true,false,-1.5E-7],"o":{}}"#)
    }

    /// Other characters whose UTF-8 starts with E2 (`€` is E2 82 AC, `‧` U+2027 is E2 80 A7)
    /// are written raw, also at the end of a string and beside escapes.
    @Test func serializesOtherE2SequencesRaw() {
        let v = JSONValue.string("€‧\u{2028}€\n€")
        #expect(v.serializedString == "\"€‧" + #"\u2028"# + "€" + #"\n"# + "€\"")
        #expect(JSONValue.string("").serializedString == #""""#)
        #expect(JSONValue.string("plain ascii").serializedString == #""plain ascii""#)
    }

    @Test func serializeThenParseRoundTrips() throws {
        let v = JSONValue.object([
            "k\u{0}ey": .string("\u{0}\u{8}\t\r\u{c}x\u{10FFFF}"), "n": .array([.number("0"), .number("123456789012345678901234567890")]),
        ])
        #expect(try JSONValue.parse(v.serialized()) == v)
    }

    /// Every truncation and thousands of random corruptions of a valid body either parse or
    /// throw `FirestoreError`; none crashes.
    @Test func malformedBodiesNeverCrash() throws {
        let body = Array(
            #"{"writes":[{"update":{"name":"projects/p/databases/(default)/documents/c/d","fields":{"a":{"integerValue":"-9223372036854775808"},"é😀":{"arrayValue":{"values":[{"doubleValue":1.5e-3},{"stringValue":"\u0041\ud83d\ude00\n"},{"nullValue":null},{"booleanValue":true}]}}}},"updateMask":{"fieldPaths":["a"]}}]}"#.utf8)
        let whole = try JSONValue.parse(body)
        #expect(try JSONValue.parse(whole.serialized()) == whole)
        for n in 0..<body.count {
            #expect(throws: FirestoreError.self) { try JSONValue.parse(Array(body[..<n])) }
        }
        var rng = SplitMix64(seed: 5)
        let alphabet = Array(#"{}[]",:\/-+.eE0123456789tfnulr "#.utf8) + [0x00, 0x1F, 0x80, 0xC3, 0xFF]
        for _ in 0..<1500 {
            var bytes = body
            for _ in 0..<(1 + rng.next() % 3) {
                let i = Int(rng.next() % UInt64(bytes.count))
                bytes[i] = alphabet[Int(rng.next() % UInt64(alphabet.count))]
            }
            if let v = try? JSONValue.parse(bytes) {
                _ = try? RESTCodec.decodeWrite(v["writes"]?.arrayItems?.first ?? .null, database: DatabaseID(project: "p"))
            }
        }
    }
}
