import Foundation

extension MemorySection {
    /// The table rows and notes of both servers.
    func appendRows(hearth: ServerFigures, emulator: ServerFigures, to table: inout BenchTable) {
        let none = Cell.unavailable("—")
        func row(_ figure: String, reference: Cell = none, _ pick: (ServerFigures) -> Cell) {
            table.rows.append(BenchRow(figure: figure, hearth: pick(hearth), emulator: pick(emulator), baseline: reference))
        }
        row("server RSS, idle") { f in Self.cell(f, nil) { $0.idle.map(Self.mib) } }
        for step in Self.steps {
            let data = hearth.fileBytes[step].map { Cell.measured(Figure(value: Double($0) / 1_048_576, unit: .mebibytes)) } ?? none
            row("server RSS after loading \(step.formatted()) documents (reference: Hearth's SQLite file)", reference: data) { f in
                Self.cell(f, step) { $0.loaded[step].map(Self.mib) }
            }
        }
        row("server RSS after scanning \(Self.scanDocuments.formatted()) documents (reference: Hearth's SQLite file)", reference: hearth.fileBytes[Self.scanDocuments].map { Cell.measured(Figure(value: Double($0) / 1_048_576, unit: .mebibytes)) } ?? none) { f in
            Self.cell(f, Self.scanDocuments) { $0.afterScans.map(Self.mib) }
        }
        for step in Self.steps {
            row("load \(step.formatted()) documents (REST commits of 500)") { f in
                Self.cell(f, step) { g in
                    let previous = Self.steps.last { $0 < step } ?? 0
                    return g.loadTime[step].map { Figure(value: Double(step - previous) / $0.seconds, unit: .documentsPerSecond) }
                }
            }
        }
        let answer = hearth.query.map { Cell.measured(Figure(value: Double($0.bytes) / 1_048_576, unit: .mebibytes)) } ?? none
        row("peak RSS growth during a RunQuery returning \(Self.queryReturns.formatted()) documents (REST; reference: Hearth's answer)", reference: answer) { f in
            Self.cell(f, Self.queryReturns) { g in
                guard g.query != nil, let before = g.queryBefore, let peak = g.queryPeak else { return nil }
                return Figure(value: Double(peak.peakKiB - before.rssKiB) / 1024, unit: .mebibytes)
            }
        }
        row("RunQuery returning \(Self.queryReturns.formatted()) documents, time to last byte") { f in
            Self.cell(f, Self.queryReturns) { $0.query.map { .time($0.time) } }
        }
        row("peak heap (RssAnon) growth during that RunQuery, REST (reference: Hearth's answer)", reference: answer) { f in
            Self.cell(f, Self.queryReturns) { g in g.queryAnon.map { Figure(value: Double($0.peak - $0.before) / 1024, unit: .mebibytes) } }
        }
        row("peak heap (RssAnon) growth during that RunQuery over gRPC, read slowly (reference: Hearth's answer)", reference: answer) { f in
            Self.cell(f, Self.queryReturns) { g in g.grpcQuery.map { Figure(value: Double($0.peak - $0.before) / 1024, unit: .mebibytes) } }
        }
        row("that RunQuery over gRPC, read slowly, time to the last document") { f in
            Self.cell(f, Self.queryReturns) { g in g.grpcQuery.map { .time(.milliseconds(Int64($0.seconds * 1000))) } }
        }
        row("GetDocument p99, 10,000 documents, one connection") { f in Self.cell(f, 10_000) { $0.getAt10k.map { .time($0.p99) } } }
        row("GetDocument p99, \(Self.scanDocuments.formatted()) documents, idle") { f in
            Self.cell(f, Self.scanDocuments) { $0.getIdleAt1M.map { .time($0.p99) } }
        }
        let idleP99 = hearth.getIdleAt1M.map { Cell.measured(.time($0.p99)) } ?? none
        row("GetDocument p99 while another client scans \(Self.scanDocuments.formatted()) documents (reference: Hearth idle p99)", reference: idleP99) { f in
            Self.cell(f, Self.scanDocuments) { $0.getDuringScan.map { .time($0.p99) } }
        }
        row("one \(Self.scanDocuments.formatted())-document scan (offset \((Self.scanDocuments - 10).formatted()), limit 10), alone") { f in
            Self.cell(f, Self.scanDocuments) { $0.scanAlone.map { .time($0.time) } }
        }
        table.notes.append(contentsOf: notes(hearth: hearth, emulator: emulator))
    }

    /// `m`'s resident set as a figure.
    static func mib(_ m: ProcessMemory) -> Figure { Figure(value: m.rssMiB, unit: .mebibytes) }

    /// The cell of one server at collection size `step` (nil: before any load).
    static func cell(_ f: ServerFigures, _ step: Int?, _ pick: (ServerFigures) -> Figure?) -> Cell {
        if let absent = f.absent { return .unavailable(absent) }
        if let step, let why = f.skipped[step] { return .unavailable(why) }
        return pick(f).map(Cell.measured) ?? .unavailable("failed")
    }

