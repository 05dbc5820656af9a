import DocumentStore
import Foundation
import StoreWorkloads

/// Issue 2, in the store: a one-field range query returning 100 documents at 10,000 and (with
/// `--full`) 1,000,000 documents, Hearth's SQLite store beside raw SQLite holding the same
/// number of rows under a plain B-tree index on the field.
struct RangeQuerySection {
    /// Run settings.
    let options: BenchOptions
    /// Scratch directory of this run.
    let scratch: URL
    /// Progress lines go here (stderr).
    let progress: @Sendable (String) -> Void

    /// Documents the query returns.
    static let returning = 100
    /// Queries per size (the median is reported).
    static let repetitions = 20

    /// Runs the section.
    func run() -> BenchTable {
        var table = BenchTable(title: "Issue 2 — one-field range query in the store (100 documents returned)", baselineName: "raw SQLite")
        table.emulatorName = "emulator"
        var sizes = [10_000]
        if options.full { sizes.append(1_000_000) }
        var medians: [Int: (hearth: Duration?, raw: Duration?)] = [:]
        for size in sizes {
            let label = size >= 1_000_000 ? "\(size / 1_000_000)M" : "\(size / 1000)k"
            progress("query: Hearth store, \(size) documents")
            var h: [Cell] = [.unavailable("failed"), .unavailable("failed"), .unavailable("failed")]
            do {
                let f = try StoreBenchmarks.rangeQuery(documents: size, returning: Self.returning, repetitions: Self.repetitions)
                h = [.measured(.time(f.load)), .measured(.time(f.firstQuery)), .measured(.time(f.query))]
                medians[size, default: (nil, nil)].hearth = f.query
                if f.returned != Self.returning || f.decoded != Self.returning {
                    table.notes.append("Hearth at \(label): returned \(f.returned), decoded \(f.decoded) (expected \(Self.returning) each)")
                }
            } catch {
                table.notes.append("Hearth store at \(label): \(error)")
            }
            progress("query: raw SQLite, \(size) rows")
            var r: [Cell] = [.unavailable("failed"), .unavailable("failed"), .unavailable("failed")]
            do {
                let f = try rawRangeQuery(rows: size)
                r = [.measured(.time(f.load)), .measured(.time(f.first)), .measured(.time(f.median))]
                medians[size, default: (nil, nil)].raw = f.median
            } catch {
                table.notes.append("raw SQLite at \(label): \(error)")
            }
            let e = Cell.unavailable("n/a (no store API)")
            table.rows.append(BenchRow(figure: "load \(label) docs", hearth: h[0], emulator: e, baseline: r[0]))
            table.rows.append(BenchRow(figure: "first query at \(label)", hearth: h[1], emulator: e, baseline: r[1]))
            table.rows.append(BenchRow(figure: "load + first query at \(label)", hearth: Self.sum(h[0], h[1]), emulator: e, baseline: Self.sum(r[0], r[1])))
            table.rows.append(BenchRow(figure: "query at \(label) (median of \(Self.repetitions))", hearth: h[2], emulator: e, baseline: r[2]))
        }
        if !options.full {
            table.rows.append(
                BenchRow(figure: "query at 1M (median)", hearth: .unavailable("run with --full"), emulator: .unavailable("n/a (no store API)"), baseline: .unavailable("run with --full")))
        }
        if let small = medians[10_000], let large = medians[1_000_000] {
            if let a = small.hearth, let b = large.hearth {
                table.notes.append("Hearth: query at 1M ÷ query at 10k = \(BenchTable.ratioText(b.milliseconds / a.milliseconds)) (1.00× = independent of collection size).")
            }
            if let a = small.raw, let b = large.raw {
                table.notes.append("raw SQLite: query at 1M ÷ query at 10k = \(BenchTable.ratioText(b.milliseconds / a.milliseconds)).")
            }
        }
        table.notes.append(
            "Hearth: StoreBenchmarks.rangeQuery — 10-field documents loaded in commits of 100,000 (synchronous=NORMAL), no index until the first query builds it; each query on a fresh snapshot.")
        table.notes.append(
            "raw SQLite: rows (id TEXT PRIMARY KEY, n INTEGER, body BLOB of 400 bytes) with an index on n created before the load (so its load includes the index and its first query does not), same batches and pragmas; the query reads id and body of 100 rows without decoding them.")
        table.notes.append("the emulator has no in-process store; its RunQuery over 10k documents is in the REST table.")
        return table
    }

    /// The sum of two time cells, or the first failure.
    static func sum(_ a: Cell, _ b: Cell) -> Cell {
        guard let x = a.figure, let y = b.figure else { return a.figure == nil ? a : b }
        return .measured(Figure(value: x.value + y.value, unit: x.unit))
    }

    /// Load time, first-query time and median query time of the raw SQLite baseline.
    private func rawRangeQuery(rows: Int) throws(BenchError) -> (load: Duration, first: Duration, median: Duration) {
        let db = try RawSQLite(path: scratch.appendingPathComponent("raw-range-\(rows).sqlite").path, synchronous: "NORMAL")
        defer { db.closeAndRemove() }
        try db.exec("CREATE TABLE items(id TEXT PRIMARY KEY, n INTEGER NOT NULL, body BLOB NOT NULL); CREATE INDEX items_n ON items(n);")
        let clock = ContinuousClock()
        let insert = try db.prepare("INSERT INTO items(id, n, body) VALUES (?, ?, ?)")
        defer { insert.finalize() }
        var body = [UInt8](repeating: 0, count: 400)
        let loadStart = clock.now
        var start = 0
        while start < rows {
            let end = min(start + StoreBenchmarks.batchSize, rows)
            try db.exec("BEGIN")
            for n in start..<end {
                body[0] = UInt8(n & 0xFF)
                body[1] = UInt8((n >> 8) & 0xFF)
                insert.bind(1, String(format: "doc%08d", n))
                insert.bind(2, Int64(n))
                insert.bind(3, body)
                _ = try insert.step()
                insert.reset()
            }
            try db.exec("COMMIT")
            start = end
        }
        let load = clock.now - loadStart
        let query = try db.prepare("SELECT id, body FROM items WHERE n >= ? AND n < ? ORDER BY n")
        defer { query.finalize() }
        var times: [Duration] = []
        var first = Duration.zero
        for r in -1..<Self.repetitions {
            let low = Int64((rows - Self.returning) / Self.repetitions * max(r, 0))
            let t0 = clock.now
            query.bind(1, low)
            query.bind(2, low + Int64(Self.returning))
            var read = 0
            var bytes = 0
            while try query.step() {
                bytes += query.text(0).utf8.count + query.blob(1).count
                read += 1
            }
            query.reset()
            let t = clock.now - t0
            guard read == Self.returning, bytes > 0 else { throw .badResponse("raw query read \(read) rows") }
            if r < 0 { first = t } else { times.append(t) }
        }
        times.sort()
        return (load, first, times[times.count / 2])
    }
}
