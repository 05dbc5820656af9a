import DeterministicRandom
import Testing

@testable import FirestoreModel

@Suite struct DecimalTextTests {
    @Test func writesWhatStringWrites() {
        var rng = SplitMix64(seed: 3)
        var values: [Int64] = [0, 1, -1, 9, 10, -10, 99, 100, .max, .min, .max - 1, .min + 1]
        for _ in 0..<2000 { values.append(Int64(bitPattern: rng.next()) >> Int64(rng.next() % 64)) }
        for v in values {
            var out: [UInt8] = [0x7B]
            DecimalText.append(v, to: &out)
            #expect(out == [0x7B] + Array(String(v).utf8), "\(v)")
        }
    }
}

@Suite struct QueryOrderTests {
    /// `ordered(accepted:)` (values read once per document) against sorting with `compare`.
    @Test func decoratedSortAgreesWithCompare() {
        var rng = SplitMix64(seed: 9)
        let database = DatabaseID(project: "p")
        let pool: [Value] = [.null, .integer(1), .double(1), .double(.nan), .string("a"), .string("b"), .boolean(true), .integer(-3)]
        let orders: [[Order]] = [
            [Order(FieldPath(["a"]))], [Order(FieldPath(["a"]), .descending), Order(FieldPath(["b"]))],
            [Order(FieldPath(["b"]), .descending), Order(.documentKey, .descending)], [],
        ]
        for round in 0..<200 {
            var docs: [Document] = []
            for i in 0..<Int(rng.next() % 30) {
                var fields: FieldMap = [:]
                if rng.next() % 5 != 0 { fields["a"] = pool[Int(rng.next() % UInt64(pool.count))] }
                if rng.next() % 5 != 0 { fields["b"] = pool[Int(rng.next() % UInt64(pool.count))] }
                let t = Timestamp(seconds: 1, nanos: 0)
                docs.append(Document(path: ResourcePath(["c", "d\(rng.next() % 50)-\(i)"]), fields: fields, createTime: t, updateTime: t))
            }
            var query = StructuredQuery(collectionID: "c")
            query.orderBy = orders[round % orders.count]
            let order = query.normalizedOrderBy
            let expected = docs.sorted { query.compare($0, $1, in: database, order: order) == .less }
            #expect(query.ordered(accepted: docs, in: database).documents.map(\.path) == expected.map(\.path))
        }
    }
}
