import Dispatch
import Synchronization

/// Copies the WAL back into the database file on a queue of its own, so that no commit waits
/// for it: SQLite's automatic checkpoint runs inside the commit that takes the WAL past 1,000
/// pages, and a fan-out's commit of 10,001 documents (~1,100 pages) paid it every time.
///
/// The writer reports the WAL's size after each commit (`walCommitted`); past
/// `pagesPerCheckpoint` a `PASSIVE` checkpoint is queued unless one is already queued. A
/// passive checkpoint copies what no reader still needs, without blocking readers or the
/// writer; what it leaves is copied by a later one. Durability is the commits': a commit's
/// WAL frames are synced before it returns (`synchronous=FULL`), whatever the checkpoint does.
/// Source: https://www.sqlite.org/wal.html ("Checkpointing", "Application-initiated checkpoints").
final class SQLiteCheckpointer: Sendable {
    /// WAL size, in pages, that queues a checkpoint: SQLite's own default threshold.
    static let pagesPerCheckpoint = 1000

    private struct State {
        var queued = false
        var closed = false
    }

    /// The database file.
    let path: String
    private let state = Mutex(State())
    /// Serial: one checkpoint at a time; `close` waits for the running one.
    private let queue = DispatchQueue(label: "hearth.sqlite.checkpoint", qos: .utility)
    /// Checkpoints run so far (tests and diagnostics).
    let checkpoints = Atomic<Int>(0)

    /// A checkpointer of the database file at `path`.
    init(path: String) { self.path = path }

    /// The writer committed and the WAL now holds `pages` pages.
    func walCommitted(pages: Int) {
        guard pages >= Self.pagesPerCheckpoint else { return }
        let start = state.withLock { s -> Bool in
            if s.queued || s.closed { return false }
            s.queued = true
            return true
        }
        if start { queue.async { self.checkpoint() } }
    }

    /// Runs one passive checkpoint on a connection of its own (opened for it, so no
    /// connection outlives `close`). Failures are left to the next one: the WAL stays valid.
    private func checkpoint() {
        let run = state.withLock { s -> Bool in
            s.queued = false
            return !s.closed
        }
        guard run else { return }
        guard let connection = try? SQLiteConnection(path: path) else { return }
        defer { connection.close() }
        try? connection.execute(
            "PRAGMA busy_timeout=\(SQLiteDocumentStore.busyTimeoutMilliseconds); PRAGMA wal_checkpoint(PASSIVE);")
        checkpoints.add(1, ordering: .relaxed)
    }

    /// Stops queueing checkpoints and waits for the running one.
    func close() {
        state.withLock { $0.closed = true }
        queue.sync {}
    }
}
