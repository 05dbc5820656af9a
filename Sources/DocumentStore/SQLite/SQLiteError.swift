import CSQLite
import FirestoreModel

/// A failed SQLite call: the result code, SQLite's message and the SQL that failed.
///
/// The store turns it into a `FirestoreError` at its public boundary: a storage failure is the
/// server's fault, never the client's. A full disk is `RESOURCE_EXHAUSTED` and a data file that
/// cannot be written (read-only, removed, an I/O error) `UNAVAILABLE`, as production answers
/// when it cannot take writes for now: the client may retry once the operator made room; reads
/// go on. Everything else is `INTERNAL`. Source: googleapis `google/rpc/code.proto`.
struct SQLiteError: Error, CustomStringConvertible {
    /// The extended result code (`SQLITE_BUSY`, `SQLITE_CONSTRAINT_UNIQUE`, …).
    var code: Int32
    /// `sqlite3_errmsg` at the time of the failure, or a description of the misuse.
    var message: String
    /// The statement being prepared or run, when there was one.
    var sql: String?

    /// Code, SQLite's name for it, message and SQL, on one line.
    var description: String {
        let name = String(cString: sqlite3_errstr(code))
        if let sql { return "SQLite error \(code) (\(name)): \(message) — in: \(sql)" }
        return "SQLite error \(code) (\(name)): \(message)"
    }

    /// The same failure as a Firestore error (see the type's comment for which code).
    var firestoreError: FirestoreError {
        switch code & 0xFF {
        case SQLITE_FULL:
            return FirestoreError(.resourceExhausted, "The data file's disk is full; writes fail until there is room (\(description)).")
        case SQLITE_READONLY, SQLITE_IOERR, SQLITE_CANTOPEN:
            return FirestoreError(.unavailable, "The data file cannot be written now (\(description)).")
        default:
            return .internalError("Storage failure: \(description)")
        }
    }
}
