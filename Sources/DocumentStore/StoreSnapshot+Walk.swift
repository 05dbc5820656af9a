import FirestoreModel

extension StoreSnapshot {
    /// Calls `body` with every stored document of `database`, depth-first: collections and
    /// documents in `__name__` order, each document before its subcollections. Missing
    /// documents (no data, only subcollections) are descended into, not passed.
    /// - Throws: the store's `FirestoreError`, or what `body` throws.
    public func forEachDocument(in database: DatabaseID, _ body: (Document) throws -> Void) throws {
        func visit(_ parent: ResourcePath) throws {
            for id in try collectionIDs(under: parent, in: database) {
                let collection = parent.appending(id)
                let docs = try listDocuments(in: collection, database: database, startAfter: nil, limit: nil)
                let missing = try missingDocuments(in: collection, database: database)
                var byPath: [ResourcePath: Document] = [:]
                for d in docs { byPath[d.path] = d }
                for path in Set(docs.map(\.path) + missing).sorted() {
                    if let d = byPath[path] { try body(d) }
                    try visit(path)
                }
            }
        }
        try visit(.root)
    }
}
