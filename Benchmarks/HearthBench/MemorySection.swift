import Foundation
import Synchronization

/// Issue 14 items 6 and 7: the server's resident set idle and after 10,000, 200,000 and
/// 1,000,000 documents, its peak growth while answering a 200,000-document RunQuery, and
/// GetDocument p99 idle and while another client runs a 1,000,000-document scan — Hearth as
/// `hearth start --data FILE` (SQLite, `synchronous=FULL`) in a child process beside the
/// official emulator's JVM, one server at a time.
struct MemorySection {
    /// Run settings.
    let options: BenchOptions
    /// Scratch directory of this run.
    let scratch: URL
    /// Progress lines go here (stderr).
    let progress: @Sendable (String) -> Void

    /// Collection sizes at which the resident set is read, in loading order.
    static let steps = [10_000, 200_000, 1_000_000]
    /// Documents the large RunQuery returns (issue 14: "a RunQuery returning 200k documents").
    static let queryReturns = 200_000
    /// Documents the scan reads (issue 14: "while another client runs a 1M-document scan").
    static let scanDocuments = 1_000_000
    /// The document every GetDocument reads.
    static let getPath = FirestoreJSON.documentsPath + "/\(FirestoreJSON.queryCollection)/item00000042"
    /// How long after a step's last commit its resident set is read: past Hearth's periodic
    /// return of free heap memory (`HearthApp.versionCollectionInterval`, 10 s), the state a
    /// server idles in after a load; the JVM gets the same time to collect.
    static let settle: Duration = .seconds(12)
    /// The most documents the emulator is loaded with: it held 4.0 GB at 200,000 documents
    /// (about 20 KB per document), so 1,000,000 would need about 20 GB — more than the
    /// benchmark machine class has to spare.
    static let emulatorMaxDocuments = 200_000
    /// How long a server may take to load before its larger steps are skipped (the emulator
    /// loaded 200,000 documents in 45 s, Hearth 1,000,000 in about 2 minutes).
    static let loadBudget: Duration = .seconds(600)

    /// `limit` documents of `items` in name order.
    static func allItems(limit: Int) -> String {
        #"{"structuredQuery":{"from":[{"collectionId":"\#(FirestoreJSON.queryCollection)"}],"limit":\#(limit)}}"#
    }

    /// The scan: the last 10 of `count` documents in name order, by `offset` — the server
    /// reads (and, in Hearth, decodes) every document and sends 10.
    static func scan(count: Int) -> String {
        #"{"structuredQuery":{"from":[{"collectionId":"\#(FirestoreJSON.queryCollection)"}],"offset":\#(count - 10),"limit":10}}"#
    }

    /// What one server gave.
    struct ServerFigures {
        /// Why nothing was measured, if so.
        var absent: String?
        /// Launch to ready.
        var startup: Duration?
        /// 2 s after ready, before any request.
        var idle: ProcessMemory?
        /// After loading each step's documents (1 s after the last commit).
        var loaded: [Int: ProcessMemory] = [:]
        /// Wall time to load each step from the previous one.
        var loadTime: [Int: Duration] = [:]
        /// Why a step was not loaded (too slow, failed).
        var skipped: [Int: String] = [:]
        /// Hearth's data file (+ WAL) after each step, bytes.
        var fileBytes: [Int: Int] = [:]
        /// GetDocument (wrk, one connection) at 10,000 and at 1,000,000 documents.
        var getAt10k: Wrk.Result?
        /// See `getAt10k`.
        var getIdleAt1M: Wrk.Result?
        /// GetDocument while scans of `scanDocuments` run back to back on another connection.
        var getDuringScan: Wrk.Result?
        /// `settle` after the last scan: readers map the database file, so the pages a scan
        /// read stay in the resident set (file-backed) until the kernel needs them.
        var afterScans: ProcessMemory?
        /// One scan on its own, and the scans run during `getDuringScan`.
        var scanAlone: Curl.Outcome?
        /// See `scanAlone`.
        var scansDuring: [Duration] = []
        /// The 200,000-document RunQuery: its answer, the resident set before, the peak during, and `settle` after.
        var query: Curl.Outcome?
        /// See `query`.
        var queryBefore: ProcessMemory?
        /// See `query`.
        var queryPeak: ProcessMemory?
        /// See `query`.
        var queryAfter: ProcessMemory?
        /// Anonymous resident memory (the heap) before the REST RunQuery and its peak during it
        /// (sampled every 20 ms), KiB.
        var queryAnon: (before: Int, peak: Int)?
        /// The same query over gRPC (google-cloud-firestore, `Benchmarks/memory/query_stream.py`,
        /// pausing 0.2 s every 20,000 documents): documents, time, and the heap before and at peak.
        var grpcQuery: (documents: Int, seconds: Double, before: Int, peak: Int)?
        /// Failures, for the notes.
        var notes: [String] = []
    }

