import DocumentStore
import FirestoreModel
import Synchronization

/// TEST DOUBLE (copy of FunctionsTests/Support/TestMemoryStore.swift — test targets cannot
/// share code): a minimal dictionary-backed `DocumentStore`, only so these tests can run an
/// engine before the real in-memory store lands. Queries scan every document and use
/// `StructuredQuery.evaluate`; no indexes, no durability. Replace with the real store.
final class TestMemoryStore: DocumentStore {
    private let state = Mutex<(documents: [DatabaseID: [ResourcePath: Document]], last: Timestamp?)>(([:], nil))

    func snapshot() throws(FirestoreError) -> any StoreSnapshot {
        TestMemorySnapshot(documents: state.withLock { $0.documents })
    }

    func commit(_ mutations: [Mutation], in database: DatabaseID, commitTime: Timestamp) throws(FirestoreError) {
        state.withLock { s in
            var docs = s.documents[database] ?? [:]
            for m in mutations {
                switch m {
                case .put(let d): docs[d.path] = d
                case .delete(let p): docs[p] = nil
                }
            }
            s.documents[database] = docs
            s.last = commitTime
        }
    }

    func deleteAll(in database: DatabaseID) throws(FirestoreError) {
        state.withLock { $0.documents[database] = nil }
    }

    func lastCommitTime() throws(FirestoreError) -> Timestamp? { state.withLock { $0.last } }

    func close() {}
}

/// TEST DOUBLE: the frozen view of `TestMemoryStore`.
final class TestMemorySnapshot: StoreSnapshot {
    let documents: [DatabaseID: [ResourcePath: Document]]

    init(documents: [DatabaseID: [ResourcePath: Document]]) { self.documents = documents }

    func document(_ path: ResourcePath, in database: DatabaseID) throws(FirestoreError) -> Document? {
        documents[database]?[path]
    }

    func runQuery(_ target: QueryTarget, in database: DatabaseID) throws(FirestoreError)
        -> (documents: [Document], skipped: Int)
    {
        target.query.evaluate(over: (documents[database] ?? [:]).values, target: target, in: database)
    }

    func listDocuments(in collection: ResourcePath, database: DatabaseID, startAfter: ResourcePath?, limit: Int?)
        throws(FirestoreError) -> [Document]
    {
        var docs = (documents[database] ?? [:]).values.filter { $0.path.parent == collection }
        docs.sort { $0.path < $1.path }
        if let s = startAfter { docs.removeAll { !(s < $0.path) } }
        if let l = limit, docs.count > l { docs.removeLast(docs.count - l) }
        return docs
    }

    func missingDocuments(in collection: ResourcePath, database: DatabaseID) throws(FirestoreError) -> [ResourcePath] { [] }

    func collectionIDs(under parent: ResourcePath, in database: DatabaseID) throws(FirestoreError) -> [String] {
        let n = parent.segments.count
        let ids = Set((documents[database] ?? [:]).keys.filter { parent.isPrefix(of: $0) && $0.segments.count > n }.map { $0.segments[n] })
        return ids.sorted()
    }

    func close() {}
}
