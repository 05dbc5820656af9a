import DocumentStore
import FirestoreModel
import Foundation

/// Measurements of the SQLite store, for the `hearth-bench` executable and the branch report.
///
/// Each function builds its own store in a temporary file (removed afterwards), with
/// deterministic 10-field documents, and returns wall-clock `Duration`s. Nothing here asserts;
/// quote ratios measured in one run (docs/STYLE.md principle 16).
public enum StoreBenchmarks {
    /// Figures of one range-query measurement.
    public struct RangeQueryFigures: Sendable, CustomStringConvertible {
        /// Documents in the collection.
        public var documents: Int
        /// Time to insert all of them (batches of `batchSize` per commit).
        public var load: Duration
        /// The first query, before any index on `n` exists: it builds the index (one pass over
        /// the collection, for the queries after it) and answers itself by a scan.
        public var firstQuery: Duration
        /// Median time of one query returning `returned` documents, on a fresh snapshot each time.
        public var query: Duration
        /// Documents the query returned.
        public var returned: Int
        /// Documents the query decoded (the rest of the collection was never read).
        public var decoded: Int

        /// One line, e.g. `1000000 docs: load 17 s, first query 9.2 s, query 1.0 ms (100 returned, 100 decoded)`.
        public var description: String {
            "\(documents) docs: load \(format(load)), first query \(format(firstQuery)), query \(format(query)) (\(returned) returned, \(decoded) decoded)"
        }
    }

    /// Figures of one bulk insert.
    public struct BulkInsertFigures: Sendable, CustomStringConvertible {
        /// Documents inserted in the one commit.
        public var documents: Int
        /// Fields with a built index during the insert.
        public var indexedFields: Int
        /// Duration of the commit.
        public var duration: Duration
        /// Size of the database file plus its WAL after the commit, in bytes.
        public var fileBytes: Int

        /// Documents per second of the commit.
        public var documentsPerSecond: Double {
            let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
            return seconds > 0 ? Double(documents) / seconds : 0
        }

        /// One line, e.g. `100000 docs, 10 indexed fields: 3.1 s (32000 docs/s), 84 MB`.
        public var description: String {
            "\(documents) docs, \(indexedFields) indexed fields: \(format(duration)) (\(Int(documentsPerSecond)) docs/s), \(fileBytes / 1_000_000) MB"
        }
    }

    /// The database every benchmark writes.
    static let database = DatabaseID(project: "bench")
    /// The collection every benchmark writes.
    static let collection = "items"
    /// Documents per commit when loading.
    public static let batchSize = 100_000

    /// A 10-field document: `n` (its number), a string, a bool, a double, a timestamp, a short
    /// array, a nested map, bytes, a reference and a small-cardinality `group` field.
    public static func document(_ n: Int) -> Document {
        let fields: FieldMap = [
            "n": .integer(Int64(n)),
            "name": .string("item-\(n)"),
            "even": .boolean(n % 2 == 0),
            "score": .double(Double(n % 1000) / 7.0),
            "at": .timestamp(Timestamp(seconds: 1_700_000_000 + Int64(n), nanos: Int32(n % 1000) * 1000)),
            "tags": .array([.string("t\(n % 10)"), .string("u\(n % 7)")]),
            "meta": .map(["owner": .string("user\(n % 100)"), "rank": .integer(Int64(n % 13))]),
            "blob": .bytes([UInt8(n & 0xFF), UInt8((n >> 8) & 0xFF)]),
            "parent": .reference("projects/bench/databases/(default)/documents/owners/o\(n % 50)"),
            "group": .integer(Int64(n % 16)),
        ]
        let t = Timestamp(seconds: 1_700_000_000, nanos: 0)
        return Document(path: ResourcePath([collection, String(format: "doc%08d", n)]), fields: fields, createTime: t, updateTime: t)
    }

