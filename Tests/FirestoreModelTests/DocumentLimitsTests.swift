import Testing

@testable import FirestoreModel

@Suite struct DocumentLimitsTests {
    let path = ResourcePath(["c", "d"])

    func validate(_ fields: [String: Value]) throws(FirestoreError) { try DocumentLimits.validate(fields: fields, path: path) }

    @Test func acceptsOrdinaryDocuments() throws {
        try validate(["a": .map(["b": .array([.integer(1), .map(["c": .null])])]), "_x": .string(String(repeating: "x", count: 1000))])
        try validate(["v": .map(["__type__": .string("__vector__"), "value": .array([.double(1)])])])
        try validate(["g": .geoPoint(GeoPoint(latitude: -90, longitude: 180))])
        try validate(["__x": .null, "x__": .null, "__": .null])
    }

    @Test(arguments: [
        ["": Value.null], ["__x__": .null], ["m": .map(["__x__": .integer(1)])], ["m": .map(["": .integer(1)])],
        ["m": .map(["__type__": .string("other")])], ["a": .array([.array([])])],
        ["g": .geoPoint(GeoPoint(latitude: 91, longitude: 0))], ["g": .geoPoint(GeoPoint(latitude: 0, longitude: -180.5))],
        ["g": .geoPoint(GeoPoint(latitude: .nan, longitude: 0))], ["t": .timestamp(Timestamp(seconds: Timestamp.maxSeconds + 1, nanos: 0))],
        [String(repeating: "k", count: 1501): .null], ["s": .string(String(repeating: "x", count: 1_048_488))],
    ] as [[String: Value]])
    func rejects(_ fields: [String: Value]) {
        let e = #expect(throws: FirestoreError.self) { try validate(fields) }
        #expect(e?.code == .invalidArgument)
    }

    @Test func depthLimit() throws {
        var v = Value.integer(1)
        for _ in 0..<19 { v = .map(["m": v]) }
        try validate(["top": v])
        #expect(throws: FirestoreError.self) { try validate(["top": .map(["m": v])]) }
    }

    @Test func documentSize() throws {
        #expect(DocumentLimits.size(of: .string("abc")) == 4)
        #expect(DocumentLimits.size(of: .map(["ab": .integer(1)])) == 11)
        #expect(DocumentLimits.size(of: ["a": .boolean(true)], path: path) == 16 + 4 + 3 + 32)
        let big = String(repeating: "x", count: 600_000)
        #expect(throws: FirestoreError.self) { try validate(["a": .string(big), "b": .string(big)]) }
    }
}
