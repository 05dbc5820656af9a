import Testing

@testable import FirestoreModel

@Suite struct DocumentLimitsTests {
    let path = ResourcePath(["c", "d"])

    func validate(_ fields: FieldMap) throws(FirestoreError) { try DocumentLimits.validate(fields: fields, path: path) }

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
    ] as [FieldMap])
    func rejects(_ fields: FieldMap) {
        let e = #expect(throws: FirestoreError.self) { try validate(fields) }
        #expect(e?.code == .invalidArgument)
    }

    func message(_ fields: FieldMap, path: ResourcePath = ResourcePath(["c", "d"]), database: DatabaseID? = nil) -> String? {
        do throws(FirestoreError) {
            try DocumentLimits.validate(fields: fields, path: path, database: database)
            return nil
        } catch {
            #expect(error.code == .invalidArgument)
            return error.message
        }
    }

    static func nested(_ levels: Int, alternating: Bool = false) -> Value {
        var v = Value.integer(1)
        for i in 0..<levels { v = alternating && i % 2 == 1 ? .array([v]) : .map(["m": v]) }
        return v
    }

    /// A field may hold 20 levels of maps and arrays; the 21st is refused. Source: quotas
    /// ("Maximum depth of fields in a map or array: 20", https://firebase.google.com/docs/firestore/quotas);
    /// the emulator counts the levels so and answers with this message (limits.json l008–l011).
    @Test func depthLimit() throws {
        try validate(["top": Self.nested(20)])
        try validate(["top": Self.nested(20, alternating: true)])
        #expect(message(["top": Self.nested(21)]) == "Property top contains an invalid nested entity.")
        #expect(message(["top": Self.nested(21, alternating: true)]) == "Property top contains an invalid nested entity.")
    }

    /// One string or bytes value holds at most 1,048,487 bytes; the message is production's
    /// (GitHub excalidraw/excalidraw #4839 quotes it from production) and the emulator's.
    @Test func valueSizeLimit() throws {
        try validate(["a": .string(String(repeating: "x", count: 1_048_487))])
        try validate(["b": .bytes(Array(repeating: 1, count: 1_048_487))])
        #expect(message(["a": .string(String(repeating: "x", count: 1_048_488))]) == #"The value of property "a" is longer than 1048487 bytes."#)
        #expect(message(["b": .bytes(Array(repeating: 1, count: 1_048_488))]) == #"The value of property "b" is longer than 1048487 bytes."#)
        #expect(message(["a": .array([.string(String(repeating: "x", count: 1_048_488))])]) == #"The value of property "a" is longer than 1048487 bytes."#)
        #expect(message(["m": .map(["x": .string(String(repeating: "x", count: 1_048_488))])]) == "Property m contains an invalid nested entity.")
    }

    /// Field names hold at most 1,500 bytes (quotas); the texts are the emulator's.
    @Test func fieldNameLimit() throws {
        try validate([String(repeating: "k", count: 1500): .null])
        try validate(["m": .map([String(repeating: "k", count: 1500): .null])])
        #expect(message([String(repeating: "k", count: 1501): .null]) == "The property.name is longer than 1500 bytes.")
        #expect(message(["m": .map([String(repeating: "k", count: 1501): .null])]) == "Property m contains an invalid nested entity.")
    }

    /// The storage-size page's rules: https://firebase.google.com/docs/firestore/storage-size.
    @Test func storageSizes() throws {
        #expect(DocumentLimits.nameSize(of: ResourcePath(["users", "jeff", "tasks", "my_task_id"])) == 44)
        #expect(DocumentLimits.nameSize(of: ResourcePath(["c", "__id7__"])) == 16 + 2 + 8)
        #expect(DocumentLimits.size(of: .string("abc")) == 4)
        #expect(DocumentLimits.size(of: .map(["ab": .integer(1)])) == 11)
        #expect(DocumentLimits.size(of: .reference("projects/p/databases/(default)/documents/users/jeff")) == 6 + 5 + 16)
        #expect(DocumentLimits.size(of: .array([.null, .boolean(true), .double(1), .geoPoint(GeoPoint(latitude: 0, longitude: 0))])) == 1 + 1 + 8 + 16)
        #expect(DocumentLimits.size(of: ["a": .boolean(true)], path: path) == 16 + 4 + 3 + 32)
    }

    /// A document holds at most 1,048,576 bytes by the storage-size count (the emulator refuses
    /// exactly from 1,048,577, limits.json l012–l013); the message is production's, naming the
    /// document and both sizes with digit grouping (GitHub divriots/story-to-design #41,
    /// SESAC-AIoT/smart-farm #2 quote it), not the emulator's "maximum entity size is 1048576 bytes".
    @Test func documentSize() throws {
        // name c/d = 20, each field: name 2 + string n + 1, overhead 32.
        let fill = 1_048_576 - 20 - 32 - 3 - 3 - 600_000
        try validate(["a": .string(String(repeating: "x", count: 600_000)), "b": .string(String(repeating: "x", count: fill))])
        let over: FieldMap = ["a": .string(String(repeating: "x", count: 600_000)), "b": .string(String(repeating: "x", count: fill + 1))]
        #expect(message(over, database: DatabaseID(project: "p"))
            == "Document 'projects/p/databases/(default)/documents/c/d' cannot be written because its size (1,048,577 bytes) exceeds the maximum allowed size of 1,048,576 bytes.")
        #expect(DocumentLimits.grouped(999) == "999")
        #expect(DocumentLimits.grouped(1000) == "1,000")
        #expect(DocumentLimits.grouped(10_485_760) == "10,485,760")
    }

    /// A document name's size is at most 6 KiB (quotas: "Maximum size for a document name:
    /// 6 KiB"), counted as the storage-size page counts names. The emulator enforces no such
    /// limit (limits.json l019): production wins.
    @Test func documentNameLimit() throws {
        let long = String(repeating: "x", count: 1500)
        func path(_ tail: Int) -> ResourcePath {
            ResourcePath(["c", long, "c", long, "c", long, "c", long, "c", String(repeating: "y", count: tail)])
        }
        #expect(DocumentLimits.nameSize(of: path(113)) == 6144)
        try path(113).validateIDs()
        let e = #expect(throws: FirestoreError.self) { try path(114).validateIDs() }
        #expect(e?.code == .invalidArgument)
        #expect(e?.message == "The document name size (6,145 bytes) exceeds the maximum of 6,144 bytes.")
    }

    /// Requests are at most 10 MiB (quotas: "Maximum API request size: 10 MiB").
    @Test func requestSize() throws {
        try DocumentLimits.checkRequestSize(10_485_760)
        let e = #expect(throws: FirestoreError.self) { try DocumentLimits.checkRequestSize(10_485_761) }
        #expect(e?.code == .invalidArgument)
        #expect(e?.message == "Request payload size exceeds the limit: 10485760 bytes.")
    }
}
