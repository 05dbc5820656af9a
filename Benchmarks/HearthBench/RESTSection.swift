import Foundation

/// Issue 2, over HTTP: GetDocument, Commit and a 100-document RunQuery on Hearth, the official
/// emulator and nginx answering Hearth's own response bytes — all hit by the same `wrk`; and
/// issue 13's equality + order-by query on a composite index (`equalityOrderQuery`), which
/// Hearth serves from the index that `firestore.indexes.json` defines and the emulator
/// answers by scanning.
struct RESTSection {
    /// Run settings.
    let options: BenchOptions
    /// Scratch directory of this run.
    let scratch: URL
    /// Progress lines go here (stderr).
    let progress: @Sendable (String) -> Void

    /// Documents the RunQuery collection holds.
    static let queryDocuments = 10_000
    /// Documents the RunQuery returns.
    static let queryReturns = 100

    /// Runs the section; every failure lands in a cell or a note, never aborts the run.
    func run() async -> BenchTable {
        var table = BenchTable(title: "Issue 2 — Firestore REST v1 over HTTP/1.1 keep-alive", baselineName: "nginx (same bytes)")
        let wrk: Wrk
        do {
            wrk = try Wrk(options: options, scratch: scratch)
        } catch {
            table.notes.append("not measured: \(error)")
            return table
        }
        table.notes.append(
            "wrk -t\(options.threads) -c\(options.connections) -d\(Int(options.duration.seconds.rounded()))s after a \(Int(options.warmup.seconds.rounded()))s warm-up, "
                + "Authorization: Bearer owner, the same wrk against all three servers, one server under load at a time.")

        progress("rest: starting Hearth")
        let hearth: HearthUnderTest
        do {
            hearth = try await HearthUnderTest(directory: scratch, indexes: FirestoreJSON.equalityOrderIndexes)
        } catch {
            table.notes.append("not measured: \(error)")
            return table
        }
        let docPath = FirestoreJSON.documentsPath + "/bench/doc1"
        let commitPath = FirestoreJSON.documentsPath + ":commit"
        let queryPath = FirestoreJSON.documentsPath + ":runQuery"
        let seedDoc = FirestoreJSON.commit([FirestoreJSON.updateWrite(path: "bench/doc1", n: 1)])
        let queryBody = FirestoreJSON.rangeQuery(low: 4_200, count: Self.queryReturns)

        // Hearth's own answers: the bytes nginx will serve.
        var nginx: NginxBaseline?
        // A second nginx answers the composite-index query's 20 documents.
        var nginxIndexed: NginxBaseline?
        var nginxError = "not measured"
        do {
            progress("rest: seeding Hearth (\(Self.queryDocuments) items)")
            _ = try await SimpleHTTP.expectOK("POST", hearth.baseURL + commitPath, json: seedDoc)
            try await FirestoreJSON.seedItems(Self.queryDocuments, baseURL: hearth.baseURL)
            let getBody = try await SimpleHTTP.expectOK("GET", hearth.baseURL + docPath).body
            let commitBody = try await SimpleHTTP.expectOK(
                "POST", hearth.baseURL + commitPath,
                json: FirestoreJSON.commitWorkloadBody.replacingOccurrences(of: FirestoreJSON.uniqueMarker, with: "probe")
            ).text
            let queryAnswer = try await SimpleHTTP.expectOK("POST", hearth.baseURL + queryPath, json: queryBody).text
            let returned = queryAnswer.components(separatedBy: "\"document\"").count - 1
            if returned != Self.queryReturns {
                table.notes.append("Hearth's RunQuery returned \(returned) documents, expected \(Self.queryReturns)")
            }
            table.notes.append(
                "response sizes from Hearth: GetDocument \(getBody.count) B, Commit \(commitBody.utf8.count) B, RunQuery \(queryAnswer.utf8.count) B (\(returned) documents of \(Self.queryDocuments)).")
            progress("rest: starting nginx")
            nginx = try await NginxBaseline(getBody: getBody, commitBody: commitBody, runQueryBody: queryAnswer, directory: scratch)
            let indexedAnswer = try await SimpleHTTP.expectOK("POST", hearth.baseURL + queryPath, json: FirestoreJSON.equalityOrderQuery).text
            let indexedReturned = indexedAnswer.components(separatedBy: "\"document\"").count - 1
            if indexedReturned != 20 { table.notes.append("Hearth's composite-index RunQuery returned \(indexedReturned) documents, expected 20") }
            nginxIndexed = try await NginxBaseline(
                getBody: getBody, commitBody: commitBody, runQueryBody: indexedAnswer, directory: scratch.appendingPathComponent("indexed"))
        } catch {
            nginxError = "failed"
            table.notes.append("nginx / Hearth set-up: \(error)")
        }

        var emulator: OfficialEmulator?
        var emulatorError = "skipped (--no-emulator)"
        if options.emulator {
            progress("rest: starting the official emulator")
            do {
                let e = try await OfficialEmulator(directory: scratch)
                emulator = e
                table.notes.append("official emulator (gcloud emulators firestore start, JVM) ready \(String(format: "%.1f", e.startup.seconds)) s after launch.")
                progress("rest: seeding the emulator (\(Self.queryDocuments) items)")
                _ = try await SimpleHTTP.expectOK("POST", e.baseURL + commitPath, json: seedDoc)
                try await FirestoreJSON.seedItems(Self.queryDocuments, baseURL: e.baseURL)
                let emulatorGet = try await SimpleHTTP.expectOK("GET", e.baseURL + docPath).body
                table.notes.append("the emulator's GetDocument answer is \(emulatorGet.count) B (pretty-printed JSON).")
            } catch {
                if case .missingTool(let why) = error {
                    emulatorError = why
                } else {
                    emulatorError = "failed"
                    table.notes.append("official emulator: \(error)")
                }
                if let e = emulator { await e.stop() }
                emulator = nil
            }
        }

        let workloads: [(String, Wrk.Workload)] = [
            ("GetDocument", Wrk.Workload(method: "GET", path: docPath)),
            ("Commit (1 new doc)", Wrk.Workload(method: "POST", path: commitPath, body: FirestoreJSON.commitWorkloadBody, uniqueMarker: FirestoreJSON.uniqueMarker)),
            (
                "Commit (1 new doc), 64 connections",
                Wrk.Workload(
                    method: "POST", path: commitPath, body: FirestoreJSON.commitWorkloadBody, uniqueMarker: FirestoreJSON.uniqueMarker,
                    connections: 64)
            ),
            ("RunQuery (100 of 10k)", Wrk.Workload(method: "POST", path: queryPath, body: queryBody)),
            ("RunQuery (group == 3 order by n desc limit 20, of 10k)", Wrk.Workload(method: "POST", path: queryPath, body: FirestoreJSON.equalityOrderQuery)),
        ]
        for (name, workload) in workloads {
            let baseline = workload.body == FirestoreJSON.equalityOrderQuery ? nginxIndexed : nginx
            progress("rest: \(name) on Hearth")
            let h = await measure(wrk, workload, baseURL: hearth.baseURL, into: &table, server: "Hearth")
            var e = [Cell](repeating: .unavailable(emulatorError), count: 3)
            if let emulator {
                progress("rest: \(name) on the official emulator")
                e = await measure(wrk, workload, baseURL: emulator.baseURL, into: &table, server: "emulator")
            }
            var n = [Cell](repeating: .unavailable(nginxError), count: 3)
            if let baseline {
                progress("rest: \(name) on nginx")
                n = await measure(wrk, workload, baseURL: baseline.baseURL, into: &table, server: "nginx")
            }
            for (i, figure) in ["throughput", "p50 latency", "p99 latency"].enumerated() {
                table.rows.append(BenchRow(figure: "\(name) \(figure)", hearth: h[i], emulator: e[i], baseline: n[i]))
            }
            if workload.uniqueMarker != nil && workload.connections == nil {
                // The emulator keeps everything in memory; Hearth fsyncs every commit by
                // default. The same workload on `hearth start --in-memory` separates the two.
                progress("rest: \(name) on Hearth --in-memory")
                do {
                    let memory = try await HearthUnderTest(directory: scratch, inMemory: true)
                    let m = await measure(wrk, workload, baseURL: memory.baseURL, into: &table, server: "Hearth --in-memory")
                    await memory.stop()
                    for (i, figure) in ["throughput", "p50 latency", "p99 latency"].enumerated() {
                        table.rows.append(BenchRow(figure: "\(name) \(figure), Hearth --in-memory", hearth: m[i], emulator: e[i], baseline: n[i]))
                    }
                } catch {
                    table.notes.append("Hearth --in-memory: \(error)")
                }
            }
        }
        table.notes.append(
            "Hearth runs as `hearth start` does: SQLite with synchronous=FULL, every commit acknowledged after its fsync, concurrent commits sharing one transaction and one fsync (group commit); the --in-memory rows use a temporary SQLite file with synchronous=OFF, like the emulator's memory-only store (emulator and nginx cells repeat the run above).")
        table.notes.append("ratios are Hearth ÷ other: above 1× is better for throughput, below 1× is better for latency.")
        table.notes.append("nginx answers Hearth's bytes without parsing the request or touching storage: the floor of HTTP on this machine.")
        if let emulator { await emulator.stop() }
        if let nginx { await nginx.stop() }
        if let nginxIndexed { await nginxIndexed.stop() }
        table.notes.append(
            "the composite-index query: Hearth reads the index items (group ASC, n DESC, __name__ DESC) defined in its firestore.indexes.json; the emulator has no index and scans; nginx answers Hearth's 20 documents.")
        await hearth.stop()
        return table
    }

