import Foundation

extension ListenSection {
    /// The table rows: per stream count the open time and the latency percentiles, then the
    /// resident set idle, with each stream count open, and after closing.
    func appendRows(hearth: ServerOutcome, emulator: ServerOutcome, relay: ServerOutcome, to table: inout BenchTable) {
        func row(_ figure: String, _ pick: (ServerOutcome) -> Cell) {
            table.rows.append(BenchRow(figure: figure, hearth: pick(hearth), emulator: pick(emulator), baseline: pick(relay)))
        }
        for n in Self.streamCounts {
            let streams = "\(n.formatted()) streams"
            row("open \(streams) (until each has its first snapshot)") { Self.cell($0, n) { $0.openMs.map(Self.ms) } }
            row("server CPU time while opening \(streams)") { o in
                Self.cell(o, n) { r in
                    guard o.foundProcess, let before = r.idle?.cpuS, let after = r.open?.cpuS else { return nil }
                    return Self.ms((after - before) * 1000)
                }
            }
            row("commit-to-snapshot p50, \(streams) open") { Self.cell($0, n) { $0.p50Ms.map(Self.ms) } }
            row("commit-to-snapshot p99, \(streams) open") { Self.cell($0, n) { $0.p99Ms.map(Self.ms) } }
        }
        let first = Self.streamCounts[0]
        row("server RSS, idle") { Self.memoryCell($0, first) { $0.idle } }
        for n in Self.streamCounts {
            row("server RSS, \(n.formatted()) streams open") { Self.memoryCell($0, n) { $0.withStreams } }
        }
        row("server RSS, after closing every stream") { o in
            guard let last = Self.streamCounts.last(where: { (try? o.runs[$0]?.get()) != nil }) else {
                return o.absent.map(Cell.unavailable) ?? .unavailable("n/a")
            }
            return Self.memoryCell(o, last) { $0.closed }
        }
        for (label, o) in [("Hearth", hearth), ("official emulator", emulator), ("relay", relay)] where o.absent == nil {
            table.notes.append(contentsOf: Self.serverNotes(label, o))
        }
    }

    /// What the section ran, for the notes.
    func setupNotes(hearth: ServerOutcome, emulator: ServerOutcome, relay: ServerOutcome) -> [String] {
        var notes = [
            "client: Benchmarks/listen/listen_latency.py (grpcio aio, google-cloud-firestore's protobuf types) opens N Listen streams at once, "
                + "one document target each (docs/d{i}), over ceil(N/900) HTTP/2 connections, and waits for every stream's first global snapshot "
                + "(NO_CHANGE, empty target_ids, read_time). Then, one at a time, for \(ListenLoadClient.samples) streams spread over the N (after 10 unmeasured warm-up commits): "
                + "Commit (Bearer owner) of a new value to the watched document, timed from sending the Commit to the arrival of that stream's first global "
                + "NO_CHANGE with read_time ≥ the commit time, which must follow the DocumentChange carrying the value (the snapshot a client raises).",
            "one server process per column serves both stream counts, one after the other (the 10,000 run starts when the 1,000 streams are closed); "
                + "RSS is VmRSS of /proc/<pid>/status: Hearth's process, the emulator's JVM (not the gcloud launcher), the relay's Python.",
            "Hearth: .build/release/hearth start --in-memory (open rules) in a child process. Baseline: Benchmarks/listen/listen_relay.py, a grpcio (grpc-core) "
                + "server in Python that answers Listen with ADD, CURRENT and a global NO_CHANGE and pushes a DocumentChange and NO_CHANGE to the watching stream "
                + "on Commit — no storage, no rules, no diffing: the same client and gRPC transport with nothing behind them.",
            "the open time includes the client: one Python thread parsing three or four responses per stream (its CPU time is in the notes below); compare with the relay column.",
            "RSS after closing: memory the server freed but its allocator kept (glibc malloc, the JVM heap); Hearth's listen-session count (GET /emulator/v1/stats) shows whether its engine let go of every stream.",
        ]
        if let s = emulator.startup { notes.append("official emulator ready \(String(format: "%.1f", s.seconds)) s after launch.") }
        if let s = hearth.startup { notes.append("Hearth ready \(String(format: "%.2f", s.seconds)) s after launch.") }
        if let s = relay.startup { notes.append("relay ready \(String(format: "%.1f", s.seconds)) s after launch.") }
        return notes
    }

