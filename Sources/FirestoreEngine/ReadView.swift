import DocumentStore
import FirestoreModel

/// One request's view of the store: a snapshot, plus the versions read for a read-write
/// transaction. Also the rules' document lookup (reads see the state before and after alike).
final class ReadView: AccessLookup {
    let snapshot: any StoreSnapshot
    let database: DatabaseID
    let recording: Bool
    private(set) var recorded: [ResourcePath: Timestamp?] = [:]

    init(snapshot: any StoreSnapshot, database: DatabaseID, recording: Bool) {
        self.snapshot = snapshot
        self.database = database
        self.recording = recording
    }

    func document(_ path: ResourcePath) throws(FirestoreError) -> Document? {
        let d = try snapshot.document(path, in: database)
        if recording { record(path, d) }
        return d
    }

    func record(_ path: ResourcePath, _ d: Document?) {
        if recorded[path] == nil { recorded[path] = .some(d?.updateTime) }
    }

    func before(_ path: ResourcePath) throws(FirestoreError) -> Document? { try snapshot.document(path, in: database) }
    func after(_ path: ResourcePath) throws(FirestoreError) -> Document? { try snapshot.document(path, in: database) }
}
