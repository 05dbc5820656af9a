/// What one run of `Benchmarks/listen/listen_latency.py` printed: one JSON object; every
/// field but `streams` may be missing when the run stopped early (`error` says why).
struct ListenRun: Sendable, Decodable {
    /// `/proc/<pid>` figures of the server at one moment.
    struct ProcessFigures: Sendable, Decodable {
        /// Resident set (`VmRSS`), KiB.
        var rssKiB: Int?
        /// Threads (`Threads`).
        var threads: Int?
        /// Open file descriptors (entries of `/proc/<pid>/fd`).
        var fds: Int?
        /// User plus system CPU the process had used so far, seconds (`/proc/<pid>/stat`).
        var cpuS: Double?

        /// The resident set in MiB, if read.
        var rssMiB: Double? { rssKiB.map { Double($0) / 1024 } }
    }

    /// Listen streams asked for (N).
    var streams: Int
    /// gRPC channels (HTTP/2 connections) they were spread over.
    var channels: Int?
    /// Streams that had their first global snapshot within the open timeout.
    var opened: Int?
    /// Milliseconds from starting the first stream until every stream had its first snapshot.
    var openMs: Double?
    /// Commit-to-snapshot latency percentiles and maximum over the samples, milliseconds.
    var p50Ms: Double?
    /// See `p50Ms`.
    var p99Ms: Double?
    /// See `p50Ms`.
    var maxMs: Double?
    /// Median round trip of the Commit RPC itself, milliseconds.
    var commitP50Ms: Double?
    /// CPU seconds the client itself used while opening the streams.
    var clientOpenCpuS: Double?
    /// Samples measured, and asked for.
    var samples: Int?
    /// See `samples`.
    var samplesWanted: Int?
    /// The first few sample problems (no snapshot in time, snapshot without the change, …).
    var problems: [String]?
    /// How many samples had a problem.
    var problemCount: Int?
    /// Streams that ended with an error before the run closed them.
    var streamErrors: Int?
    /// The first such error.
    var firstStreamError: String?
    /// Why the run stopped early (e.g. not every stream opened in time).
    var error: String?
    /// Server figures before opening, right after every stream opened, before and after the
    /// timed samples (streams still open), and after closing every stream.
    var idle: ProcessFigures?
    /// See `idle`.
    var open: ProcessFigures?
    /// See `idle`.
    var beforeSamples: ProcessFigures?
    /// See `idle`.
    var withStreams: ProcessFigures?
    /// See `idle`.
    var closed: ProcessFigures?
    /// Hearth's `GET /emulator/v1/stats` `listenSessions` with the streams open and after closing.
    var sessionsOpen: Int?
    /// See `sessionsOpen`.
    var sessionsAfterClose: Int?
}