    /// Inserts `documents` documents in one commit into a fresh store.
    /// - Parameter indexedFields: how many of the 10 fields have a built index beforehand
    ///   (10 = what indexing every field costs; 0 = the on-demand store before any query).
    /// - Returns: the commit's duration and the file size after it.
    /// - Throws: `FirestoreError` when the store fails.
    public static func bulkInsert(documents: Int, indexedFields: Int = 0, durability: SQLiteDocumentStore.Durability = .full)
        throws(FirestoreError) -> BulkInsertFigures
    {
        try withStore(durability: durability) { (store) throws(FirestoreError) in
            let names = ["n", "name", "even", "score", "at", "tags", "meta", "blob", "parent", "group"]
            for field in names.prefix(indexedFields) {
                try store.ensureIndex(SingleFieldIndex(collectionID: collection, field: FieldPath([field])), in: database)
            }
            let mutations = (0..<documents).map { Mutation.put(document($0)) }
            let duration = try measure { () throws(FirestoreError) in
                try store.commit(mutations, in: database, commitTime: Timestamp(seconds: 1, nanos: 0))
            }
            let bytes = ["", "-wal"].reduce(0) { total, suffix in
                let size = (try? FileManager.default.attributesOfItem(atPath: store.path + suffix)[.size]) as? Int
                return total + (size ?? 0)
            }
            return BulkInsertFigures(documents: documents, indexedFields: indexedFields, duration: duration, fileBytes: bytes)
        }
    }

    /// Median latency of `commits` one-document commits under `durability`.
    /// - Throws: `FirestoreError` when the store fails.
    public static func commitLatency(durability: SQLiteDocumentStore.Durability, commits: Int = 50) throws(FirestoreError) -> Duration {
        try withStore(durability: durability) { (store) throws(FirestoreError) in
            var times: [Duration] = []
            for i in 0..<commits {
                times.append(try measure { () throws(FirestoreError) in
                    try store.commit([.put(document(i))], in: database, commitTime: Timestamp(seconds: Int64(i + 1), nanos: 0))
                })
            }
            return median(times)
        }
    }

    /// Loads `documents` documents, then times `n >= k AND n < k + returning` queries.
    /// - Throws: `FirestoreError` when the store fails.
    public static func rangeQuery(documents: Int, returning: Int = 100, repetitions: Int = 20) throws(FirestoreError)
        -> RangeQueryFigures
    {
        try withStore(durability: .normal) { (store) throws(FirestoreError) in
            var start = 0
            let load = try measure { () throws(FirestoreError) in
                while start < documents {
                    let end = min(start + batchSize, documents)
                    try store.commit((start..<end).map { .put(document($0)) }, in: database, commitTime: Timestamp(seconds: Int64(end), nanos: 0))
                    start = end
                }
            }
            var times: [Duration] = []
            var returned = 0
            var decoded = 0
            var first = Duration.zero
            for r in -1..<repetitions {
                let low = Int64((documents - returning) / max(repetitions, 1) * max(r, 0))
                let query = StructuredQuery(
                    collectionID: collection,
                    filter: .composite(.and, [
                        .field(FieldPath(["n"]), .greaterThanOrEqual, .integer(low)),
                        .field(FieldPath(["n"]), .lessThan, .integer(low + Int64(returning))),
                    ]))
                let time = try measure { () throws(FirestoreError) in
                    let snapshot = try store.snapshot()
                    defer { snapshot.close() }
                    returned = try snapshot.runQuery(QueryTarget(parent: .root, query: query), in: database).documents.count
                    decoded = snapshot.decodedDocumentCount ?? -1
                }
                if r < 0 { first = time } else { times.append(time) }
            }
            return RangeQueryFigures(
                documents: documents, load: load, firstQuery: first, query: median(times), returned: returned, decoded: decoded)
        }
    }

    static func withStore<T>(
        durability: SQLiteDocumentStore.Durability, keepsVersions: Bool = true,
        _ body: (SQLiteDocumentStore) throws(FirestoreError) -> T
    ) throws(FirestoreError) -> T {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-bench-\(UUID().uuidString).sqlite").path
        let store = try SQLiteDocumentStore(path: file, durability: durability, keepsVersions: keepsVersions)
        defer {
            store.close()
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file + suffix) }
        }
        return try body(store)
    }

    static func measure(_ body: () throws(FirestoreError) -> Void) throws(FirestoreError) -> Duration {
        let clock = ContinuousClock()
        let start = clock.now
        try body()
        return clock.now - start
    }

    static func median(_ times: [Duration]) -> Duration {
        let sorted = times.sorted()
        return sorted.isEmpty ? .zero : sorted[sorted.count / 2]
    }
}

/// `1.23 s`, `4.56 ms` or `789 µs`.
func format(_ d: Duration) -> String {
    let seconds = Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    if seconds >= 1 { return String(format: "%.2f s", seconds) }
    if seconds >= 1e-3 { return String(format: "%.2f ms", seconds * 1e3) }
    return String(format: "%.0f µs", seconds * 1e6)
}
