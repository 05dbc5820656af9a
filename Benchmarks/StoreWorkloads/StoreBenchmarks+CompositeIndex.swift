import DocumentStore
import FirestoreModel
import Foundation

/// Issue 13 in the store: `where bucket == 3 order by i desc limit 20` with and without the
/// composite index `(bucket ASC, i DESC)`, what each extra composite index costs a write, and
/// what defining an index over a loaded collection costs (the build).
extension StoreBenchmarks {
    /// Buckets of `bucketDocument`: `bucket == 3` matches a tenth of the collection.
    public static let buckets = 10
    /// The bucket the benchmark query pins.
    public static let queriedBucket: Int64 = 3
    /// The benchmark query's limit.
    public static let bucketQueryLimit = 20

    /// The index that serves the benchmark query: `(bucket ASC, i DESC, __name__ DESC)`.
    public static let bucketIndex = CompositeIndex(
        collectionGroup: collection, fields: [IndexField(FieldPath(["bucket"]), .ascending), IndexField(FieldPath(["i"]), .descending)])

    /// Composite indexes on the benchmark collection, `bucketIndex` first, for the write-cost figures.
    public static let writeCostIndexes: [CompositeIndex] = [
        bucketIndex,
        CompositeIndex(
            collectionGroup: collection,
            fields: [IndexField(FieldPath(["group"]), .ascending), IndexField(FieldPath(["score"]), .descending)]),
        CompositeIndex(
            collectionGroup: collection,
            fields: [IndexField(FieldPath(["tags"]), .arrayContains), IndexField(FieldPath(["i"]), .ascending)]),
        CompositeIndex(
            collectionGroup: collection, fields: [IndexField(FieldPath(["even"]), .ascending), IndexField(FieldPath(["at"]), .descending)]),
    ]

    /// `document(n)` plus `bucket` (`n % buckets`) and `i` (a permutation of `0..<documents`
    /// that scatters the order across buckets and names).
    public static func bucketDocument(_ n: Int, documents: Int) -> Document {
        var d = document(n)
        d.fields["bucket"] = .integer(Int64(n % buckets))
        d.fields["i"] = .integer(Int64((n &* 7_919) % max(documents, 1)))
        return d
    }

    /// The benchmark query: `where bucket == 3 order by i desc limit 20` on the collection.
    public static var bucketQuery: QueryTarget {
        QueryTarget(
            parent: .root,
            query: StructuredQuery(
                collectionID: collection, filter: .field(FieldPath(["bucket"]), .equal, .integer(queriedBucket)),
                orderBy: [Order(FieldPath(["i"]), .descending)], limit: bucketQueryLimit))
    }

    /// Loads `documents` `bucketDocument`s into `store` in commits of `batchSize`.
    /// - Returns: how long the load took.
    /// - Throws: `FirestoreError` when the store fails.
    public static func seedBuckets(_ store: any DocumentStore, documents: Int) throws(FirestoreError) -> Duration {
        try measure { () throws(FirestoreError) in
            var start = 0
            while start < documents {
                let end = min(start + batchSize, documents)
                try store.commit(
                    (start..<end).map { .put(bucketDocument($0, documents: documents)) }, in: database,
                    commitTime: Timestamp(seconds: Int64(end), nanos: 0))
                start = end
            }
        }
    }

    /// Figures of the benchmark query over one collection size.
    public struct BucketQueryFigures: Sendable, CustomStringConvertible {
        /// Documents in the collection.
        public var documents: Int
        /// True when the composite index was defined.
        public var composite: Bool
        /// Time to insert them.
        public var load: Duration
        /// `defineCompositeIndexes` over the loaded collection (the build); zero without the index.
        public var define: Duration
        /// The first query after the load (and definition): without the composite it builds
        /// the single-field index it wants and scans.
        public var firstQuery: Duration
        /// Median of the following queries, each on a fresh snapshot.
        public var query: Duration
        /// Documents returned by the last query.
        public var returned: Int
        /// Statistics of the last query.
        public var statistics: QueryStatistics

        /// One line, e.g. `10000 docs, composite: load 0.2 s, define 30 ms, first query 0.3 ms, query 0.2 ms (20 returned, 20 entries, 20 decoded)`.
        public var description: String {
            "\(documents) docs, \(composite ? "composite" : "single-field only"): load \(format(load)), define \(format(define)), first query \(format(firstQuery)), query \(format(query)) (\(returned) returned, \(statistics.indexEntriesScanned) entries, \(statistics.documentsScanned) decoded)"
        }
    }

