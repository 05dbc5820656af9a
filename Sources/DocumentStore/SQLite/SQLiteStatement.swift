import CSQLite

/// A compiled statement of one `SQLiteConnection`: binding (1-based), stepping and reading
/// columns (0-based). Owned by its connection's cache.
final class SQLiteStatement {
    private var handle: OpaquePointer?
    private let connection: OpaquePointer
    /// The SQL text, kept for error messages.
    let sql: String

    /// Wraps a prepared statement of `connection` (called by `SQLiteConnection.prepare`).
    init(handle: OpaquePointer, connection: OpaquePointer, sql: String) {
        self.handle = handle
        self.connection = connection
        self.sql = sql
    }

    /// `SQLITE_TRANSIENT`: SQLite copies bound bytes before the bind call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    private func check(_ rc: Int32) throws(SQLiteError) {
        guard rc == SQLITE_OK else {
            throw SQLiteError(code: rc, message: String(cString: sqlite3_errmsg(connection)), sql: sql)
        }
    }

    /// Resets the statement and clears its bindings, ending any read it holds.
    func reset() {
        guard let handle else { return }
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Binds an integer to parameter `index` (1-based).
    /// - Throws: `SQLiteError` for a bad index.
    func bind(_ value: Int64, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_int64(handle, index, value))
    }

    /// Binds UTF-8 text.
    /// - Throws: `SQLiteError` for a bad index.
    func bind(_ value: String, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_text(handle, index, value, -1, Self.transient))
    }

    /// Binds bytes as a BLOB (an empty array binds an empty BLOB, never NULL).
    /// - Throws: `SQLiteError` for a bad index.
    func bind(_ value: [UInt8], at index: Int32) throws(SQLiteError) {
        if value.isEmpty {
            try check(sqlite3_bind_zeroblob(handle, index, 0))
            return
        }
        let rc = value.withUnsafeBytes { sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), Self.transient) }
        try check(rc)
    }

    /// Advances to the next row.
    /// - Returns: true when a row is available, false when done.
    /// - Throws: `SQLiteError` for any failure (busy after the timeout, constraint, I/O).
    func step() throws(SQLiteError) -> Bool {
        let rc = sqlite3_step(handle)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        throw SQLiteError(code: rc, message: String(cString: sqlite3_errmsg(connection)), sql: sql)
    }

    /// Runs a statement that returns no rows, then resets it.
    /// - Throws: `SQLiteError` when it fails.
    func run() throws(SQLiteError) {
        defer { reset() }
        _ = try step()
    }

    /// True when column `index` of the current row is NULL.
    func isNull(at index: Int32) -> Bool { sqlite3_column_type(handle, index) == SQLITE_NULL }

    /// Column `index` of the current row as an integer.
    func int64(at index: Int32) -> Int64 { sqlite3_column_int64(handle, index) }

    /// Column `index` as text (empty for NULL).
    func text(at index: Int32) -> String {
        guard let p = sqlite3_column_text(handle, index) else { return "" }
        return String(cString: p)
    }

    /// Column `index` as bytes, without copying: valid only until the next `step`/`reset`.
    func blob(at index: Int32) -> UnsafeRawBufferPointer {
        let pointer = sqlite3_column_blob(handle, index)
        let count = Int(sqlite3_column_bytes(handle, index))
        guard let pointer, count > 0 else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return UnsafeRawBufferPointer(start: pointer, count: count)
    }

    /// Column `index` copied into an array.
    func bytes(at index: Int32) -> [UInt8] { Array(blob(at: index)) }

    /// Destroys the compiled statement (called by the connection on close).
    func finalize() {
        if let handle { sqlite3_finalize(handle) }
        handle = nil
    }
}
