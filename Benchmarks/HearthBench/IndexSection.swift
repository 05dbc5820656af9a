import DocumentStore
import Foundation
import StoreWorkloads

/// Issue 13, in the store: `where bucket == 3 order by i desc limit 20` at 10,000 and (with
/// `--full`) 1,000,000 documents with the composite index `(bucket ASC, i DESC)` beside the
/// single-field plans alone; the cost of each extra composite index to a one-document write;
/// and, at 1,000,000 documents, defining the index (its build) and the first query after it.
struct IndexSection {
    /// Run settings.
    let options: BenchOptions
    /// Scratch directory of this run (the store workloads use their own temporary files).
    let scratch: URL
    /// Progress lines go here (stderr).
    let progress: @Sendable (String) -> Void

    /// Queries per size (the median is reported).
    static let repetitions = 20
    /// Composite index counts of the write-cost rows.
    static let indexCounts = [0, 1, 2, 4]

    /// Runs the section.
    func run() -> BenchTable {
        var table = BenchTable(
            title: "Issue 13 — composite index: bucket == 3 order by i desc limit 20, in the store", baselineName: "single-field only")
        table.emulatorName = "emulator"
        let none = Cell.unavailable("n/a (no store API)")
        var sizes = [10_000]
        if options.full { sizes.append(1_000_000) }
        var medians: [Int: Duration] = [:]
        for size in sizes {
            let label = size >= 1_000_000 ? "\(size / 1_000_000)M" : "\(size / 1000)k"
            progress("index: \(size) documents with the composite index")
            var with: StoreBenchmarks.BucketQueryFigures?
            do {
                with = try StoreBenchmarks.bucketQuery(documents: size, composite: true, repetitions: Self.repetitions)
            } catch {
                table.notes.append("composite at \(label): \(error)")
            }
            progress("index: \(size) documents with single-field indexes only")
            var without: StoreBenchmarks.BucketQueryFigures?
            do {
                without = try StoreBenchmarks.bucketQuery(
                    documents: size, composite: false, repetitions: size > 100_000 ? 5 : Self.repetitions)
            } catch {
                table.notes.append("single-field at \(label): \(error)")
            }
            func cell(_ f: StoreBenchmarks.BucketQueryFigures?, _ d: (StoreBenchmarks.BucketQueryFigures) -> Duration) -> Cell {
                f.map { .measured(.time(d($0))) } ?? .unavailable("failed")
            }
            table.rows.append(
                BenchRow(figure: "load \(label) docs", hearth: cell(with) { $0.load }, emulator: none, baseline: cell(without) { $0.load }))
            table.rows.append(
                BenchRow(
                    figure: "define the index at \(label) (build)", hearth: cell(with) { $0.define }, emulator: none,
                    baseline: .unavailable("n/a")))
            table.rows.append(
                BenchRow(
                    figure: "first query at \(label)", hearth: cell(with) { $0.firstQuery }, emulator: none,
                    baseline: cell(without) { $0.firstQuery }))
            table.rows.append(
                BenchRow(
                    figure: "define + first query at \(label)", hearth: cell(with) { $0.define + $0.firstQuery }, emulator: none,
                    baseline: cell(without) { $0.firstQuery }))
            table.rows.append(
                BenchRow(
                    figure: "query at \(label) (median)", hearth: cell(with) { $0.query }, emulator: none,
                    baseline: cell(without) { $0.query }))
            if let with {
                medians[size] = with.query
                table.notes.append(
                    "composite at \(label): \(with.returned) returned, \(with.statistics.indexEntriesScanned) index entries and \(with.statistics.documentsScanned) documents scanned; \(with.statistics.indexesUsed.map(\.properties).joined(separator: ", "))"
                )
                if with.returned != StoreBenchmarks.bucketQueryLimit {
                    table.notes.append("composite at \(label): returned \(with.returned), expected \(StoreBenchmarks.bucketQueryLimit)")
                }
            }
            if let without {
                table.notes.append(
                    "single-field at \(label): \(without.statistics.indexEntriesScanned) index entries and \(without.statistics.documentsScanned) documents scanned; \(without.statistics.indexesUsed.map(\.properties).joined(separator: ", "))"
                )
            }
        }
        if !options.full {
            table.rows.append(
                BenchRow(
                    figure: "query at 1M (median)", hearth: .unavailable("run with --full"), emulator: none,
                    baseline: .unavailable("run with --full")))
        }
        if let small = medians[10_000], let large = medians[1_000_000] {
            table.notes.append(
                "composite: query at 1M ÷ query at 10k = \(BenchTable.ratioText(large.milliseconds / small.milliseconds)) (issue 13 asks for ≤ 1.5×)."
            )
        }

        var zero: Duration?
        for (count, moves) in Self.indexCounts.map({ ($0, true) }) + [(Self.indexCounts.last ?? 4, false)] {
            let what = moves ? "" : ", indexed fields unchanged"
            progress("index: one-document commits with \(count) composite indexes\(what)")
            do {
                let f = try StoreBenchmarks.indexWriteCost(indexes: count, movesEntries: moves)
                if count == 0 { zero = f.medianCommit }
                table.rows.append(
                    BenchRow(
                        figure: "one-document commit, \(count) composite indexes\(what) (median)", hearth: .measured(.time(f.medianCommit)),
                        emulator: none, baseline: zero.map { .measured(.time($0)) } ?? .unavailable("failed")))
                table.notes.append(
                    "writes with \(count) composite indexes\(what): \(Int(f.commitsPerSecond)) commits/s over \(f.commits) commits")
            } catch {
                table.notes.append("writes with \(count) composite indexes\(what): \(error)")
            }
        }
        table.notes.append(
            "StoreBenchmarks.bucketQuery: 12-field documents (bucket = n % 10, i a permutation of n) loaded in commits of 100,000 (synchronous=NORMAL); with the composite, defineCompositeIndexes([(bucket ASC, i DESC)]) after the load; without, the first query builds the single-field index it wants. Each query on a fresh snapshot."
        )
        table.notes.append(
            "StoreBenchmarks.indexWriteCost: 10,000 documents, then 2,000 one-document commits replacing a stored document with new values of every indexed field (or, in the last row, of an unindexed one only) (synchronous=NORMAL); the baseline column is the 0-index figure."
        )
        return table
    }
}
