import DocumentStore
import FirestoreModel

extension FirestoreEngine {
    /// Every stored document of `database`, read at one store snapshot (depth-first, in
    /// `__name__` order); fields stay in their stored encoding.
    /// - Throws: the store's `FirestoreError`.
    public func allDocuments(in database: DatabaseID) throws(FirestoreError) -> [Document] {
        let snapshot = try store.snapshot()
        defer { snapshot.close() }
        var out: [Document] = []
        do {
            try snapshot.forEachDocument(in: database) { out.append($0) }
        } catch let error as FirestoreError {
            throw error
        } catch {
            throw FirestoreError(.internalError, "\(error)")
        }
        return out
    }

    /// Replaces every document of `database` with `documents`, in one step under the writer
    /// lock (a reset to a snapshot): each document is stored with the step's commit time as its
    /// create and update time. Observers get one change at that time marked `cleared` and
    /// listing every document as added, so listeners re-read their targets (a document whose
    /// fields were restored to what a listener last saw is sent again, with its new time) and
    /// triggers do not fire.
    /// - Returns: the commit time.
    /// - Throws: the store's `FirestoreError`; nothing changes then.
    @discardableResult
    public func replaceAll(_ database: DatabaseID, with documents: [Document]) throws(FirestoreError) -> Timestamp {
        try writer.withLock { (state: inout WriterState) throws(FirestoreError) -> Timestamp in
            let t = nextCommitTime(&state)
            let restored = documents.map { d -> Document in
                var copy = d
                copy.createTime = t
                copy.updateTime = t
                return copy
            }
            try store.replaceAll(in: database, with: restored, at: t)
            state.lastCommitTime = t
            notify(
                CommittedChange(
                    database: database, commitTime: t,
                    changes: restored.map { DocumentChange(path: $0.path, before: nil, after: $0) }, cleared: true))
            return t
        }
    }

    /// Deletes `paths` of `database` at the next commit time, without rules, observers,
    /// listeners or the outbox: for the engine's own bookkeeping databases (the functions
    /// host's trigger outbox), which no client reads.
    /// - Throws: the store's `FirestoreError`.
    public func deleteUnobserved(_ paths: [ResourcePath], in database: DatabaseID) throws(FirestoreError) {
        guard !paths.isEmpty else { return }
        try writer.withLock { (state: inout WriterState) throws(FirestoreError) in
            let t = nextCommitTime(&state)
            try store.commit(paths.map { .delete($0) }, in: database, commitTime: t)
            state.lastCommitTime = t
        }
    }
}
