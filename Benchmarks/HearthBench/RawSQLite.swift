import CSQLite
import Foundation

/// The benchmark's one door to SQLite's C API: the physical baselines (raw inserts, a raw
/// indexed range query) run here, beside Hearth's store, on the same SQLite library.
///
/// Deliberately minimal: no error recovery beyond throwing, one connection, statements
/// finalized by their owner. Never used by Hearth itself (the store has its own door).
final class RawSQLite {
    /// A prepared statement; `finalize()` it when done.
    final class Statement {
        fileprivate let handle: OpaquePointer
        fileprivate init(_ handle: OpaquePointer) { self.handle = handle }

        /// Binds text to the 1-based parameter `index`.
        func bind(_ index: Int32, _ text: String) {
            sqlite3_bind_text(handle, index, text, -1, RawSQLite.transient)
        }

        /// Binds an integer to the 1-based parameter `index`.
        func bind(_ index: Int32, _ value: Int64) { sqlite3_bind_int64(handle, index, value) }

        /// Binds a double to the 1-based parameter `index`.
        func bind(_ index: Int32, _ value: Double) { sqlite3_bind_double(handle, index, value) }

        /// Binds a blob to the 1-based parameter `index`.
        func bind(_ index: Int32, _ bytes: [UInt8]) {
            _ = bytes.withUnsafeBytes { sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), RawSQLite.transient) }
        }

        /// Steps once. - Returns: true for a row, false when done.
        /// - Throws: `BenchError.childFailed` with SQLite's result code.
        func step() throws(BenchError) -> Bool {
            let rc = sqlite3_step(handle)
            if rc == SQLITE_ROW { return true }
            if rc == SQLITE_DONE { return false }
            throw .childFailed("sqlite3_step: \(rc) \(String(cString: sqlite3_errstr(rc)))")
        }

        /// Resets for the next execution and clears the bindings.
        func reset() {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }

        /// Text of the 0-based result column `column`.
        func text(_ column: Int32) -> String {
            guard let p = sqlite3_column_text(handle, column) else { return "" }
            return String(cString: p)
        }

        /// Bytes of the 0-based result column `column` (copied).
        func blob(_ column: Int32) -> [UInt8] {
            let count = Int(sqlite3_column_bytes(handle, column))
            guard count > 0, let p = sqlite3_column_blob(handle, column) else { return [] }
            return Array(UnsafeRawBufferPointer(start: p, count: count))
        }

        /// Releases the statement.
        func finalize() { sqlite3_finalize(handle) }
    }

    /// `SQLITE_TRANSIENT`: SQLite copies bound values before the call returns.
    fileprivate static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

    private let db: OpaquePointer
    /// The database file.
    let path: String

    /// Opens (creating) `path` in WAL mode with `synchronous` (`FULL`, `NORMAL`, `OFF`).
    /// - Throws: `BenchError.childFailed` when SQLite refuses.
    init(path: String, synchronous: String) throws(BenchError) {
        var handle: OpaquePointer?
        let rc = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        guard rc == SQLITE_OK, let handle else {
            sqlite3_close(handle)
            throw .childFailed("sqlite3_open_v2(\(path)): \(rc)")
        }
        db = handle
        self.path = path
        try exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=\(synchronous); PRAGMA cache_size=-32768; PRAGMA temp_store=MEMORY;")
    }

    /// Runs statements that return no rows.
    /// - Throws: `BenchError.childFailed` with SQLite's message.
    func exec(_ sql: String) throws(BenchError) {
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(db, sql, nil, nil, &message)
        if rc != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? "\(rc)"
            sqlite3_free(message)
            throw .childFailed("sqlite3_exec(\(sql.prefix(60))): \(text)")
        }
    }

    /// Prepares one statement.
    /// - Throws: `BenchError.childFailed` with SQLite's message.
    func prepare(_ sql: String) throws(BenchError) -> Statement {
        var handle: OpaquePointer?
        let rc = sqlite3_prepare_v2(db, sql, -1, &handle, nil)
        guard rc == SQLITE_OK, let handle else {
            throw .childFailed("sqlite3_prepare_v2(\(sql.prefix(60))): \(String(cString: sqlite3_errmsg(db)))")
        }
        return Statement(handle)
    }

    /// Closes the connection and deletes the file and its WAL.
    func closeAndRemove() {
        sqlite3_close_v2(db)
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
}