    /// What ran, what bounds each figure, and each server's details.
    func notes(hearth: ServerFigures, emulator: ServerFigures) -> [String] {
        var notes = [
            "Hearth: .build/release/hearth start --data <scratch>/firestore.sqlite (SQLite, synchronous=FULL, open rules) in a child process; "
                + "the emulator: gcloud emulators firestore start (its JVM is measured). One server at a time; both are loaded over REST with the same "
                + "commits of 500 ten-field documents (items/item00000000…, about 600 B of JSON each) and read with the same requests.",
            "RSS is VmRSS of /proc/<pid>/status, 2 s after start (idle) and \(Int(Self.settle.seconds)) s after the last commit of each step. It counts shared-library pages "
                + "(file-backed, shared with every process using them) and pages of memory-mapped files as well as the process's own anonymous memory; "
                + "the split is in the notes below. Bounds: idle RSS is mostly the Swift runtime, Foundation and the other libraries' pages that startup "
                + "touches; loaded RSS adds SQLite's page caches (sized in SQLiteDocumentStore) and what malloc keeps; the JVM's is its heap.",
            "after the scans, RSS holds the pages of the database file the readers mapped (SQLiteDocumentStore.readerMapBytes, 1 GiB) and read: file-backed, "
                + "the kernel's page cache, which would hold them without the mapping too, and gives them back under memory pressure.",
            "peak RSS growth: VmHWM (reset through /proc/<pid>/clear_refs just before the request) minus VmRSS before, while curl reads "
                + "{limit: \(Self.queryReturns)} over \(Self.queryReturns.formatted()) documents and discards the answer. VmHWM counts the database "
                + "pages the readers map as well as the heap; the heap rows (RssAnon, sampled every 20 ms) leave the mapped file out. Hearth reads "
                + "the query in pages of 1,000 from one snapshot (FirestoreEngine.runQueryPages): over REST the answer's text is still built whole "
                + "before it is sent (HTTP/1.1 with a length), so that heap growth is about the answer's size; over gRPC each page is sent, as HTTP/2 "
                + "flow control lets it, before the next is read, so the heap holds about one page however large the answer and however slowly "
                + "the client reads (Benchmarks/memory/query_stream.py: google-cloud-firestore, pausing 0.2 s every 20,000 documents).",
            "GetDocument p99: wrk -t1 -c1 (\(Int(options.warmup.seconds)) s warm-up, \(Int(options.duration.seconds)) s measured) on items/item00000042. "
                + "During the scan, curl runs {offset: \((Self.scanDocuments - 10).formatted()), limit: 10} back to back on its own connection: the "
                + "server reads every document and answers 10. On a 2-core machine the scan, wrk and the server share both cores, so the bound is the CPU "
                + "left to the GetDocument, not a lock: the goal (issue 14) is at most 2× the idle p99.",
        ]
        for (label, f) in [("Hearth", hearth), ("official emulator", emulator)] where f.absent == nil {
            var parts: [String] = []
            if let s = f.startup { parts.append(String(format: "ready %.2f s after launch", s.seconds)) }
            if let m = f.idle { parts.append("idle \(m.text), \(m.threads) threads") }
            for step in Self.steps {
                if let m = f.loaded[step] { parts.append("\(step.formatted()) documents \(m.text), \(m.threads) threads") }
            }
            if let m = f.afterScans { parts.append("after the scans \(m.text)") }
            if let q = f.query, let before = f.queryBefore, let peak = f.queryPeak {
                parts.append(
                    String(
                        format: "RunQuery %@ documents: answer %.1f MiB in %.1f s, RSS %.1f MiB before, peak %.1f MiB, %@ %d s after",
                        Self.queryReturns.formatted(), Double(q.bytes) / 1_048_576, q.time.seconds, before.rssMiB, Double(peak.peakKiB) / 1024,
                        f.queryAfter.map { String(format: "%.1f MiB", $0.rssMiB) } ?? "?", Int(Self.settle.seconds)))
            }
            if let g = f.getAt10k { parts.append("GetDocument at 10,000: p50 \(Figure.time(g.p50).text), \(Figure(value: g.requestsPerSecond, unit: .requestsPerSecond).text)") }
            if let g = f.getIdleAt1M { parts.append("GetDocument at 1,000,000 idle: p50 \(Figure.time(g.p50).text), \(Figure(value: g.requestsPerSecond, unit: .requestsPerSecond).text)") }
            if let g = f.getDuringScan {
                parts.append(
                    "during scans: p50 \(Figure.time(g.p50).text), \(Figure(value: g.requestsPerSecond, unit: .requestsPerSecond).text), "
                        + "\(f.scansDuring.count) scans of \(f.scansDuring.map { Figure.time($0).text }.joined(separator: ", "))")
            }
            notes.append("\(label): " + parts.joined(separator: "; ") + ".")
            notes.append(contentsOf: f.notes)
        }
        notes.append(contentsOf: hearth.absent == nil ? [] : hearth.notes)
        notes.append(contentsOf: emulator.absent == nil ? [] : emulator.notes)
        return notes
    }
}