    /// Runs the section.
    func run() async -> BenchTable {
        var table = BenchTable(title: "Issue 14 — Memory: resident set idle and loaded, a 200k-document RunQuery, GetDocument under a 1M-document scan", baselineName: "reference (see figure)")
        let wrk: Wrk
        do {
            wrk = try Wrk(options: options, scratch: scratch)
        } catch {
            table.notes.append("not measured: \(error)")
            return table
        }
        progress("memory: starting Hearth (release build, SQLite file)")
        let dir = scratch.appendingPathComponent("memory-hearth")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let dataFile = dir.appendingPathComponent("firestore.sqlite").path
        let hearth = await measure(
            "Hearth", wrk: wrk, upTo: Self.steps.last ?? 0, dataFile: dataFile
        ) { () throws(BenchError) -> ListenServer in try await ListenServer.hearth(directory: dir, dataFile: dataFile) }
        var emulator = ServerFigures(absent: "skipped (--no-emulator)")
        if options.emulator {
            progress("memory: starting the official emulator")
            emulator = await measure(
                "emulator", wrk: wrk, upTo: Self.emulatorMaxDocuments, dataFile: nil
            ) { () throws(BenchError) -> ListenServer in try await ListenServer.emulator(directory: scratch) }
        }
        appendRows(hearth: hearth, emulator: emulator, to: &table)
        return table
    }

    /// Starts one server and measures every step it gets to; stops it.
    private func measure(
        _ label: String, wrk: Wrk, upTo: Int, dataFile: String?,
        start: () async throws(BenchError) -> ListenServer
    ) async -> ServerFigures {
        var f = ServerFigures()
        let server: ListenServer
        do {
            server = try await start()
        } catch {
            if case .missingTool(let why) = error { f.absent = why } else { f.absent = "failed"; f.notes.append("\(label): \(error)") }
            return f
        }
        f.startup = server.startup
        guard let pid = server.pid else {
            f.absent = "n/a (process not found)"
            await server.stop()
            return f
        }
        try? await Task.sleep(for: .seconds(2))
        f.idle = ProcessMemory.read(pid)
        let clock = ContinuousClock()
        let loadStarted = clock.now
        var loaded = 0
        for step in Self.steps {
            guard step <= upTo else {
                f.skipped[step] = "n/a: would need about \(step / 50_000) GB"
                continue
            }
            if loaded < step, clock.now - loadStarted > Self.loadBudget {
                f.skipped[step] = "n/a: loading stopped at \(loaded.formatted()) after \(Int((clock.now - loadStarted).seconds)) s"
                continue
            }
            progress("memory: \(label), loading \(loaded.formatted())–\(step.formatted()) documents")
            let began = clock.now
            do {
                try await seed(from: loaded, to: step, baseURL: server.baseURL, deadline: loadStarted + Self.loadBudget)
            } catch {
                f.skipped[step] = "n/a: \(error)"
                f.notes.append("\(label), loading \(step.formatted()): \(error)")
                break
            }
            loaded = step
            f.loadTime[step] = clock.now - began
            try? await Task.sleep(for: Self.settle)
            f.loaded[step] = ProcessMemory.read(pid)
            if let dataFile { f.fileBytes[step] = Self.fileSize(dataFile) + Self.fileSize(dataFile + "-wal") }
            switch step {
            case 10_000:
                progress("memory: \(label), GetDocument at 10,000 documents")
                f.getAt10k = await get(wrk, server, label, into: &f)
            case Self.queryReturns:
                progress("memory: \(label), RunQuery returning \(Self.queryReturns.formatted()) documents")
                await bigQuery(server, pid: pid, label: label, into: &f)
            case Self.scanDocuments:
                await scan(wrk, server, label, into: &f)
                try? await Task.sleep(for: Self.settle)
                f.afterScans = ProcessMemory.read(pid)
            default: break
            }
        }
        await server.stop()
        return f
    }

    /// Items `[from, to)` in commits of 500 writes.
    /// - Throws: `BenchError.badResponse` when a commit fails, `.childFailed` past `deadline`.
    private func seed(from: Int, to: Int, baseURL: String, deadline: ContinuousClock.Instant) async throws(BenchError) {
        var start = from
        while start < to {
            if ContinuousClock.now > deadline { throw .childFailed("loading stopped at \(start.formatted()): time bound reached") }
            let end = min(start + 500, to)
            let writes = (start..<end).map {
                FirestoreJSON.updateWrite(path: "\(FirestoreJSON.queryCollection)/" + String(format: "item%08d", $0), n: $0)
            }
            _ = try await SimpleHTTP.expectOK("POST", baseURL + FirestoreJSON.documentsPath + ":commit", json: FirestoreJSON.commit(writes))
            start = end
        }
    }

    /// GetDocument of one item over one keep-alive connection (`wrk -c1`), or nil (note added).
    private func get(_ wrk: Wrk, _ server: ListenServer, _ label: String, into f: inout ServerFigures) async -> Wrk.Result? {
        do {
            return try await wrk.measure(Wrk.Workload(method: "GET", path: Self.getPath, connections: 1), baseURL: server.baseURL)
        } catch {
            f.notes.append("\(label), GetDocument: \(error)")
            return nil
        }
    }