    /// Throughput, p50 and p99 cells of one wrk run, or three failure cells (reason in a note).
    private func measure(_ wrk: Wrk, _ workload: Wrk.Workload, baseURL: String, into table: inout BenchTable, server: String) async -> [Cell] {
        do {
            let r = try await wrk.measure(workload, baseURL: baseURL)
            if r.duration > options.duration {
                table.notes.append(
                    "\(server), \(workload.path.split(separator: "/").last ?? ""): fewer than \(Wrk.minimumRequests) requests in \(Int(options.duration.seconds.rounded())) s, so measured over \(Int(r.duration.seconds)) s (\(r.requests) requests).")
            }
            if r.non2xx > 0 || r.socketErrors > 0 {
                table.notes.append("\(server) \(workload.method) \(workload.path.split(separator: "/").last ?? ""): \(r.non2xx) non-2xx responses, \(r.socketErrors) socket errors of \(r.requests) requests")
            }
            return [
                .measured(Figure(value: r.requestsPerSecond, unit: .requestsPerSecond)), .measured(.time(r.p50)), .measured(.time(r.p99)),
            ]
        } catch {
            table.notes.append("\(server), \(workload.method) \(workload.path): \(error)")
            return [Cell](repeating: .unavailable("failed"), count: 3)
        }
    }
}
