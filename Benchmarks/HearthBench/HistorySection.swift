import DocumentStore
import Foundation
import StoreWorkloads

/// Issue 10: what keeping every document version costs (writes and file size, with history
/// vs `--version-retention 0`), a point-in-time query beside the same query on the latest
/// state, and whether bulk writes slow down as the database grows. Hearth's SQLite store in
/// process beside raw SQLite doing the same row work.
struct HistorySection {
    /// Run settings.
    let options: BenchOptions
    /// Scratch directory of this run.
    let scratch: URL
    /// Progress lines go here (stderr).
    let progress: @Sendable (String) -> Void

    /// Documents the update runs replace, per round.
    static let updatedDocuments = 10_000
    /// Rounds of replacing all of them.
    static let rounds = 3
    /// Documents per commit in the write runs.
    static let perCommit = 100
    /// New documents inserted into the grown stores.
    static let inserted = 10_000

    /// Runs the section.
    func run() -> BenchTable {
        var table = BenchTable(title: "Issue 10 — version history and writes as the database grows", baselineName: "raw SQLite")
        table.emulatorName = "emulator"
        let none = Cell.unavailable("n/a (no store API)")
        let updates = Self.updatedDocuments * Self.rounds

        progress("history: \(updates) replacements with and without version history")
        var with: StoreBenchmarks.UpdateFigures?
        var without: StoreBenchmarks.UpdateFigures?
        do {
            with = try StoreBenchmarks.updates(
                documents: Self.updatedDocuments, rounds: Self.rounds, perCommit: Self.perCommit, keepsVersions: true)
            without = try StoreBenchmarks.updates(
                documents: Self.updatedDocuments, rounds: Self.rounds, perCommit: Self.perCommit, keepsVersions: false)
        } catch {
            table.notes.append("update runs: \(error)")
        }
        progress("history: 2,000 one-document commits (synchronous=FULL) with and without version history")
        var fullWith: StoreBenchmarks.UpdateFigures?
        var fullWithout: StoreBenchmarks.UpdateFigures?
        do {
            fullWith = try StoreBenchmarks.updates(documents: 1000, rounds: 2, perCommit: 1, keepsVersions: true, durability: .full)
            fullWithout = try StoreBenchmarks.updates(documents: 1000, rounds: 2, perCommit: 1, keepsVersions: false, durability: .full)
        } catch {
            table.notes.append("one-document commits: \(error)")
        }
        let raw = try? rawUpdates()
        table.rows.append(
            BenchRow(
                figure: "replace 10k docs ×\(Self.rounds), \(Self.perCommit)/commit, with history", hearth: rate(with), emulator: none,
                baseline: raw.map { .measured(Figure(value: Double(updates) / max($0.duration.seconds, 1e-9), unit: .documentsPerSecond)) }
                    ?? .unavailable("failed")))
        table.rows.append(
            BenchRow(figure: "same, --version-retention 0 (no history)", hearth: rate(without), emulator: none, baseline: .unavailable("—")))
        table.rows.append(
            BenchRow(
                figure: "file after the replacements, with history", hearth: size(with?.fileBytes), emulator: none,
                baseline: size(raw?.fileBytes)))
        table.rows.append(
            BenchRow(figure: "file after the replacements, no history", hearth: size(without?.fileBytes), emulator: none, baseline: .unavailable("—")))
        table.rows.append(
            BenchRow(figure: "replace 1k docs ×2, 1/commit, fsync each, with history", hearth: rate(fullWith), emulator: none, baseline: .unavailable("—")))
        table.rows.append(
            BenchRow(figure: "same, --version-retention 0 (no history)", hearth: rate(fullWithout), emulator: none, baseline: .unavailable("—")))
        if let fullWith, let fullWithout {
            table.notes.append(
                "one-document commits with an fsync each (what a client's Commit costs): history costs \(BenchTable.ratioText(fullWithout.updatesPerSecond / fullWith.updatesPerSecond)).")
        }
        if let with, let without {
            table.notes.append(
                "history costs \(BenchTable.ratioText(without.updatesPerSecond / with.updatesPerSecond)) in replacement throughput (no history ÷ with; goal ≤ 1.20×) and \(BenchTable.ratioText(Double(with.fileBytes) / Double(max(without.fileBytes, 1)))) in file size (\(Self.rounds) superseded versions of every document kept).")
        }

        var sizes = [100_000]
        if options.full { sizes.append(1_000_000) }
        for size in sizes {
            let label = size >= 1_000_000 ? "\(size / 1_000_000)M" : "\(size / 1000)k"
            progress("history: point-in-time query at \(label) documents")
            do {
                let f = try StoreBenchmarks.pointInTimeQuery(documents: size, churn: 1000)
                table.rows.append(BenchRow(figure: "range query (100 docs) at \(label), latest state", hearth: .measured(.time(f.latest)), emulator: none, baseline: .unavailable("—")))
                table.rows.append(
                    BenchRow(
                        figure: "same query at a read time before 1,000 replacements", hearth: .measured(.time(f.pointInTime)), emulator: none,
                        baseline: .unavailable("—")))
                table.notes.append(
                    "at \(label): point-in-time ÷ latest = \(BenchTable.ratioText(f.pointInTime.milliseconds / max(f.latest.milliseconds, 1e-9))) (\(f.returned) returned at the read time).")
            } catch {
                table.notes.append("point-in-time query at \(label): \(error)")
            }
        }

        let grown = options.full ? 1_000_000 : 100_000
        var insertRates: [Int: Double] = [:]
        for existing in [10_000, grown] {
            let label = existing >= 1_000_000 ? "\(existing / 1_000_000)M" : "\(existing / 1000)k"
            progress("history: insert \(Self.inserted) into \(label) documents")
            var h = Cell.unavailable("failed")
            do {
                let d = try StoreBenchmarks.insertIntoGrownStore(existing: existing, inserted: Self.inserted, perCommit: Self.perCommit)
                let r = Double(Self.inserted) / max(d.seconds, 1e-9)
                insertRates[existing] = r
                h = .measured(Figure(value: r, unit: .documentsPerSecond))
            } catch {
                table.notes.append("insert into \(label): \(error)")
            }
            let b = (try? rawInsert(existing: existing)).map {
                Cell.measured(Figure(value: Double(Self.inserted) / max($0.seconds, 1e-9), unit: .documentsPerSecond))
            } ?? .unavailable("failed")
            table.rows.append(BenchRow(figure: "insert 10k new docs into \(label), \(Self.perCommit)/commit", hearth: h, emulator: none, baseline: b))
        }
        if let small = insertRates[10_000], let large = insertRates[grown] {
            table.notes.append(
                "bulk writes at \(grown >= 1_000_000 ? "1M" : "100k") ÷ at 10k documents: \(BenchTable.ratioText(small / large)) slower (goal ≤ 1.50×; run with --full for 1M).")
        }
        table.notes.append(
            "Hearth: StoreBenchmarks (SQLite, synchronous=NORMAL, 10-field documents, the index on n built); raw SQLite: rows (id TEXT PRIMARY KEY, n INTEGER indexed, body BLOB of 400 bytes) with the same commits.")
        return table
    }

