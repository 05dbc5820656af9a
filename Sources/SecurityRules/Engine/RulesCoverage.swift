import FoundationEssentials
import Synchronization

/// Per-expression evaluation counts of a ruleset, shared by every decision.
///
/// Each expression has four counters: evaluations, `true` results, `false` results, errors.
/// Exported as JSON and as an HTML page of the source (the emulator's `:ruleCoverage` and
/// `:ruleCoverage.html`, docs/reference/firestore-wire.md §2.1).
final class RulesCoverage: Sendable {
    private let counts: Mutex<[Int64]>

    /// Creates zeroed counters for `count` expressions.
    init(count: Int) { counts = Mutex([Int64](repeating: 0, count: count * 4)) }

    /// Adds one decision's local counters.
    func merge(_ local: [Int32]) {
        counts.withLock { counts in
            for i in 0..<min(local.count, counts.count) where local[i] != 0 { counts[i] += Int64(local[i]) }
        }
    }

    /// A copy of the counters.
    func snapshot() -> [Int64] {
        counts.withLock { $0 }
    }

    /// Zeroes every counter.
    func reset() {
        counts.withLock { counts in
            for i in counts.indices { counts[i] = 0 }
        }
    }
}

/// Coverage export.
extension Ruleset {
    /// One expression's coverage record in the JSON report.
    struct CoverageEntry: Codable {
        /// Expression id.
        var id: Int
        /// Where the expression starts.
        var line: Int
        /// Column of the start (Unicode scalars, 1-based).
        var column: Int
        /// Where the expression ends.
        var endLine: Int
        /// Column one past the end.
        var endColumn: Int
        /// The expression source.
        var text: String
        /// Times evaluated.
        var evaluations: Int64
        /// Times it was `true`.
        var trueCount: Int64
        /// Times it was `false`.
        var falseCount: Int64
        /// Times it failed.
        var errorCount: Int64
    }

    /// The whole report: per-expression entries plus totals.
    struct CoverageReport: Codable {
        /// The rules file name.
        var fileName: String
        /// Number of expressions.
        var expressions: Int
        /// Expressions evaluated at least once.
        var evaluatedExpressions: Int
        /// One entry per expression, by id.
        var entries: [CoverageEntry]
    }

    /// A consistent snapshot of the counters as a report.
    func coverageReport() -> CoverageReport {
        let counts = coverage.snapshot()
        var entries: [CoverageEntry] = []
        for e in program.expressions {
            let b = e.id * 4
            guard b + 3 < counts.count else { continue }
            let end = source.position(ofOffset: e.end)
            entries.append(
                CoverageEntry(
                    id: e.id, line: e.position.line, column: e.position.column, endLine: end.line, endColumn: end.column,
                    text: source.slice(e.position.offset, e.end), evaluations: counts[b], trueCount: counts[b + 1],
                    falseCount: counts[b + 2], errorCount: counts[b + 3]))
        }
        entries.sort { $0.id < $1.id }
        return CoverageReport(
            fileName: source.fileName, expressions: entries.count, evaluatedExpressions: entries.filter { $0.evaluations > 0 }.count,
            entries: entries)
    }

    /// The coverage report as JSON: `{fileName, expressions, evaluatedExpressions, entries:
    /// [{id, line, column, endLine, endColumn, text, evaluations, trueCount, falseCount, errorCount}]}`.
    public func coverageJSON() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? Array(encoder.encode(coverageReport()))) ?? Array("{}".utf8)
    }

    /// Zeroes the coverage counters.
    public func resetCoverage() { coverage.reset() }

    /// The rules source as an HTML page; every expression is a span coloured by what it did
    /// (never evaluated, only true, only false, errors, mixed) with the counts in its title.
    public func coverageHTML() -> String {
        let report = coverageReport()
        let bytes = source.bytes
        var opens: [Int: [CoverageEntry]] = [:]
        var closes: [Int: Int] = [:]
        for e in report.entries {
            guard let expr = program.expressions.first(where: { $0.id == e.id }) else { continue }
            opens[expr.position.offset, default: []].append(e)
            closes[expr.end, default: 0] += 1
        }
        var exprEnd: [Int: Int] = [:]
        for e in program.expressions { exprEnd[e.id] = e.end }
        var body = ""
        var run: [UInt8] = []
        func flush() {
            body += Self.escapeHTML(String(decoding: run, as: UTF8.self))
            run.removeAll()
        }
        for i in 0...bytes.count {
            if let n = closes[i] {
                flush()
                body += String(repeating: "</span>", count: n)
            }
            if let starting = opens[i] {
                flush()
                // Outer (longer) spans open first so nesting stays valid.
                for e in starting.sorted(by: { (exprEnd[$0.id] ?? 0) > (exprEnd[$1.id] ?? 0) }) {
                    let cls: String
                    if e.evaluations == 0 {
                        cls = "never"
                    } else if e.errorCount > 0 {
                        cls = "error"
                    } else if e.trueCount > 0 && e.falseCount > 0 {
                        cls = "both"
                    } else if e.trueCount > 0 {
                        cls = "true"
                    } else if e.falseCount > 0 {
                        cls = "false"
                    } else {
                        cls = "value"
                    }
                    let title = "evaluated \(e.evaluations)×: \(e.trueCount) true, \(e.falseCount) false, \(e.errorCount) errors"
                    body += "<span class=\"\(cls)\" title=\"\(title)\">"
                }
            }
            if i < bytes.count { run.append(bytes[i]) }
        }
        flush()
        let style = """
            body{font-family:monospace;white-space:pre;} span{border-bottom:1px solid transparent;}
            .never{background:#fdd;} .error{background:#fca;} .false{background:#ffd;} .true{background:#dfd;}
            .both{background:#def;} .value{background:#eee;}
            """
        let summary = "\(report.evaluatedExpressions) of \(report.expressions) expressions evaluated"
        return
            "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Rules coverage: \(Self.escapeHTML(report.fileName))</title><style>\(style)</style></head>"
            + "<body><h3>\(Self.escapeHTML(report.fileName)) — \(summary)</h3>\n\(body)</body></html>\n"
    }

    /// `s` with `& < > "` escaped for HTML text and attributes.
    static func escapeHTML(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }
}
