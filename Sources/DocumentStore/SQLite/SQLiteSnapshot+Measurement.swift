extension StoreSnapshot {
    /// How many documents this snapshot's queries have decoded from storage so far — a
    /// measurement hook: beside the count a query returned, it shows whether an index scan
    /// read only what it returned (`hearth-bench`'s range-query figures). nil for a snapshot
    /// that does not count decodes (the in-memory store's, which holds documents decoded).
    public var decodedDocumentCount: Int? { (self as? SQLiteSnapshot)?.documentsDecoded }
}
