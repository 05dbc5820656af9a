import DeterministicRandom
import Foundation
import Testing

@testable import DocumentStore
@testable import FirestoreModel

/// The implementations every contract test runs against.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case inMemory
    case sqlite

    var testDescription: String { rawValue }

    /// A fresh, empty store of this kind (SQLite: an ephemeral file).
    func make() throws -> any DocumentStore {
        switch self {
        case .inMemory: return InMemoryDocumentStore()
        case .sqlite: return try SQLiteDocumentStore(inMemory: ())
        }
    }
}

/// A fresh directory under the system temporary directory, removed by `cleanup`.
struct TemporaryDirectory {
    let url: URL = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-test-\(UUID().uuidString)")

    init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }

    func file(_ name: String) -> String { url.appendingPathComponent(name).path }

    func cleanup() { try? FileManager.default.removeItem(at: url) }
}

let testDB = DatabaseID(project: "demo-test")
let otherDB = DatabaseID(project: "demo-test", database: "other")

func ts(_ seconds: Int64, _ nanos: Int32 = 0) -> Timestamp { Timestamp(seconds: seconds, nanos: nanos) }

func path(_ s: String) -> ResourcePath { ResourcePath(relative: s) }

func doc(_ p: String, _ fields: FieldMap = [:], time: Int64 = 1) -> Document {
    Document(path: path(p), fields: fields, createTime: ts(time), updateTime: ts(time, 500))
}

func ref(_ p: String, in db: DatabaseID = testDB) -> Value { .reference(db.resourceName(path(p))) }


/// Random values of every type, biased towards collisions and edge cases.
struct ValueGenerator {
    var rng: SplitMix64

    mutating func pick<T>(_ options: [T]) -> T { options[Int.random(in: 0..<options.count, using: &rng)] }
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }

    static let strings = ["", "a", "b", "ab", "a\u{0}", "a\u{0}b", "é", "\u{FFFD}", "😀", "Z", "z", "aa", "b\u{1}"]
    static let doubles: [Double] = [
        .nan, -.infinity, .infinity, -0.0, 0.0, 1.0, -1.0, 0.5, -0.5, 2.5, 9_007_199_254_740_992.0,
        9_223_372_036_854_775_808.0, -9_223_372_036_854_775_808.0, .leastNonzeroMagnitude, -.leastNonzeroMagnitude,
        .greatestFiniteMagnitude, 1e-300, 3.0,
    ]
    static let integers: [Int64] = [0, 1, -1, 2, 3, -3, .max, .min, .max - 1, .min + 1, 9_007_199_254_740_993, 1 << 53, 255, 256]

    mutating func scalar() -> Value {
        switch Int.random(in: 0..<10, using: &rng) {
        case 0: return .null
        case 1: return .boolean(chance(0.5))
        case 2: return .integer(pick(Self.integers))
        case 3: return .double(pick(Self.doubles))
        case 4: return .timestamp(Timestamp(seconds: pick([-62_135_596_800, -1, 0, 1, 1_700_000_000]), nanos: pick([0, 1, 999_999_999, 500])))
        case 5: return .string(pick(Self.strings))
        case 6: return .bytes(pick([[], [0], [0, 0], [1], [0, 255], [255], [1, 2, 3]]))
        case 7:
            let segs = pick(["c/a", "c/b", "c/__id5__", "c/__id12__", "c/a/d/x", "c/a-", "c", "c/__id-3__"])
            return .reference("projects/p/databases/(default)/documents/" + segs)
        case 8: return .geoPoint(GeoPoint(latitude: pick([-90, 0, -0.0, 10.5, 90]), longitude: pick([-180, 0, 1, 180])))
        default: return .integer(Int64.random(in: -3...3, using: &rng))
        }
    }

    mutating func value(depth: Int = 0) -> Value {
        if depth < 2 && chance(0.15) {
            let n = Int.random(in: 0...3, using: &rng)
            return .array((0..<n).map { _ in depth < 1 && chance(0.2) ? mapValue(depth: depth + 1) : scalar() })
        }
        if depth < 2 && chance(0.1) { return mapValue(depth: depth + 1) }
        return scalar()
    }

    mutating func mapValue(depth: Int) -> Value {
        let n = Int.random(in: 0...3, using: &rng)
        var m: FieldMap = [:]
        for _ in 0..<n { m[pick(["a", "b", "é", "a\u{0}", "", "😀", "x.y"])] = value(depth: depth + 1) }
        return .map(m)
    }
}

/// True when both values are the same arm with the same bits (NaN payloads included).
func bitIdentical(_ a: Value, _ b: Value) -> Bool {
    switch (a, b) {
    case (.double(let x), .double(let y)): return x.bitPattern == y.bitPattern
    case (.geoPoint(let x), .geoPoint(let y)):
        return x.latitude.bitPattern == y.latitude.bitPattern && x.longitude.bitPattern == y.longitude.bitPattern
    case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy(bitIdentical)
    case (.map(let x), .map(let y)): return bitIdentical(x, y)
    default: return a == b
    }
}

func bitIdentical(_ a: FieldMap, _ b: FieldMap) -> Bool {
    a.count == b.count && a.allSatisfy { k, v in b[k].map { bitIdentical(v, $0) } ?? false }
}
