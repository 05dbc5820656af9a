import FirestoreModel
import Functions

/// The daily `cleanupPresence` job: deletes `presence` documents whose `updatedAt` is more
/// than 30 days before the run (`updatedAt < now − 30 days`). Hygiene only — staleness at send
/// time is already enforced by PRESENCE_TTL. Documents without a timestamp `updatedAt` (a
/// token saved before any heartbeat) are never matched. Source: docs/app/shouts-and-whispers.md §4 "cleanupPresence".
struct CleanupPresence: Sendable {
    /// The Admin client and clock.
    let services: ShoutsServices

    /// Deletes the expired documents in batches of ≤ 450, each delete conditioned on the
    /// version read so a heartbeat landing meanwhile keeps its document (a document changed
    /// without a new `updatedAt` is picked up again by the next query).
    /// - Returns: the number of documents deleted.
    /// - Throws: storage errors (documents deleted before the failure stay deleted).
    func run(now: Timestamp) throws(FirestoreError) -> Int {
        let cutoff = RecipientSelection.subtracting(ShoutsConstants.presenceCleanupAge, from: now)
        let query = services.admin.collection(ShoutsCollections.presence)
            .whereField("updatedAt", .lessThan, .timestamp(cutoff))
            .limit(to: ShoutsConstants.feedBatchMaxWrites)
        var deleted = 0
        while true {
            let page = try query.get().documents
            guard !page.isEmpty else { return deleted }
            let before = deleted
            var batch = services.admin.batch()
            for doc in page { batch.delete(doc.reference, precondition: Self.unchanged(doc)) }
            do {
                try batch.commit()
                deleted += page.count
            } catch where error.code == .failedPrecondition || error.code == .notFound {
                // Some document changed since the query: delete the others one by one.
                for doc in page {
                    do {
                        try doc.reference.delete(precondition: Self.unchanged(doc))
                        deleted += 1
                    } catch where error.code == .failedPrecondition || error.code == .notFound {
                        continue
                    }
                }
                // Documents that keep changing are left for the next run rather than chased.
                if deleted == before { return deleted }
            }
        }
    }

    /// Deletes only the version read: `updateTime` as read.
    static func unchanged(_ doc: DocumentSnapshot) -> Precondition {
        doc.updateTime.map(Precondition.updateTime) ?? .none
    }
}
