import Foundation

// hearth-bench: every figure beside the official emulator and a physical baseline, measured
// in the same run (docs/STYLE.md principle 16). See Benchmarks/README.md.

let arguments = Array(CommandLine.arguments.dropFirst())
let options: BenchOptions
do {
    options = try BenchOptions.parse(arguments)
} catch {
    if !error.description.isEmpty { FileHandle.standardError.write(Data("hearth-bench: \(error)\n".utf8)) }
    FileHandle.standardError.write(Data((BenchOptions.usage + "\n").utf8))
    exit(error.description.isEmpty ? 0 : 2)
}

ChildRegistry.installSignalHandlers()
let progress: @Sendable (String) -> Void = { line in
    FileHandle.standardError.write(Data("[\(ISO8601DateFormatter().string(from: Date()).suffix(9).dropLast())] \(line)\n".utf8))
}
let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-bench-\(UUID().uuidString)")
do {
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
} catch {
    FileHandle.standardError.write(Data("hearth-bench: cannot create a scratch directory: \(error)\n".utf8))
    exit(1)
}

let began = ContinuousClock.now
var report = BenchReport(arguments: arguments)
progress("load average at start: \(report.loadAverageAtStart.map { String(format: "%.2f", $0) }.joined(separator: " "))")
for section in BenchOptions.Section.allCases where options.sections.contains(section) {
    switch section {
    case .rest: report.tables.append(await RESTSection(options: options, scratch: scratch, progress: progress).run())
    case .query: report.tables.append(RangeQuerySection(options: options, scratch: scratch, progress: progress).run())
    case .rules: report.tables.append(await RulesSection(options: options, progress: progress).run())
    case .fanout: report.tables.append(await FanOutSection(options: options, scratch: scratch, progress: progress).run())
    case .listen: report.tables.append(await ListenSection(options: options, scratch: scratch, progress: progress).run())
    case .history: report.tables.append(HistorySection(options: options, scratch: scratch, progress: progress).run())
    case .index: report.tables.append(IndexSection(options: options, scratch: scratch, progress: progress).run())
    case .memory: report.tables.append(await MemorySection(options: options, scratch: scratch, progress: progress).run())
    case .webchannel:
        report.tables.append(await WebChannelSection(options: options, scratch: scratch, progress: progress).run())
    }
}
report.loadAverageAtEnd = BenchReport.loadAverage()
report.wallSeconds = (ContinuousClock.now - began).seconds
try? FileManager.default.removeItem(at: scratch)

print(report.rendered)
let jsonPath = options.jsonPath ?? PackageRoot.path("Benchmarks/results/latest.json")
do {
    try report.write(jsonPath: jsonPath)
    progress("results written to \(jsonPath) and its .txt sibling")
} catch {
    FileHandle.standardError.write(Data("hearth-bench: cannot write \(jsonPath): \(error)\n".utf8))
    exit(1)
}
