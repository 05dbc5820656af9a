import DocumentStore
import FirestoreEngine
import FirestoreModel
import Foundation
import ShoutsWorkloads

/// Issue 4 (issue 14 item 5): `sendMessage` to 1,000 and 10,000 recipients among 100,000
/// presence documents, beside raw SQLite inserting the same feed rows in one transaction.
///
/// The Hearth figures come from `ShoutsWorkloads.ShoutsBenchmarks`.
struct FanOutSection {
    /// Run settings.
    let options: BenchOptions
    /// Scratch directory of this run.
    let scratch: URL
    /// Progress lines go here (stderr).
    let progress: @Sendable (String) -> Void

    /// Presence documents in the collection.
    static let presence = 100_000
    /// Recipient counts measured.
    static let recipients = [1_000, 10_000]
    /// Pause between the two sends of one sender: a little over the 5 s rate limit.
    static let rateLimitWait: Duration = .milliseconds(5_200)

    /// Runs the section.
    func run() async -> BenchTable {
        var table = BenchTable(title: "Issue 4 — sendMessage fan-out (100,000 presence documents)", baselineName: "raw SQLite")
        table.emulatorName = "emulator"
        for count in Self.recipients {
            let label = "sendMessage to \(count.formatted()) recipients"
            progress("fanout: \(label), first and second send")
            var cold = Cell.unavailable("failed")
            var warm = Cell.unavailable("failed")
            let dir = scratch.appendingPathComponent("fanout-\(count)")
            do {
                try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
                let store = try SQLiteDocumentStore(path: dir.appendingPathComponent("firestore.sqlite").path)
                let engine = try FirestoreEngine(store: store)
                defer { engine.close() }
                cold = .measured(.time(try await ShoutsBenchmarks.sendMessage(recipients: count, presence: Self.presence, engine: engine)))
                // The sender may send once per 5 s (docs/app/shouts-and-whispers.md §4 step 3).
                try await Task.sleep(for: Self.rateLimitWait)
                warm = .measured(.time(try await ShoutsBenchmarks.sendMessage(recipients: count, presence: Self.presence, engine: engine)))
            } catch {
                table.notes.append("Hearth \(label): \(error)")
            }
            try? FileManager.default.removeItem(at: dir)
            progress("fanout: raw SQLite, \(count + 1) feed rows")
            var raw = Cell.unavailable("failed")
            do {
                raw = .measured(.time(try rawFeedInsert(rows: count + 1)))
            } catch {
                table.notes.append("raw SQLite, \(count + 1) rows: \(error)")
            }
            let emulator = Cell.unavailable("n/a (Node functions not run)")
            table.rows.append(BenchRow(figure: "\(label), first send", hearth: cold, emulator: emulator, baseline: raw))
            table.rows.append(BenchRow(figure: "\(label), second send", hearth: warm, emulator: emulator, baseline: raw))
        }
        table.notes.append(
            "first send: on a fresh store; second send: same store, presence re-seeded, \(Int(Self.rateLimitWait.seconds)) s later (the sender's rate limit). The audience read needs no index (below), so the first send builds none.")
        table.notes.append(
            "Hearth: ShoutsBenchmarks.sendMessage — one in-process callable call on a SQLite store with synchronous=FULL (seeding the presence documents is not timed): an exclusive transaction (the sender's presence, the geohash bounds and the freshness filter as one RangeScan, the post-filter, the message and its audience record; one fsync), then the feed batches of ≤ 450 writes, each with its own commit time, stored in one transaction (one fsync), then the FCM outbox.")
        table.notes.append(
            "what bounds it: the shout's geohash bounds hold about 96,500 of the 100,000 presence documents, so the read is one pass over the collection's rows reading 5 fields of each (SQLite's stepping alone is about 35 ms; an index read would cost a point lookup per candidate, about 4× more); the 10,001 feed documents go through the engine's commit checks (validation, limits, the write's application over the state) and the store writes 4 B-trees per document (the row and the path, parent and collection-group indexes) where the raw table writes 2 — SQLite alone took 65–100 ms for those rows in one transaction on this machine.")
        table.notes.append(
            "raw SQLite: the same feed rows (recipients + the sender's own copy, 11 columns, primary key on the path) inserted in one transaction with synchronous=FULL into an empty table; no query, no index besides the key; the same figure beside both sends.")
        return table
    }

    /// Inserts `rows` feed rows shaped like `users/{uid}/feed/{messageId}` in one transaction.
    /// - Returns: the time from BEGIN to the end of COMMIT.
    /// - Throws: `BenchError` from SQLite.
    func rawFeedInsert(rows: Int) throws(BenchError) -> Duration {
        let db = try RawSQLite(path: scratch.appendingPathComponent("raw-feed-\(rows).sqlite").path, synchronous: "FULL")
        defer { db.closeAndRemove() }
        try db.exec(
            """
            CREATE TABLE feed(path TEXT PRIMARY KEY, message_id TEXT, sender_id TEXT, sender_name TEXT, sender_photo_url TEXT,
              text TEXT, kind TEXT, lat REAL, lng REAL, sent_at INTEGER, distance_m REAL, is_own INTEGER)
            """)
        let insert = try db.prepare("INSERT INTO feed VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        defer { insert.finalize() }
        let clock = ContinuousClock()
        let start = clock.now
        try db.exec("BEGIN")
        for i in 0..<rows {
            insert.bind(1, "users/bench-user-\(i)/feed/msg-0001")
            insert.bind(2, "msg-0001")
            insert.bind(3, "bench-sender")
            insert.bind(4, "Bench")
            insert.bind(5, "https://example.com/photo.png")
            insert.bind(6, "benchmark shout")
            insert.bind(7, "shout")
            insert.bind(8, 37.7749)
            insert.bind(9, -122.4194)
            insert.bind(10, Int64(1_767_268_800_123_456))
            insert.bind(11, Double(i % 1500))
            insert.bind(12, Int64(i == 0 ? 1 : 0))
            _ = try insert.step()
            insert.reset()
        }
        try db.exec("COMMIT")
        return clock.now - start
    }
}
