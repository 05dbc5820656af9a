import DeterministicRandom
import Testing

@testable import DocumentStore
@testable import FirestoreModel

/// `scanRanges`: the SQLite store's pass over the stored bytes must answer exactly what the
/// general path (`scanRangesByQueries`: one query per range, then `Filter.matches`) answers,
/// on random documents, ranges, filters and projections — and the in-memory store too.
@Suite struct RangeScanEquivalenceTests {
    struct Scenario {
        var gen: ValueGenerator
        init(seed: UInt64) { gen = ValueGenerator(rng: SplitMix64(seed: seed)) }

        static let strings = ValueGenerator.strings + ["9q8yy", "9q8yz", "9q8z", "9q9", "9r", "u4pr"]

        mutating func fieldValue() -> Value {
            gen.chance(0.7) ? .string(gen.pick(Self.strings) + (gen.chance(0.5) ? gen.pick(Self.strings) : "")) : gen.value()
        }

        mutating func fields() -> FieldMap {
            var f: FieldMap = [:]
            if gen.chance(0.9) { f["g"] = fieldValue() }
            if gen.chance(0.8) { f["t"] = gen.chance(0.7) ? .timestamp(ts(Int64.random(in: 0...9, using: &gen.rng))) : gen.value() }
            if gen.chance(0.6) { f["v"] = gen.value() }
            if gen.chance(0.3) { f["m"] = .map(["x": gen.value()]) }
            return f
        }

        mutating func documents(count: Int) -> [Document] {
            (0..<count).map { i in
                let id = gen.pick(["d", "e", "__id7__", "é", "Z", "a\u{0}"]) + String(i)
                let p: String
                switch Int.random(in: 0..<10, using: &gen.rng) {
                case 0: p = "other/\(id)"
                case 1: p = "c/x/c/\(id)"
                default: p = "c/\(id)"
                }
                return Document(path: path(p), fields: fields(), createTime: ts(1), updateTime: ts(2, Int32(i)))
            }
        }

        mutating func range() -> RangeScan.ValueRange {
            var a = fieldValue()
            var b = gen.chance(0.8) ? fieldValue() : a
            if Value.compare(a, b) == .greater { swap(&a, &b) }
            return RangeScan.ValueRange(start: a, end: b)
        }

        mutating func comparison() -> Filter {
            let field = gen.pick([FieldPath(["t"]), FieldPath(["v"]), FieldPath(["m", "x"]), FieldPath(["g"])])
            let op = gen.pick([FieldOperator.lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual, .equal, .notEqual])
            let operand: Value =
                field == FieldPath(["t"]) && gen.chance(0.7) ? .timestamp(ts(Int64.random(in: 0...9, using: &gen.rng))) : gen.value()
            return .field(field, op, operand)
        }

        mutating func scan(wide: Bool = false) -> RangeScan {
            let ranges =
                wide
                ? [RangeScan.ValueRange(start: .string(""), end: .string("\u{FFFD}\u{FFFD}")), range()]
                : (0..<Int.random(in: 1...4, using: &gen.rng)).map { _ in range() }
            var filter: Filter?
            switch Int.random(in: 0..<5, using: &gen.rng) {
            case 0: filter = nil
            case 1: filter = .composite(.and, [comparison(), comparison()])
            case 2: filter = .composite(.or, [comparison(), comparison()])  // the general path's
            case 3: filter = .unary(FieldPath(["v"]), .isNotNull)  // the general path's
            default: filter = comparison()
            }
            let projection = (0..<Int.random(in: 0...3, using: &gen.rng)).map { _ in
                gen.pick([FieldPath(["t"]), FieldPath(["v"]), FieldPath(["m", "x"]), FieldPath(["missing"]), FieldPath(["g"])])
            }
            return RangeScan(collection: path("c"), field: FieldPath(["g"]), ranges: ranges, filter: filter, projection: projection)
        }
    }

    /// Keeps about two thirds of the documents, by id (so `accept` refusing is exercised).
    static func accept(_ d: ProjectedDocument) -> ProjectedDocument? {
        d.documentID.utf8.reduce(0) { $0 &+ Int($1) } % 3 == 0 ? nil : d
    }

    @Test(arguments: 0..<6)
    func passMatchesTheGeneralPath(seed: Int) throws {
        var scenario = Scenario(seed: UInt64(seed) &* 0x9E37_79B9 &+ 11)
        let documents = scenario.documents(count: 300)
        let sqlite = try SQLiteDocumentStore(inMemory: ())
        let memory = InMemoryDocumentStore()
        defer {
            sqlite.close()
            memory.close()
        }
        for store in [sqlite, memory] as [any DocumentStore] {
            try store.commit(documents.map(Mutation.put), in: testDB, commitTime: ts(3))
        }
        for _ in 0..<25 {
            let scan = scenario.scan()
            let fast = try sqlite.snapshot()
            let general = try sqlite.snapshot()
            let reference = try memory.snapshot()
            defer {
                fast.close()
                general.close()
                reference.close()
            }
            let expected = try general.scanRangesByQueries(scan, in: testDB, Self.accept)
            #expect(try fast.scanRanges(scan, in: testDB, Self.accept) == expected, "\(scan)")
            #expect(try reference.scanRanges(scan, in: testDB, Self.accept) == expected, "\(scan)")
        }
    }

    /// With the field indexed, a scan whose ranges hold many entries takes the pass (it
    /// decodes no document), a selective one the index; both answer as the general path.
    @Test func indexedFieldChoosesByCandidates() throws {
        var scenario = Scenario(seed: 77)
        let count = SQLiteSnapshot.selectiveCandidates + 900
        let documents = (0..<count).map { i in
            Document(
                path: path("c/d\(i)"), fields: ["g": .string("9q8y\(i % 97)"), "t": .timestamp(ts(Int64(i % 10)))],
                createTime: ts(1), updateTime: ts(2))
        }
        let sqlite = try SQLiteDocumentStore(inMemory: ())
        defer { sqlite.close() }
        try sqlite.commit(documents.map(Mutation.put), in: testDB, commitTime: ts(3))
        try sqlite.ensureIndex(SingleFieldIndex(collectionID: "c", field: FieldPath(["g"])), in: testDB)
        for (wide, decodes) in [(true, false), (false, true)] {
            var scan = scenario.scan(wide: wide)
            if !wide { scan.ranges = [RangeScan.ValueRange(start: .string("9q8y5"), end: .string("9q8y5"))] }
            scan.filter = .field(FieldPath(["t"]), .greaterThanOrEqual, .timestamp(ts(4)))
            let fast = try #require(try sqlite.snapshot() as? SQLiteSnapshot)
            let general = try sqlite.snapshot()
            defer {
                fast.close()
                general.close()
            }
            let answer = try fast.scanRanges(scan, in: testDB, Self.accept)
            #expect(answer == (try general.scanRangesByQueries(scan, in: testDB, Self.accept)))
            #expect(!answer.isEmpty)
            #expect((fast.documentsDecoded > 0) == decodes, "wide: \(wide)")
        }
    }
}
