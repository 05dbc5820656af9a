import FirestoreModel

/// `ListenResponse` of `google.firestore.v1`, as every transport encodes it.
///
/// DocumentChange: 1 document, 5 target_ids, 6 removed_target_ids. DocumentDelete:
/// 1 document (name), 4 read_time, 6 removed_target_ids. DocumentRemove: 1 document
/// (name), 2 removed_target_ids, 4 read_time. Target id lists are written packed.
/// Source: googleapis `firestore.proto`, `write.proto`; docs/reference/grpc-and-listen.md §1.4, §6.3, §6.5, §8.
public enum ListenResponse: Sendable, Equatable {
    /// A target changed state (ADD, CURRENT, global NO_CHANGE, …).
    case targetChange(TargetChange)
    /// A document now matches (or changed while matching) `targetIDs` and no longer
    /// matches `removedTargetIDs`. The document must carry create and update times.
    case documentChange(Document, targetIDs: [Int32], removedTargetIDs: [Int32] = [])
    /// A document was deleted.
    case documentDelete(ResourcePath, removedTargetIDs: [Int32], readTime: Timestamp?)
    /// A document stopped matching (it still exists).
    case documentRemove(ResourcePath, removedTargetIDs: [Int32], readTime: Timestamp?)
    /// How many documents currently match a target.
    case filter(ExistenceFilter)
}
