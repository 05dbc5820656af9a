import Foundation

/// Issue 5: commit-to-snapshot latency (p50, p99) with 1,000 and 10,000 open Listen streams,
/// the time to open them and the server's resident set, on Hearth (`hearth start --in-memory`
/// as a child process), the official emulator and a grpcio relay with no database — one
/// server at a time, the same Python load client for all three
/// (`Benchmarks/listen/listen_latency.py`).
struct ListenSection {
    /// Run settings.
    let options: BenchOptions
    /// Scratch directory of this run.
    let scratch: URL
    /// Progress lines go here (stderr).
    let progress: @Sendable (String) -> Void

    /// Open Listen streams measured, in order, on one server process.
    static let streamCounts = [1_000, 10_000]

    /// What one server gave: a run (or why not) per stream count, and how it started.
    struct ServerOutcome {
        /// The client's report per stream count, or the text for the cells when there is none.
        var runs: [Int: Result<ListenRun, CellText>] = [:]
        /// Why nothing was measured (the server did not start), if so.
        var absent: String?
        /// Launch to ready.
        var startup: Duration?
        /// Whether the process whose memory is read was found.
        var foundProcess = false
    }

    /// A cell's text for a figure that was not measured.
    struct CellText: Error {
        /// E.g. `n/a: 6,358 of 10,000 opened in 45 s`.
        var text: String
    }

    /// Runs the section.
    func run() async -> BenchTable {
        var table = BenchTable(title: "Issue 5 — Listen: commit-to-snapshot latency over open streams", baselineName: "gRPC relay (grpcio)")
        guard let python = await Self.findPython() else {
            table.rows.append(
                BenchRow(
                    figure: "commit-to-snapshot latency", hearth: .unavailable("not measured"), emulator: .unavailable("not measured"),
                    baseline: .unavailable("not measured")))
            table.notes.append(
                "not measured: no Python with grpcio and google-cloud-firestore (.build/bench-venv from scripts/bench-deps.sh, or .venv from scripts/interop-venv.sh)."
            )
            return table
        }
        let client = ListenLoadClient(python: python, script: PackageRoot.path("Benchmarks/listen/listen_latency.py"))

        progress("listen: starting Hearth (release build, --in-memory)")
        let hearth = await measure("Hearth", client: client, openTimeouts: [1_000: .seconds(20), 10_000: .seconds(30)], into: &table) {
            () throws(BenchError) -> ListenServer in try await ListenServer.hearth(directory: scratch)
        }
        progress("listen: starting the gRPC relay baseline")
        let relay = await measure("relay", client: client, openTimeouts: [1_000: .seconds(20), 10_000: .seconds(30)], into: &table) {
            () throws(BenchError) -> ListenServer in try await ListenServer.relay(python: python, directory: scratch)
        }
        var emulator = ServerOutcome(absent: "skipped (--no-emulator)")
        if options.emulator {
            progress("listen: starting the official emulator")
            emulator = await measure("emulator", client: client, openTimeouts: [1_000: .seconds(30), 10_000: .seconds(45)], into: &table) {
                () throws(BenchError) -> ListenServer in try await ListenServer.emulator(directory: scratch)
            }
        }
        appendRows(hearth: hearth, emulator: emulator, relay: relay, to: &table)
        table.notes.insert(contentsOf: setupNotes(hearth: hearth, emulator: emulator, relay: relay), at: 0)
        return table
    }

    /// A Python that can import grpc and google-cloud-firestore: the bench venv, else the interop venv.
    static func findPython() async -> String? {
        for candidate in [".build/bench-venv/bin/python", ".venv/bin/python"].map(PackageRoot.path) {
            guard FileManager.default.isExecutableFile(atPath: candidate) else { continue }
            if (try? await Tools.run(candidate, ["-c", "import grpc, google.cloud.firestore_v1"])) != nil { return candidate }
        }
        return nil
    }

    /// Starts one server, runs the client for each stream count against it, stops it.
    private func measure(
        _ label: String, client: ListenLoadClient, openTimeouts: [Int: Duration], into table: inout BenchTable,
        start: () async throws(BenchError) -> ListenServer
    ) async -> ServerOutcome {
        var outcome = ServerOutcome()
        let server: ListenServer
        do {
            server = try await start()
        } catch {
            if case .missingTool(let why) = error {
                outcome.absent = why
            } else {
                outcome.absent = "failed"
                table.notes.append("\(label): \(error)")
            }
            return outcome
        }
        outcome.startup = server.startup
        outcome.foundProcess = server.pid != nil
        if server.pid == nil { table.notes.append("\(label): its process was not found in /proc, so no memory figures.") }
        var previousOpened = true
        for n in Self.streamCounts {
            guard previousOpened else {
                outcome.runs[n] = .failure(CellText(text: "n/a: smaller run failed"))
                continue
            }
            let timeout = openTimeouts[n] ?? .seconds(30)
            progress("listen: \(label), \(n.formatted()) streams")
            do {
                let r = try await client.run(
                    host: server.host, streams: n, label: label, pid: server.pid, statsURL: server.statsURL, openTimeout: timeout)
                if let error = r.error {
                    table.notes.append("\(label), \(n.formatted()) streams: \(error)")
                    let opened = r.opened ?? 0
                    outcome.runs[n] = .failure(
                        CellText(
                            text: opened < n
                                ? "n/a: \(opened.formatted()) of \(n.formatted()) opened in \(Int(timeout.seconds)) s" : "failed"))
                    previousOpened = false
                } else {
                    outcome.runs[n] = .success(r)
                }
            } catch {
                table.notes.append("\(label), \(n.formatted()) streams: \(error)")
                outcome.runs[n] = .failure(CellText(text: "failed"))
                previousOpened = false
            }
        }
        await server.stop()
        return outcome
    }
}
