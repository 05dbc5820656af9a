import Foundation

/// The whole run: when and where it ran, the machine's load, and one table per issue;
/// printed as text and written as JSON.
struct BenchReport: Sendable, Encodable {
    /// Start of the run, ISO 8601 UTC.
    var date: String
    /// `uname -srm`.
    var machine: String
    /// Online processors.
    var cores: Int
    /// `release` or `debug` (figures from a debug build mean little).
    var configuration: String
    /// 1, 5 and 15-minute load averages when the run started (other builds share the machine).
    var loadAverageAtStart: [Double]
    /// The same when it ended.
    var loadAverageAtEnd: [Double] = []
    /// Wall time of the run, seconds.
    var wallSeconds: Double = 0
    /// The command-line arguments.
    var arguments: [String]
    /// One table per issue.
    var tables: [BenchTable] = []

    /// Captures the header now.
    init(arguments: [String]) {
        date = ISO8601DateFormatter().string(from: Date())
        var u = utsname()
        uname(&u)
        func field<T>(_ value: T) -> String {
            withUnsafeBytes(of: value) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        machine = "\(field(u.sysname)) \(field(u.release)) \(field(u.machine))"
        cores = ProcessInfo.processInfo.activeProcessorCount
        #if DEBUG
            configuration = "debug"
        #else
            configuration = "release"
        #endif
        loadAverageAtStart = Self.loadAverage()
        self.arguments = arguments
    }

    /// The 1, 5 and 15-minute load averages.
    static func loadAverage() -> [Double] {
        var loads = [Double](repeating: 0, count: 3)
        let n = loads.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return getloadavg(base, 3)
        }
        return Array(loads.prefix(max(0, Int(n))))
    }

    /// The report as text: header, then each table.
    var rendered: String {
        func loads(_ l: [Double]) -> String { l.map { String(format: "%.2f", $0) }.joined(separator: " ") }
        var out = """
            hearth-bench \(arguments.joined(separator: " "))
            date \(date), \(machine), \(cores) cores, \(configuration) build, wall time \(String(format: "%.0f", wallSeconds)) s
            load average at start: \(loads(loadAverageAtStart)); at end: \(loads(loadAverageAtEnd)) (1, 5, 15 min; other builds may share the machine)
            ratios are Hearth ÷ the other column, measured in this run.


            """
        if configuration == "debug" { out += "WARNING: debug build — run Benchmarks/run.sh (release) for figures worth quoting.\n\n" }
        for t in tables { out += t.rendered + "\n" }
        return out
    }

    /// Writes `rendered` and the JSON next to each other (`.txt` beside the `.json`).
    /// - Throws: file-system errors.
    func write(jsonPath: String) throws {
        let url = URL(fileURLWithPath: jsonPath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try encoder.encode(self).write(to: url)
        try Data(rendered.utf8).write(to: url.deletingPathExtension().appendingPathExtension("txt"))
    }
}