    /// The 200,000-document RunQuery: the resident set before, its peak (VmHWM reset just
    /// before the request) and after.
    private func bigQuery(_ server: ListenServer, pid: pid_t, label: String, into f: inout ServerFigures) async {
        f.queryBefore = ProcessMemory.read(pid)
        if !ProcessMemory.resetPeak(pid) { f.notes.append("\(label): cannot reset VmHWM (/proc/\(pid)/clear_refs); the peak is since start") }
        let restSampler = AnonPeak(pid: pid)
        do {
            f.query = try await Curl.post(
                server.baseURL + FirestoreJSON.documentsPath + ":runQuery", json: Self.allItems(limit: Self.queryReturns), scratch: scratch)
        } catch {
            f.notes.append("\(label), RunQuery \(Self.queryReturns.formatted()): \(error)")
        }
        f.queryAnon = await restSampler.stop()
        f.queryPeak = ProcessMemory.read(pid)
        try? await Task.sleep(for: Self.settle)
        f.queryAfter = ProcessMemory.read(pid)
        guard let python = await ListenSection.findPython() else {
            f.notes.append("\(label), gRPC RunQuery: not measured (no Python with google-cloud-firestore; scripts/bench-deps.sh)")
            return
        }
        progress("memory: \(label), the same RunQuery over gRPC, read slowly")
        let grpcSampler = AnonPeak(pid: pid)
        do {
            let out = try await ListenLoadClient.runBounded(
                python,
                [PackageRoot.path("Benchmarks/memory/query_stream.py"), "--host", server.host, "--project", FirestoreJSON.project,
                 "--collection", FirestoreJSON.queryCollection, "--limit", String(Self.queryReturns)],
                timeout: .seconds(600))
            let anon = await grpcSampler.stop()
            struct Answer: Decodable { var documents: Int; var seconds: Double }
            let answer = try JSONDecoder().decode(Answer.self, from: Data(out.utf8))
            f.grpcQuery = (answer.documents, answer.seconds, anon?.before ?? 0, anon?.peak ?? 0)
        } catch {
            _ = await grpcSampler.stop()
            f.notes.append("\(label), gRPC RunQuery \(Self.queryReturns.formatted()): \(error)")
        }
        try? await Task.sleep(for: Self.settle)
    }

    /// Samples a process's anonymous resident memory (RssAnon) every 20 ms until `stop`.
    final class AnonPeak: Sendable {
        private let flag = StopFlag()
        private let sampling: Task<(before: Int, peak: Int)?, Never>

        init(pid: pid_t) {
            let flag = self.flag
            sampling = Task {
                guard let first = ProcessMemory.read(pid)?.anonKiB else { return nil }
                var peak = first
                while !flag.isSet {
                    if let m = ProcessMemory.read(pid) { peak = max(peak, m.anonKiB) }
                    try? await Task.sleep(for: .milliseconds(20))
                }
                return (first, peak)
            }
        }

        /// Stops sampling: the heap at the start and its peak, KiB (nil if unreadable).
        func stop() async -> (before: Int, peak: Int)? {
            flag.set()
            return await sampling.value
        }
    }

    /// GetDocument idle at 1,000,000 documents, one scan alone, then GetDocument again while
    /// scans run back to back on another connection.
    private func scan(_ wrk: Wrk, _ server: ListenServer, _ label: String, into f: inout ServerFigures) async {
        progress("memory: \(label), GetDocument at \(Self.scanDocuments.formatted()) documents, idle")
        f.getIdleAt1M = await get(wrk, server, label, into: &f)
        let url = server.baseURL + FirestoreJSON.documentsPath + ":runQuery"
        let body = Self.scan(count: Self.scanDocuments)
        progress("memory: \(label), one \(Self.scanDocuments.formatted())-document scan alone")
        do {
            f.scanAlone = try await Curl.post(url, json: body, scratch: scratch)
        } catch {
            f.notes.append("\(label), scan: \(error)")
            return
        }
        progress("memory: \(label), GetDocument during back-to-back scans")
        let stop = StopFlag()
        let scratch = self.scratch
        async let scans: [Duration] = {
            var times: [Duration] = []
            while !stop.isSet {
                guard let o = try? await Curl.post(url, json: body, scratch: scratch) else { break }
                times.append(o.time)
            }
            return times
        }()
        try? await Task.sleep(for: .milliseconds(300))
        f.getDuringScan = await get(wrk, server, label, into: &f)
        stop.set()
        f.scansDuring = await scans
    }

    /// A flag one task sets and another polls.
    final class StopFlag: Sendable {
        private let flag = Atomic<Bool>(false)
        /// True once `set()` was called.
        var isSet: Bool { flag.load(ordering: .acquiring) }
        /// Sets the flag.
        func set() { flag.store(true, ordering: .releasing) }
    }

    /// The size of the file at `path`, 0 when missing.
    static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }
}