    private func rate(_ f: StoreBenchmarks.UpdateFigures?) -> Cell {
        f.map { .measured(Figure(value: $0.updatesPerSecond, unit: .documentsPerSecond)) } ?? .unavailable("failed")
    }

    private func size(_ bytes: Int?) -> Cell {
        bytes.map { .measured(Figure(value: Double($0) / 1_048_576, unit: .mebibytes)) } ?? .unavailable("failed")
    }

    /// Raw SQLite: the same number of row replacements in the same commits.
    private func rawUpdates() throws(BenchError) -> (duration: Duration, fileBytes: Int) {
        let db = try RawSQLite(path: scratch.appendingPathComponent("raw-updates.sqlite").path, synchronous: "NORMAL")
        defer { db.closeAndRemove() }
        try db.exec("CREATE TABLE items(id TEXT PRIMARY KEY, n INTEGER NOT NULL, body BLOB NOT NULL); CREATE INDEX items_n ON items(n);")
        try fill(db, from: 0, count: Self.updatedDocuments, perCommit: 100_000)
        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<Self.rounds { try fill(db, from: 0, count: Self.updatedDocuments, perCommit: Self.perCommit) }
        let duration = clock.now - start
        let bytes = ["", "-wal"].reduce(0) { total, suffix in
            total + (((try? FileManager.default.attributesOfItem(atPath: db.path + suffix)[.size]) as? Int) ?? 0)
        }
        return (duration, bytes)
    }

    /// Raw SQLite: insert `inserted` new rows into a table of `existing`.
    private func rawInsert(existing: Int) throws(BenchError) -> Duration {
        let db = try RawSQLite(path: scratch.appendingPathComponent("raw-grown-\(existing).sqlite").path, synchronous: "NORMAL")
        defer { db.closeAndRemove() }
        try db.exec("CREATE TABLE items(id TEXT PRIMARY KEY, n INTEGER NOT NULL, body BLOB NOT NULL); CREATE INDEX items_n ON items(n);")
        try fill(db, from: 0, count: existing, perCommit: 100_000)
        let clock = ContinuousClock()
        let start = clock.now
        try fill(db, from: existing, count: Self.inserted, perCommit: Self.perCommit, scatter: existing + Self.inserted)
        return clock.now - start
    }

    /// `INSERT OR REPLACE` of rows `from..<from+count` in commits of `perCommit`; with
    /// `scatter`, ids are spread over the key space as `insertIntoGrownStore` spreads them.
    private func fill(_ db: RawSQLite, from: Int, count: Int, perCommit: Int, scatter: Int? = nil) throws(BenchError) {
        let insert = try db.prepare("INSERT OR REPLACE INTO items(id, n, body) VALUES (?, ?, ?)")
        defer { insert.finalize() }
        var body = [UInt8](repeating: 0, count: 400)
        var start = from
        while start < from + count {
            let end = min(start + perCommit, from + count)
            try db.exec("BEGIN")
            for n in start..<end {
                body[0] = UInt8(n & 0xFF)
                let id = scatter.map { String(format: "doc%08d-new", (n &* 7919) % $0) } ?? String(format: "doc%08d", n)
                insert.bind(1, id)
                insert.bind(2, Int64(n))
                insert.bind(3, body)
                _ = try insert.step()
                insert.reset()
            }
            try db.exec("COMMIT")
            start = end
        }
    }
}
