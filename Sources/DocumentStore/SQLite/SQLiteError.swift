import CSQLite
import FirestoreModel

/// A failed SQLite call: the result code, SQLite's message and the SQL that failed.
///
/// The store turns it into `FirestoreError.internalError` at its public boundary: a storage
/// failure is the server's fault, never the client's.
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

    /// The same failure as a Firestore `INTERNAL` error.
    var firestoreError: FirestoreError { .internalError("Storage failure: \(description)") }
}
