/// Which state a read sees. Source: googleapis `firestore.proto` consistency_selector.
public enum ReadConsistency: Sendable, Hashable {
    /// The latest committed state.
    case strong
    /// Inside an open transaction.
    case transaction([UInt8])
    /// Begin a transaction and read inside it; its id is returned with the results.
    case newTransaction(TransactionMode)
    /// At a read time: the database exactly as of that time (every commit at or before it,
    /// none after), from the store's version history. Refused when in the future or older
    /// than the engine's version retention.
    case readTime(Timestamp)
}

/// The answer of BatchGetDocuments for one requested name.
public enum BatchGetResult: Sendable, Hashable {
    /// The document exists.
    case found(Document)
    /// No document at that path.
    case missing(ResourcePath)
}
