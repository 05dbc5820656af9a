import FirestoreModel
import Testing

@testable import DocumentStore

/// Which Firestore error a failed SQLite call becomes (disk full, unwritable file, the rest).
@Suite struct SQLiteErrorTests {
    @Test func aFullDiskIsResourceExhaustedAnUnwritableFileUnavailableTheRestInternal() {
        // SQLITE_FULL 13, SQLITE_READONLY 8 (and its extended codes), SQLITE_IOERR 10, SQLITE_CANTOPEN 14, SQLITE_CORRUPT 11.
        #expect(SQLiteError(code: 13, message: "database or disk is full").firestoreError.code == .resourceExhausted)
        #expect(SQLiteError(code: 8, message: "readonly").firestoreError.code == .unavailable)
        #expect(SQLiteError(code: 8 | (3 << 8), message: "readonly dbmoved").firestoreError.code == .unavailable)
        #expect(SQLiteError(code: 10, message: "disk I/O error").firestoreError.code == .unavailable)
        #expect(SQLiteError(code: 14, message: "unable to open").firestoreError.code == .unavailable)
        #expect(SQLiteError(code: 11, message: "malformed").firestoreError.code == .internalError)
    }
}