    /// Loads `documents` documents, optionally defines `bucketIndex`, then times the benchmark
    /// query `repetitions + 1` times (the first reported apart).
    /// - Throws: `FirestoreError` when the store fails.
    public static func bucketQuery(documents: Int, composite: Bool, repetitions: Int = 20) throws(FirestoreError) -> BucketQueryFigures {
        try withStore(durability: .normal) { (store) throws(FirestoreError) in
            let load = try seedBuckets(store, documents: documents)
            let define =
                composite
                ? try measure { () throws(FirestoreError) in try store.defineCompositeIndexes([bucketIndex], project: database.project) }
                : .zero
            var times: [Duration] = []
            var first = Duration.zero
            var returned = 0
            var statistics = QueryStatistics()
            for r in -1..<repetitions {
                let time = try measure { () throws(FirestoreError) in
                    let snapshot = try store.snapshot()
                    defer { snapshot.close() }
                    returned = try snapshot.runQuery(bucketQuery, in: database, statistics: &statistics).documents.count
                }
                if r < 0 { first = time } else { times.append(time) }
            }
            return BucketQueryFigures(
                documents: documents, composite: composite, load: load, define: define, firstQuery: first, query: median(times),
                returned: returned, statistics: statistics)
        }
    }

    /// Figures of single-document writes with some composite indexes on the collection.
    public struct IndexWriteFigures: Sendable, CustomStringConvertible {
        /// Composite indexes defined on the collection.
        public var indexes: Int
        /// True when each write changed the indexed fields (every index's entries move).
        public var movesEntries: Bool
        /// Commits measured.
        public var commits: Int
        /// Median time of one commit.
        public var medianCommit: Duration
        /// Commits per second over the whole run.
        public var commitsPerSecond: Double

        /// One line, e.g. `2 composite indexes: 0.06 ms per commit (15000 commits/s)`.
        public var description: String {
            "\(indexes) composite indexes\(movesEntries ? "" : ", indexed fields unchanged"): \(format(medianCommit)) per commit (\(Int(commitsPerSecond)) commits/s)"
        }
    }

    /// Loads `documents` documents, defines the first `indexes` of `writeCostIndexes`, then
    /// times `commits` one-document commits that each replace a stored document with new
    /// `bucket`, `i`, `score`, `tags` and `at` values (every index's entries move) or, unless
    /// `movesEntries`, with a new `name` only (no indexed field changes), under
    /// `synchronous=NORMAL` so the disk flush does not hide the index work.
    /// - Throws: `FirestoreError` when the store fails.
    public static func indexWriteCost(indexes: Int, movesEntries: Bool = true, documents: Int = 10_000, commits: Int = 2_000)
        throws(FirestoreError) -> IndexWriteFigures
    {
        try withStore(durability: .normal) { (store) throws(FirestoreError) in
            _ = try seedBuckets(store, documents: documents)
            try store.defineCompositeIndexes(Array(writeCostIndexes.prefix(indexes)), project: database.project)
            var times: [Duration] = []
            times.reserveCapacity(commits)
            let total = try measure { () throws(FirestoreError) in
                for c in 0..<commits {
                    var d = bucketDocument((c &* 104_729) % documents, documents: documents)
                    if movesEntries {
                        d.fields["bucket"] = .integer(Int64((c + 1) % buckets))
                        d.fields["i"] = .integer(Int64(documents + c))
                        d.fields["score"] = .double(Double(c) / 3)
                        d.fields["tags"] = .array([.string("t\(c % 10)"), .string("w\(c % 3)")])
                        d.fields["at"] = .timestamp(Timestamp(seconds: 1_800_000_000 + Int64(c), nanos: 0))
                    } else {
                        d.fields["name"] = .string("renamed-\(c)")
                    }
                    d.updateTime = Timestamp(seconds: Int64(documents + c + 1), nanos: 0)
                    let mutation = Mutation.put(d)
                    let commitTime = d.updateTime
                    times.append(
                        try measure { () throws(FirestoreError) in
                            try store.commit([mutation], in: database, commitTime: commitTime)
                        })
                }
            }
            return IndexWriteFigures(
                indexes: indexes, movesEntries: movesEntries, commits: commits, medianCommit: median(times),
                commitsPerSecond: Double(commits) / max(total.seconds, 1e-9))
        }
    }
}
