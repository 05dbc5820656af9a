import Foundation

/// Command-line options of `hearth-bench`.
///
/// `--full` adds the 1,000,000-document range query; `--duration`/`--warmup` (seconds),
/// `--connections` and `--threads` shape every `wrk` run (the same for Hearth, the official
/// emulator and nginx); `--no-emulator` skips the JVM;
/// `--only rest,query,rules,fanout,listen,history,index,memory,webchannel` picks sections;
/// `--json <file>` moves the JSON results.
struct BenchOptions: Sendable {
    /// The sections of the report, in the order they run.
    enum Section: String, Sendable, CaseIterable {
        /// Issue 2: REST GetDocument, Commit and RunQuery over HTTP.
        case rest
        /// Issue 2: the store's one-field range query at 10,000 vs 1,000,000 documents.
        case query
        /// Issue 3: rules decisions per second.
        case rules
        /// Issue 4: `sendMessage` fan-out.
        case fanout
        /// Issue 5: gRPC and Listen.
        case listen
        /// Issue 10: version history (point-in-time reads) and writes as the database grows.
        case history
        /// Issue 13: composite indexes in the store (query, write cost, build).
        case index
        /// Issue 14: the server's memory idle and loaded, a 200k-document RunQuery, GetDocument under a scan.
        case memory
        /// Issue 22: WebChannel, the JS SDK's browser transport (latency in Chromium, sessions held).
        case webchannel
    }

    /// Include the 1,000,000-document step (tens of seconds to load).
    var full = false
    /// Measured part of each `wrk` run.
    var duration: Duration = .seconds(3)
    /// Discarded `wrk` run before each measured one (connection set-up, JIT, index builds).
    var warmup: Duration = .seconds(2)
    /// Keep-alive connections `wrk` holds open.
    var connections = 16
    /// `wrk` threads.
    var threads = 1
    /// Minimum wall time of each rules measurement (Hearth and cel-python alike).
    var rulesTime: Duration = .seconds(2)
    /// Start the official emulator (when `gcloud` is installed).
    var emulator = true
    /// Sections to run.
    var sections: Set<Section> = Set(Section.allCases)
    /// Where the JSON results go; nil = `Benchmarks/results/latest.json` under the package root.
    var jsonPath: String?

    /// The usage text.
    static let usage = """
        usage: hearth-bench [--full] [--duration S] [--warmup S] [--connections N] [--threads N]
                            [--rules-seconds S] [--no-emulator]
                            [--only rest,query,rules,fanout,listen,history,index,memory,webchannel]
                            [--json FILE]
        """

    /// Parses the arguments after the program name.
    /// - Throws: `BenchError.usage` naming an unknown option or a bad value.
    static func parse(_ arguments: [String]) throws(BenchError) -> BenchOptions {
        var o = BenchOptions()
        var i = 0
        func value() throws(BenchError) -> String {
            i += 1
            guard i < arguments.count else { throw .usage("\(arguments[i - 1]) needs a value") }
            return arguments[i]
        }
        func seconds() throws(BenchError) -> Duration {
            let v = try value()
            guard let s = Double(v), s > 0 else { throw .usage("\(arguments[i - 1]): \"\(v)\" is not a positive number of seconds") }
            return .milliseconds(Int64(s * 1000))
        }
        func count() throws(BenchError) -> Int {
            let v = try value()
            guard let n = Int(v), n > 0 else { throw .usage("\(arguments[i - 1]): \"\(v)\" is not a positive integer") }
            return n
        }
        while i < arguments.count {
            switch arguments[i] {
            case "--full": o.full = true
            case "--duration": o.duration = try seconds()
            case "--warmup": o.warmup = try seconds()
            case "--connections", "-c": o.connections = try count()
            case "--threads", "-t": o.threads = try count()
            case "--rules-seconds": o.rulesTime = try seconds()
            case "--no-emulator": o.emulator = false
            case "--json": o.jsonPath = try value()
            case "--only":
                var picked: Set<Section> = []
                for name in try value().split(separator: ",") {
                    guard let s = Section(rawValue: String(name)) else { throw .usage("--only: unknown section \"\(name)\"") }
                    picked.insert(s)
                }
                o.sections = picked
            case "--help", "-h": throw .usage("")
            default: throw .usage("unknown option \(arguments[i])")
            }
            i += 1
        }
        return o
    }
}
