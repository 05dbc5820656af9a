import CSQLite

/// One SQLite connection: together with `SQLiteStatement`, the only door to the sqlite3 C API
/// in Hearth (docs/ARCHITECTURE.md rule 3).
///
/// Prepared statements are cached by SQL text, so each distinct statement is compiled once
/// per connection. Not thread-safe: a connection has one owner at a time (the store's writer
/// lock, or the snapshot that checked it out of the reader pool); SQLite is opened in
/// multi-thread mode (`SQLITE_OPEN_NOMUTEX`) accordingly.
final class SQLiteConnection {
    private var handle: OpaquePointer?
    private var statements: [String: SQLiteStatement] = [:]
    /// The hook `onWALCommit` installed, kept alive as long as the connection.
    private var walHook: WALHook?

    /// Opens (creating when missing) the database file at `path`.
    /// - Throws: `SQLiteError` when the file cannot be opened.
    init(path: String) throws(SQLiteError) {
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(db)
            throw SQLiteError(code: rc, message: message, sql: nil)
        }
        sqlite3_extended_result_codes(db, 1)
        handle = db
    }

    deinit { close() }

    /// True until `close()`.
    var isOpen: Bool { handle != nil }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int { handle.map { Int(sqlite3_changes($0)) } ?? 0 }

    /// The rowid of the last successful INSERT.
    var lastInsertRowID: Int64 { handle.map { sqlite3_last_insert_rowid($0) } ?? 0 }

    /// Runs one or more statements that return no rows (DDL, pragmas, BEGIN/COMMIT).
    /// - Throws: `SQLiteError` carrying `sql` when any statement fails.
    func execute(_ sql: String) throws(SQLiteError) {
        guard let handle else { throw SQLiteError(code: SQLITE_MISUSE, message: "connection is closed", sql: sql) }
        var errorMessage: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &errorMessage)
        guard rc == SQLITE_OK else {
            let message = errorMessage.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(errorMessage)
            throw SQLiteError(code: rc, message: message, sql: sql)
        }
    }

    /// Runs one statement that returns no rows through the statement cache: compiled once per
    /// connection, for the transaction statements every read and write runs (`BEGIN`,
    /// `COMMIT`), which `execute` would parse again each time.
    /// - Throws: `SQLiteError` carrying `sql` when it fails.
    func run(_ sql: String) throws(SQLiteError) {
        try prepare(sql).run()
    }

    /// The cached statement for `sql`, reset and with its bindings cleared.
    ///
    /// Callers must `reset()` it when done (a `defer` right after this call), so a statement
    /// never keeps a read open; the same SQL must not be used re-entrantly.
    /// - Throws: `SQLiteError` when `sql` does not compile.
    func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let cached = statements[sql] {
            cached.reset()
            return cached
        }
        guard let handle else { throw SQLiteError(code: SQLITE_MISUSE, message: "connection is closed", sql: sql) }
        var stmt: OpaquePointer?
        let rc = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &stmt, nil)
        guard rc == SQLITE_OK, let stmt else {
            throw SQLiteError(code: rc, message: String(cString: sqlite3_errmsg(handle)), sql: sql)
        }
        let statement = SQLiteStatement(handle: stmt, connection: handle, sql: sql)
        statements[sql] = statement
        return statement
    }

    /// Runs `body` inside `BEGIN IMMEDIATE … COMMIT`; rolls back when it throws.
    ///
    /// "The closure is the transaction": nothing escapes half-applied.
    /// - Throws: whatever `body` throws, or `SQLiteError` from BEGIN/COMMIT.
    func writeTransaction<T>(_ body: () throws -> T) throws -> T {
        try run("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try run("COMMIT")
            return result
        } catch {
            try? run("ROLLBACK")
            throw error
        }
    }

    /// Calls `hook` after each of this connection's commits with the number of pages then in
    /// the WAL, on the committing thread; replaces SQLite's automatic checkpoint (which would
    /// copy the WAL into the database inside the commit that crossed its threshold).
    func onWALCommit(_ hook: @escaping @Sendable (_ pages: Int) -> Void) {
        guard let handle else { return }
        let box = WALHook(hook)
        walHook = box
        let callback: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?, Int32) -> Int32 = {
            context, _, _, pages in
            if let context { Unmanaged<WALHook>.fromOpaque(context).takeUnretainedValue().hook(Int(pages)) }
            return SQLITE_OK
        }
        sqlite3_wal_hook(handle, callback, Unmanaged.passUnretained(box).toOpaque())
    }

    /// The closure behind `onWALCommit`, boxed for SQLite's context pointer.
    private final class WALHook {
        let hook: @Sendable (Int) -> Void
        init(_ hook: @escaping @Sendable (Int) -> Void) { self.hook = hook }
    }

    /// Finalizes every cached statement and closes the connection (idempotent).
    func close() {
        for statement in statements.values { statement.finalize() }
        statements.removeAll()
        if let handle {
            sqlite3_wal_hook(handle, nil, nil)
            sqlite3_close_v2(handle)
        }
        handle = nil
        walHook = nil
    }
}
