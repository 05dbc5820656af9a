/// What `Benchmarks/webchannel/webchannel_bench.py browser` printed: one run of the JS SDK
/// page per transport; any field may be missing when a run stopped early (`error` says why).
struct WebChannelBrowserRun: Sendable, Decodable {
    /// One transport's latencies, measured in the page with `performance.now()`.
    struct Transport: Sendable, Decodable {
        /// Timed writes, and asked for.
        var samples: Int?
        /// See `samples`.
        var samplesWanted: Int?
        /// setDoc() call to the listener callback seeing the value, milliseconds.
        var p50Ms: Double?
        /// See `p50Ms`.
        var p99Ms: Double?
        /// See `p50Ms`.
        var maxMs: Double?
        /// See `p50Ms`.
        var minMs: Double?
        /// One timed write: its number among the timed ones (from 0) and its latency.
        struct Sample: Sendable, Decodable {
            /// See `Sample`.
            var write: Int
            /// See `Sample`.
            var ms: Double
        }

        /// The five slowest timed writes, slowest first.
        var slowest: [Sample]?
        /// onSnapshot() call to its first callback (the session's set-up), milliseconds.
        var firstSnapshotMs: Double?
        /// Listener callbacks in all (warm-ups and timed writes).
        var snapshots: Int?
        /// The first few writes whose snapshot did not come in time.
        var problems: [String]?
        /// How many writes had a problem.
        var problemCount: Int?
        /// The first console.error / console.warn lines of the page (the SDK logs there).
        var console: [String]?
        /// How many such lines in all.
        var consoleCount: Int?
        /// Why the run failed (a page or WebDriver error).
        var error: String?
    }

    /// Timed writes per transport.
    var writes: Int?
    /// Unmeasured writes before them.
    var warmups: Int?
    /// The first page (default transport, warm-up writes only): the browser's first SDK load and
    /// the server's first Listen; only its first snapshot is reported.
    var cold: Transport?
    /// The SDK's default transport (WebChannel with a streamed back channel).
    var `default`: Transport?
    /// `experimentalForceLongPolling: true`.
    var longPolling: Transport?
    /// Why nothing ran (chromedriver or Chromium did not start).
    var error: String?
}

/// What `Benchmarks/webchannel/webchannel_bench.py sessions` printed.
struct WebChannelSessionsRun: Sendable, Decodable {
    /// Sessions asked for (K), and opened at once.
    var sessions: Int
    /// See `sessions`.
    var parallel: Int?
    /// Sessions whose opening POST and back channel succeeded, and of them those whose back
    /// channel delivered the target's CURRENT.
    var opened: Int?
    /// See `opened`.
    var current: Int?
    /// From the first opening POST until the last session was open, milliseconds.
    var openMs: Double?
    /// Server `VmRSS` before, with every session open (2 s after the last), and 11 s after
    /// terminating them all, KiB.
    var idleKiB: Int?
    /// See `idleKiB`.
    var openKiB: Int?
    /// See `idleKiB`.
    var closedKiB: Int?
    /// Terminate POSTs answered 200.
    var terminated: Int?
    /// Hearth's `GET /emulator/v1/stats` `listenSessions` with the sessions open and after.
    var sessionsOpen: Int?
    /// See `sessionsOpen`.
    var sessionsAfterClose: Int?
    /// Sessions that failed to open, and the first failure.
    var errors: Int?
    /// See `errors`.
    var firstError: String?
}
