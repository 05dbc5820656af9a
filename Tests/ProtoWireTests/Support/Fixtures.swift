import FirestoreModel

@testable import ProtoWire

/// Shared values of the message tests (they match scripts/record_proto_fixtures.py).
enum Fx {
    static let db = DatabaseID(project: "demo-proj")
    static let dbName = "projects/demo-proj/databases/(default)"
    static let docs = dbName + "/documents"
    static let ts = Timestamp(seconds: 1_700_000_000, nanos: 500_000_000)
    static let ts2 = Timestamp(seconds: 1_700_000_001, nanos: 123_456_000)

    static func path(_ relative: String) -> ResourcePath { ResourcePath(relative: relative) }
    static func name(_ relative: String) -> String { docs + "/" + relative }
    static func field(_ text: String) -> FieldPath { FieldPath(text.split(separator: ".").map(String.init)) }

    /// users/alice {age: 30, name: "Alice"}, created TS, updated TS2.
    static let alice = Document(
        path: path("users/alice"), fields: ["age": .integer(30), "name": .string("Alice")], createTime: ts, updateTime: ts2)

    /// Builds message bytes with the writer (request fixtures made by hand).
    static func message(_ body: (inout ProtoWriter) -> Void) -> [UInt8] {
        var w = ProtoWriter()
        body(&w)
        return w.bytes
    }
}
