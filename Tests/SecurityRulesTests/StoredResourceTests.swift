import FirestoreModel
import Testing

@testable import SecurityRules

/// `resource.data` of a document read from storage (`RulesMap(storedFields:)`, converted a
/// member at a time) decides exactly as the same document's decoded fields do.
struct StoredResourceTests {
    static let fields: FieldMap = [
        "n": .integer(5), "s": .string("x"), "m": .map(["a": .array([.integer(1), .integer(2)]), "é": .null]),
        "d": .double(2.5), "t": .timestamp(testTime),
    ]

    static let conditions = [
        "resource.data.n == 5", "resource.data['n'] > 3", "'n' in resource.data", "'zz' in resource.data",
        "resource.data.zz == 1", "resource.data.keys().hasAll(['n', 'm'])", "resource.data.size() == 5",
        "resource.data == {'n': 5, 's': 'x', 'm': {'a': [1, 2], 'é': null}, 'd': 2.5, 't': request.time}",
        "resource.data.m.a[1] == 2", "resource.data.m['é'] == null", "resource.data.diff({'n': 5}).affectedKeys().size() == 4",
        "resource.data.values().size() == 5", "request.resource.data.diff(resource.data).changedKeys().size() == 0",
        "resource.data.get('zz', 7) == 7", "resource.data.get(['m', 'a'], 0)[0] == 1", "resource.data.t == request.time",
        "resource.data.s.size() == 1 && resource.data.d > 2", "resource.data.m.keys() == ['a', 'é']",
    ]

    func request(stored: Bool) throws -> RulesRequest {
        let p = ResourcePath(relative: "rooms/r1")
        func document() throws -> Document {
            stored
                ? Document(
                    path: p, encodedFields: try EncodedFields(validating: FieldsCodec.encode(Self.fields)), createTime: testTime,
                    updateTime: testTime)
                : Document(path: p, fields: Self.fields, createTime: testTime, updateTime: testTime)
        }
        return RulesRequest(
            database: testDatabase, method: .update, path: p, auth: .user(uid: "u", token: [:]), time: testTime,
            resource: try document(), requestResource: try document())
    }

    @Test(arguments: conditions)
    func storedAndDecodedDataDecideAlike(_ condition: String) throws {
        let rules = try Ruleset(source: wrapped(condition), fileName: "firestore.rules")
        let decoded = rules.decide(try request(stored: false), access: NoDocumentAccess())
        let stored = rules.decide(try request(stored: true), access: NoDocumentAccess())
        #expect(stored.allowed == decoded.allowed)
        #expect(stored.explanation.description == decoded.explanation.description)
    }

    @Test func theConditionsAreNotAllTrue() throws {
        var allowed = 0
        for c in Self.conditions {
            let rules = try Ruleset(source: wrapped(c), fileName: "firestore.rules")
            if rules.decide(try request(stored: true), access: NoDocumentAccess()).allowed { allowed += 1 }
        }
        #expect(allowed >= 12 && allowed < Self.conditions.count)
    }

    @Test func aMemberReadConvertsOnlyThatField() throws {
        let map = RulesMap(storedFields: try EncodedFields(validating: FieldsCodec.encode(Self.fields)))
        #expect(map.member("n").map(\.literalText) == "5")
        #expect(map.member("zz") == nil)
        #expect(map.isConvertedDocument)
        #expect(map.entries.count == 5)
    }
}