    /// `value` milliseconds as a figure.
    static func ms(_ value: Double) -> Figure { Figure(value: value, unit: .milliseconds) }

    /// The cell for stream count `n` of one server, `pick` choosing the figure.
    static func cell(_ o: ServerOutcome, _ n: Int, _ pick: (ListenRun) -> Figure?) -> Cell {
        if let absent = o.absent { return .unavailable(absent) }
        switch o.runs[n] {
        case .success(let r): return pick(r).map(Cell.measured) ?? .unavailable("n/a")
        case .failure(let t): return .unavailable(t.text)
        case nil: return .unavailable("not measured")
        }
    }

    /// A resident-set cell (MiB) from the `/proc` figures `pick` chooses.
    static func memoryCell(_ o: ServerOutcome, _ n: Int, _ pick: (ListenRun) -> ListenRun.ProcessFigures?) -> Cell {
        if o.absent == nil, !o.foundProcess { return .unavailable("n/a (process not found)") }
        return cell(o, n) { r in pick(r)?.rssMiB.map { Figure(value: $0, unit: .mebibytes) } }
    }

    /// Per run: connections, samples, the Commit round trip, errors, memory per stream, and
    /// for Hearth the listen sessions its engine held with the streams open and after closing.
    static func serverNotes(_ label: String, _ o: ServerOutcome) -> [String] {
        var notes: [String] = []
        for n in streamCounts {
            guard case .success(let r) = o.runs[n] else { continue }
            var parts: [String] = []
            parts.append("\(r.channels ?? 0) connections")
            parts.append("\(r.samples ?? 0) of \(r.samplesWanted ?? 0) samples")
            if let max = r.maxMs { parts.append("max \(ms(max).text)") }
            if let c = r.commitP50Ms { parts.append("Commit round trip p50 \(ms(c).text)") }
            if let idle = r.idle?.rssKiB, let with = r.withStreams?.rssKiB {
                parts.append(String(format: "%.1f KiB RSS per stream", Double(with - idle) / Double(n)))
            }
            if let t = r.withStreams?.threads { parts.append("\(t) threads") }
            if let open = r.openMs, let before = r.idle?.cpuS, let after = r.open?.cpuS {
                let client = r.clientOpenCpuS.map { String(format: " (client %.1f s)", $0) } ?? ""
                parts.append(String(format: "server CPU while opening %.1f s of %.1f s wall", after - before, open / 1000) + client)
            }
            if let before = r.beforeSamples?.cpuS, let after = r.withStreams?.cpuS, let samples = r.samples, samples > 0 {
                parts.append(String(format: "server CPU per timed commit %.2f ms", (after - before) * 1000 / Double(samples)))
            }
            if let open = r.sessionsOpen {
                parts.append("listen sessions \(open) open, \(r.sessionsAfterClose.map(String.init) ?? "?") after closing")
            }
            if let e = r.streamErrors, e > 0 { parts.append("\(e) streams failed (\(r.firstStreamError ?? ""))") }
            if let p = r.problemCount, p > 0 { parts.append("\(p) sample problems: \((r.problems ?? []).joined(separator: "; "))") }
            notes.append("\(label), \(n.formatted()) streams: " + parts.joined(separator: ", ") + ".")
            if let open = r.sessionsOpen, open != n {
                notes.append("\(label): \(open) listen sessions with \(n) streams open (expected \(n)).")
            }
            if let after = r.sessionsAfterClose, after != 0 {
                notes.append("\(label): \(after) listen sessions left 5 s after closing every stream (expected 0).")
            }
        }
        return notes
    }
}
