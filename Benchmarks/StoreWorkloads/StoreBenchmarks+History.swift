import DocumentStore
import FirestoreModel
import Foundation

/// Measurements of version history (point-in-time reads), for `hearth-bench`'s `history`
/// section. Same conventions as `StoreBenchmarks`: own temporary store, wall-clock durations,
/// nothing asserted.
extension StoreBenchmarks {
    /// Figures of one update run.
    public struct UpdateFigures: Sendable {
        /// Documents replaced in all.
        public var updates: Int
        /// Wall time of the update commits.
        public var duration: Duration
        /// Database file plus WAL after the run, in bytes.
        public var fileBytes: Int
        /// Replacements per second.
        public var updatesPerSecond: Double { Double(updates) / max(duration.seconds, 1e-9) }
    }

    /// Loads `documents` documents, then replaces `rounds` × `documents` of them in commits of
    /// `perCommit` (each replacement ends a version), with or without version history.
    /// - Throws: `FirestoreError` when the store fails.
    public static func updates(
        documents: Int, rounds: Int, perCommit: Int, keepsVersions: Bool, durability: SQLiteDocumentStore.Durability = .normal
    ) throws(FirestoreError) -> UpdateFigures {
        try withStore(durability: durability, keepsVersions: keepsVersions) { (store) throws(FirestoreError) in
            var time: Int64 = 1_700_000_000
            try load(documents, into: store, time: &time)
            let duration = try measure { () throws(FirestoreError) in
                for round in 1...max(rounds, 1) {
                    var start = 0
                    while start < documents {
                        time += 1
                        let end = min(start + perCommit, documents)
                        let t = Timestamp(seconds: time, nanos: 0)
                        let changed = (start..<end).map { n -> Mutation in
                            var d = document(n)
                            d.fields["round"] = .integer(Int64(round))
                            d.updateTime = t
                            return .put(d)
                        }
                        try store.commit(changed, in: database, commitTime: t)
                        start = end
                    }
                }
            }
            return UpdateFigures(updates: documents * max(rounds, 1), duration: duration, fileBytes: fileBytes(store))
        }
    }

    /// Median times of the same range query (`n` in a window of `returning`) on the latest
    /// state and at a read time before `churn` of the documents were replaced.
    public struct PointInTimeFigures: Sendable {
        /// Documents in the collection.
        public var documents: Int
        /// Documents replaced after the read time (their old versions are archived).
        public var churn: Int
        /// Median of the query on the latest state.
        public var latest: Duration
        /// Median of the query at the read time.
        public var pointInTime: Duration
        /// Documents the point-in-time query returned.
        public var returned: Int
    }

    /// Loads `documents`, builds the index on `n`, replaces `churn` documents spread over the
    /// collection, then times the query on the latest state and at the read time before the churn.
    /// - Throws: `FirestoreError` when the store fails.
    public static func pointInTimeQuery(documents: Int, churn: Int, returning: Int = 100, repetitions: Int = 20)
        throws(FirestoreError) -> PointInTimeFigures
    {
        try withStore(durability: .normal, keepsVersions: true) { (store) throws(FirestoreError) in
            var time: Int64 = 1_700_000_000
            try load(documents, into: store, time: &time)
            try store.ensureIndex(SingleFieldIndex(collectionID: collection, field: FieldPath(["n"])), in: database)
            let readTime = Timestamp(seconds: time, nanos: 0)
            time += 1
            let t = Timestamp(seconds: time, nanos: 0)
            let step = max(documents / max(churn, 1), 1)
            let changed = stride(from: 0, to: documents, by: step).prefix(churn).map { n -> Mutation in
                var d = document(n)
                d.fields["n"] = .integer(Int64(n) + 1)
                d.updateTime = t
                return .put(d)
            }
            try store.commit(Array(changed), in: database, commitTime: t)
            var latest: [Duration] = []
            var past: [Duration] = []
            var returned = 0
            for r in 0..<repetitions {
                let low = Int64((documents - returning) / max(repetitions, 1) * r)
                let target = QueryTarget(
                    parent: .root,
                    query: StructuredQuery(
                        collectionID: collection,
                        filter: .composite(.and, [
                            .field(FieldPath(["n"]), .greaterThanOrEqual, .integer(low)),
                            .field(FieldPath(["n"]), .lessThan, .integer(low + Int64(returning))),
                        ])))
                latest.append(try measure { () throws(FirestoreError) in
                    let s = try store.snapshot()
                    defer { s.close() }
                    _ = try s.runQuery(target, in: database)
                })
                past.append(try measure { () throws(FirestoreError) in
                    let s = try store.snapshot(at: readTime)
                    defer { s.close() }
                    returned = try s.runQuery(target, in: database).documents.count
                })
            }
            return PointInTimeFigures(
                documents: documents, churn: churn, latest: median(latest), pointInTime: median(past), returned: returned)
        }
    }

    /// Time to insert `inserted` new documents in commits of `perCommit` into a store that
    /// already holds `existing` (with the index on `n` built), to see whether writes slow as
    /// the database grows.
    /// - Throws: `FirestoreError` when the store fails.
    public static func insertIntoGrownStore(existing: Int, inserted: Int, perCommit: Int) throws(FirestoreError) -> Duration {
        try withStore(durability: .normal, keepsVersions: true) { (store) throws(FirestoreError) in
            var time: Int64 = 1_700_000_000
            try store.ensureIndex(SingleFieldIndex(collectionID: collection, field: FieldPath(["n"])), in: database)
            try load(existing, into: store, time: &time)
            return try measure { () throws(FirestoreError) in
                var start = existing
                while start < existing + inserted {
                    time += 1
                    let end = min(start + perCommit, existing + inserted)
                    // Interleaved names: new documents land all over the key space, as auto-ids do.
                    let batch = (start..<end).map { n -> Mutation in
                        var d = document(n)
                        d.createTime = Timestamp(seconds: time, nanos: 0)
                        d.updateTime = d.createTime
                        d.path = ResourcePath([collection, String(format: "doc%08d-new", (n &* 7919) % max(existing + inserted, 1))])
                        return .put(d)
                    }
                    try store.commit(batch, in: database, commitTime: Timestamp(seconds: time, nanos: 0))
                    start = end
                }
            }
        }
    }

    private static func load(_ documents: Int, into store: SQLiteDocumentStore, time: inout Int64) throws(FirestoreError) {
        var start = 0
        while start < documents {
            let end = min(start + batchSize, documents)
            time += 1
            let t = Timestamp(seconds: time, nanos: 0)
            let batch = (start..<end).map { n -> Mutation in
                var d = document(n)
                d.createTime = t
                d.updateTime = t
                return .put(d)
            }
            try store.commit(batch, in: database, commitTime: t)
            start = end
        }
    }

    static func fileBytes(_ store: SQLiteDocumentStore) -> Int {
        ["", "-wal"].reduce(0) { total, suffix in
            let size = (try? FileManager.default.attributesOfItem(atPath: store.path + suffix)[.size]) as? Int
            return total + (size ?? 0)
        }
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
