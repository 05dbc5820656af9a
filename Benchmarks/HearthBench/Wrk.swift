import Foundation

/// Runs `wrk` — the one HTTP load generator every server in the report is measured with —
/// and reads its summary.
///
/// Every run uses the same threads, connections and duration (from `BenchOptions`), keep-alive
/// HTTP/1.1, and `Authorization: Bearer owner`; a discarded warm-up run precedes each measured one.
struct Wrk: Sendable {
    /// What one run sends.
    struct Workload: Sendable {
        /// `GET` or `POST`.
        var method: String
        /// Path and query, e.g. `/v1/projects/bench/databases/(default)/documents/bench/doc1`.
        var path: String
        /// The POST body. When `uniqueMarker` is set, each request replaces it in the body by a
        /// fresh `<thread>-<run>-<n>` token (so every Commit writes a new document).
        var body: String?
        /// The placeholder replaced per request, if any.
        var uniqueMarker: String?
        /// Connections for this workload when not the run's `--connections` (the 64 concurrent
        /// writers of issue 14's group-commit row).
        var connections: Int?
    }

    /// What `wrk --latency` reports.
    struct Result: Sendable {
        /// Completed requests per second.
        var requestsPerSecond: Double
        /// Median latency.
        var p50: Duration
        /// 99th percentile latency.
        var p99: Duration
        /// Requests completed.
        var requests: Int
        /// Responses with a status outside 2xx/3xx.
        var non2xx: Int
        /// Connect, read, write and timeout errors, summed.
        var socketErrors: Int
        /// The measured run's length (longer than `BenchOptions.duration` for a slow server).
        var duration: Duration = .zero
    }

    /// A measured run completing fewer requests than this is repeated `extendedDuration` long,
    /// so a server slower than the run still gets percentiles from a sample.
    static let minimumRequests = 50
    /// The length of the repeated run.
    static let extendedDuration: Duration = .seconds(12)

    /// The `wrk` executable.
    let executable: String
    /// Threads, connections, durations.
    let options: BenchOptions
    /// Scratch directory for the Lua scripts.
    let scratch: URL

    /// Finds `wrk` on `PATH`.
    /// - Throws: `BenchError.missingTool` when it is not installed.
    init(options: BenchOptions, scratch: URL) throws(BenchError) {
        guard let path = Tools.find("wrk") else { throw .missingTool("wrk not installed (run scripts/bench-deps.sh)") }
        executable = path
        self.options = options
        self.scratch = scratch
    }

    /// A warm-up run (discarded) then a measured run of `workload` against `baseURL`; when the
    /// measured run completes fewer than `minimumRequests`, it is repeated `extendedDuration` long.
    /// - Throws: `BenchError.childFailed` when wrk fails; `.badResponse` when most responses were errors.
    func measure(_ workload: Workload, baseURL: String) async throws(BenchError) -> Result {
        _ = try await run(workload, baseURL: baseURL, duration: options.warmup, tag: "w")
        try await drain(workload, baseURL: baseURL)
        var result = try await run(workload, baseURL: baseURL, duration: options.duration, tag: "m")
        try await drain(workload, baseURL: baseURL)
        if result.requests < Self.minimumRequests, Self.extendedDuration > options.duration {
            result = try await run(workload, baseURL: baseURL, duration: Self.extendedDuration, tag: "x")
            try await drain(workload, baseURL: baseURL)
        }
        if result.requests == 0 {
            throw .badResponse("no request completed within \(Int(result.duration.seconds.rounded())) s")
        }
        if result.non2xx * 2 > result.requests {
            throw .badResponse("\(result.non2xx) of \(result.requests) responses were not 2xx")
        }
        return result
    }

    /// Waits until the server has worked off what `wrk` left in flight when it stopped (wrk
    /// closes its connections without waiting, and a slow server keeps computing those answers):
    /// sends one request of the same kind at a time until one takes no longer than 1.5× the
    /// fastest seen (or 50 ms), at least twice and at most 20 times.
    /// - Throws: `BenchError.badResponse` when a request fails.
    private func drain(_ workload: Workload, baseURL: String) async throws(BenchError) {
        let clock = ContinuousClock()
        var fastest = Duration.seconds(3600)
        for attempt in 0..<20 {
            let body = workload.uniqueMarker.flatMap { marker in workload.body?.replacingOccurrences(of: marker, with: "drain-\(UUID().uuidString)") }
            let start = clock.now
            _ = try await SimpleHTTP.send(workload.method, baseURL + workload.path, json: body ?? workload.body, timeout: .seconds(180))
            let took = clock.now - start
            if attempt > 0, took <= max(.milliseconds(50), fastest * 1.5) { return }
            fastest = min(fastest, took)
        }
    }

