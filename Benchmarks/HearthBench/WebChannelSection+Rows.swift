import Foundation

extension WebChannelSection {
    /// The table rows (latency per transport, then sessions and memory) and the notes.
    /// Without a browser (`browserSkipped`: no SDK, Chromium or chromedriver) the latency rows are one row.
    func appendRows(
        hearth: ServerOutcome, emulator: ServerOutcome, browserSkipped: String?, to table: inout BenchTable
    ) {
        func row(_ figure: String, _ pick: (ServerOutcome) -> Cell) {
            table.rows.append(
                BenchRow(figure: figure, hearth: pick(hearth), emulator: pick(emulator), baseline: .unavailable("—")))
        }
        let transports: [(String, KeyPath<WebChannelBrowserRun, WebChannelBrowserRun.Transport?>)] = [
            ("default transport", \.default), ("experimentalForceLongPolling", \.longPolling),
        ]
        if browserSkipped != nil {
            row("setDoc → onSnapshot in headless Chromium") { o in
                o.absent.map(Cell.unavailable) ?? .unavailable("skipped")
            }
        } else {
            for (name, path) in transports {
                row("setDoc → onSnapshot p50, \(name)") { Self.browserCell($0, path) { $0.p50Ms } }
                row("setDoc → onSnapshot p99, \(name)") { Self.browserCell($0, path) { $0.p99Ms } }
            }
            for (name, path) in [("cold page and server", \WebChannelBrowserRun.cold)] + transports {
                row("onSnapshot → first snapshot, \(name)") { Self.browserCell($0, path) { $0.firstSnapshotMs } }
            }
        }
        let k = Self.sessions.formatted()
        row("Listen sessions that got CURRENT, of \(k)") { o in
            Self.sessionsCell(o) { $0.current.map { Figure(value: Double($0), unit: .count) } }
        }
        row("open \(k) sessions, \(Self.parallel) at a time") { o in Self.sessionsCell(o) { $0.openMs.map(Self.ms) } }
        row("server RSS before the sessions") { o in Self.memoryCell(o) { $0.idleKiB.map(Self.mib) } }
        row("server RSS, \(k) sessions open") { o in Self.memoryCell(o) { $0.openKiB.map(Self.mib) } }
        row("server RSS per 1,000 sessions") { o in
            Self.memoryCell(o) { r in
                guard let idle = r.idleKiB, let open = r.openKiB, let n = r.opened, n > 0 else { return nil }
                return Self.mib(Double(open - idle) * 1000 / Double(n))
            }
        }
        row("server RSS 11 s after terminating them") { o in Self.memoryCell(o) { $0.closedKiB.map(Self.mib) } }
        table.notes.insert(contentsOf: setupNotes(), at: 0)
        if let why = browserSkipped { table.notes.insert("browser latency skipped: \(why).", at: 0) }
        for (label, o) in [("Hearth", hearth), ("official emulator", emulator)] where o.absent == nil {
            table.notes.append(contentsOf: Self.serverNotes(label, o))
        }
    }

    /// What the section ran.
    func setupNotes() -> [String] {
        [
            "browser: the published Firebase JS SDK \(Self.sdkVersion) (the CDN ES-module builds, served from "
                + "loopback with an import map) in headless Chromium driven through chromedriver (W3C WebDriver). "
                + "One page, two Firestore instances (two apps): a listener on one document in the first, "
                + "\(Self.writes) sequential setDoc() calls of a new value in the second (after \(Self.warmups) "
                + "unmeasured), each timed with performance.now() from the call to the listener callback that sees "
                + "the value; the next write starts when that callback ran and setDoc() resolved. A fresh page per "
                + "transport; the listener's Listen and the writer's Write are separate WebChannel sessions, as in "
                + "two tabs.",
            "sessions: Benchmarks/webchannel/webchannel_bench.py (Tests/Interop/webchannel_client.py) opens "
                + "\(Self.sessions.formatted()) Listen sessions, \(Self.parallel) at a time, each an opening POST with "
                + "one document target and a streamed back channel (CI=0) read until the target's CURRENT, then "
                + "kept open. RSS is VmRSS of /proc/<pid>/status (Hearth's process, the emulator's JVM) before, 2 s "
                + "after the last session opened, and 11 s after closing every back channel and terminating every "
                + "session (Hearth returns freed heap every 10 s). The JVM's heap grows and shrinks with its "
                + "collector: the emulator's per-session figure is what its heap held then, not a bound. The "
                + "emulator logs a connection reset for many of the back channels the client closes.",
            "Hearth: .build/release/hearth start --in-memory (open rules) in a child process; the emulator: gcloud "
                + "emulators firestore start on an ephemeral port. One server at a time, the browser runs first. "
                + "No baseline column: the two servers are compared with each other. Before the measured pages, "
                + "a cold one (default transport, \(Self.warmups) writes) loads the SDK into the browser and opens "
                + "the server's first Listen (the emulator's JVM is cold then); only its first snapshot is shown.",
        ]
    }

    /// Per server: samples and problems, maxima, console lines, session counts and errors, log lines.
    static func serverNotes(_ label: String, _ o: ServerOutcome) -> [String] {
        var notes: [String] = []
        if case .success(let b) = o.browser {
            if let e = b.error { notes.append("\(label), browser: \(e)") }
            for (name, t) in [("cold page", b.cold), ("default", b.default), ("long polling", b.longPolling)] {
                guard let t else { continue }
                var parts: [String] = []
                if let e = t.error { parts.append("error: \(e)") }
                if let wanted = t.samplesWanted, wanted > 0 { parts.append("\(t.samples ?? 0) of \(wanted) samples") }
                if let lo = t.minMs, let hi = t.maxMs { parts.append("min \(ms(lo).text), max \(ms(hi).text)") }
                if let s = t.snapshots { parts.append("\(s) listener callbacks") }
                if let slow = t.slowest, !slow.isEmpty {
                    let list = slow.map { "#\($0.write) \(ms($0.ms).text)" }.joined(separator: ", ")
                    parts.append("slowest writes \(list)")
                }
                if let p = t.problemCount, p > 0 {
                    parts.append("\(p) problems: \((t.problems ?? []).joined(separator: "; "))")
                }
                if let c = t.consoleCount, c > 0 {
                    let first = (t.console ?? []).prefix(2).joined(separator: " | ")
                    parts.append("\(c) console errors/warnings, first: \(first)")
                }
                notes.append("\(label), browser, \(name): " + parts.joined(separator: ", ") + ".")
            }
        }
        if case .success(let s) = o.sessions {
            var parts = ["\(s.opened ?? 0) of \(s.sessions) opened", "\(s.current ?? 0) got CURRENT"]
            parts.append("\(s.terminated ?? 0) terminated with 200")
            if let open = s.sessionsOpen {
                let after = s.sessionsAfterClose.map(String.init) ?? "?"
                parts.append("listen sessions \(open) open, \(after) after terminating")
            }
            if let e = s.errors, e > 0 { parts.append("\(e) failed (\(s.firstError ?? ""))") }
            notes.append("\(label), sessions: " + parts.joined(separator: ", ") + ".")
        }
        if !o.logErrors.isEmpty {
            var counts: [String: Int] = [:]
            for line in o.logErrors { counts[line, default: 0] += 1 }
            let top = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.prefix(3)
            notes.append(
                "\(label): its output names \(o.logErrors.count) errors or exceptions: "
                    + top.map { "\($0.value)× \($0.key)" }.joined(separator: "; ") + ".")
        }
        return notes
    }

    /// `value` milliseconds as a figure.
    static func ms(_ value: Double) -> Figure { Figure(value: value, unit: .milliseconds) }

    /// `kib` KiB as a MiB figure.
    static func mib<T: BinaryInteger>(_ kib: T) -> Figure { Figure(value: Double(kib) / 1024, unit: .mebibytes) }

    /// See `mib(_:)`.
    static func mib(_ kib: Double) -> Figure { Figure(value: kib / 1024, unit: .mebibytes) }

    /// A latency cell of one transport's browser run.
    static func browserCell(
        _ o: ServerOutcome, _ path: KeyPath<WebChannelBrowserRun, WebChannelBrowserRun.Transport?>,
        _ pick: (WebChannelBrowserRun.Transport) -> Double?
    ) -> Cell {
        if let absent = o.absent { return .unavailable(absent) }
        switch o.browser {
        case nil: return .unavailable("skipped")
        case .failure(let t): return .unavailable(t.text)
        case .success(let r):
            guard let t = r[keyPath: path] else { return .unavailable(r.error == nil ? "n/a" : "failed") }
            if t.error != nil { return .unavailable("failed") }
            return pick(t).map { .measured(ms($0)) } ?? .unavailable("n/a")
        }
    }

    /// A cell of the sessions run.
    static func sessionsCell(_ o: ServerOutcome, _ pick: (WebChannelSessionsRun) -> Figure?) -> Cell {
        if let absent = o.absent { return .unavailable(absent) }
        switch o.sessions {
        case nil: return .unavailable("not measured")
        case .failure(let t): return .unavailable(t.text)
        case .success(let r): return pick(r).map(Cell.measured) ?? .unavailable("n/a")
        }
    }

    /// A resident-set cell of the sessions run.
    static func memoryCell(_ o: ServerOutcome, _ pick: (WebChannelSessionsRun) -> Figure?) -> Cell {
        if o.absent == nil, !o.foundProcess { return .unavailable("n/a (process not found)") }
        return sessionsCell(o, pick)
    }
}