    private func run(_ workload: Workload, baseURL: String, duration: Duration, tag: String) async throws(BenchError) -> Result {
        let script = scratch.appendingPathComponent("wrk-\(UUID().uuidString).lua")
        do {
            try luaScript(workload, tag: tag).write(to: script, atomically: true, encoding: .utf8)
        } catch {
            throw .childFailed("cannot write \(script.lastPathComponent): \(error)")
        }
        defer { try? FileManager.default.removeItem(at: script) }
        let seconds = max(1, Int(duration.seconds.rounded()))
        let arguments = [
            "-t", "\(options.threads)", "-c", "\(max(workload.connections ?? options.connections, options.threads))", "-d", "\(seconds)s",
            "--timeout", "10s", "--latency", "-H", "Authorization: Bearer owner", "-s", script.path, baseURL + workload.path,
        ]
        let output = try await Tools.run(executable, arguments)
        guard var parsed = Self.parse(output) else { throw .childFailed("cannot read wrk's output: \(output.suffix(400))") }
        parsed.duration = .seconds(seconds)
        return parsed
    }

    /// The Lua script: method, headers, body, and the per-request unique token.
    func luaScript(_ w: Workload, tag: String) -> String {
        var lua = "wrk.method = \"\(w.method)\"\n"
        guard let body = w.body else { return lua }
        lua += "wrk.headers[\"Content-Type\"] = \"application/json\"\n"
        if let marker = w.uniqueMarker, let range = body.range(of: marker) {
            let prefix = String(body[..<range.lowerBound])
            let suffix = String(body[range.upperBound...])
            lua += """
                local prefix = [==[\(prefix)]==]
                local suffix = [==[\(suffix)]==]
                local threads = 0
                function setup(thread)
                  threads = threads + 1
                  thread:set("tid", threads)
                end
                tid = 0
                local n = 0
                function request()
                  n = n + 1
                  return wrk.format(nil, nil, nil, prefix .. tid .. "-\(tag)-" .. n .. suffix)
                end

                """
        } else {
            lua += "wrk.body = [==[\(body)]==]\n"
        }
        return lua
    }

    /// Reads wrk's summary; nil when a required line is missing.
    static func parse(_ output: String) -> Result? {
        var rps: Double?
        var p50: Duration?
        var p99: Duration?
        var requests: Int?
        var non2xx = 0
        var socketErrors = 0
        for raw in output.split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," }).map(String.init)
            if line.hasPrefix("Requests/sec:"), words.count >= 2 {
                rps = Double(words[1])
            } else if line.hasPrefix("50%"), words.count >= 2 {
                p50 = latency(words[1])
            } else if line.hasPrefix("99%"), words.count >= 2 {
                p99 = latency(words[1])
            } else if line.contains(" requests in "), let first = words.first {
                requests = Int(first)
            } else if line.hasPrefix("Non-2xx or 3xx responses:"), let last = words.last {
                non2xx = Int(last) ?? 0
            } else if line.hasPrefix("Socket errors:") {
                socketErrors = stride(from: 3, to: words.count, by: 2).compactMap { Int(words[$0]) }.reduce(0, +)
            }
        }
        guard let rps, let p50, let p99, let requests else { return nil }
        return Result(requestsPerSecond: rps, p50: p50, p99: p99, requests: requests, non2xx: non2xx, socketErrors: socketErrors)
    }

    /// `812.00us`, `1.23ms`, `1.01s`, `2.00m` → a duration.
    static func latency(_ text: String) -> Duration? {
        for (suffix, scale) in [("us", 1e-3), ("ms", 1.0), ("s", 1e3), ("m", 6e4)] where text.hasSuffix(suffix) {
            guard let v = Double(text.dropLast(suffix.count)) else { return nil }
            return .microseconds(Int64((v * scale * 1e3).rounded()))
        }
        return nil
    }
}
