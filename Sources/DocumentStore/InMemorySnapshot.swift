import FirestoreModel

/// A frozen copy of an `InMemoryDocumentStore`'s state. Every read scans it; this is the
/// reference behaviour, not a fast path.
final class InMemorySnapshot: StoreSnapshot {
    private var databases: [DatabaseID: [ResourcePath: Document]]

    /// The hierarchy of one database, built on the first call that walks it (collection ids,
    /// whole listings, missing documents) and kept for the snapshot's life: an export asks
    /// for every document's subcollections, which would otherwise rescan every key each time.
    private struct Tree {
        /// Root or document → the ids of the collections directly under it.
        var collectionIDs: [ResourcePath: Set<ExactName>] = [:]
        /// Collection → its child documents' paths, existing or with descendants only.
        var children: [ResourcePath: [ResourcePath]] = [:]
    }
    private var trees: [DatabaseID: Tree] = [:]

    private func tree(_ database: DatabaseID) -> Tree {
        if let t = trees[database] { return t }
        var t = Tree()
        var seen = Set<ResourcePath>()
        for path in (databases[database] ?? [:]).keys {
            let segments = path.segments
            for d in stride(from: 0, to: segments.count - 1, by: 2) {
                t.collectionIDs[ResourcePath(Array(segments[..<d])), default: []].insert(ExactName(segments[d]))
                let child = ResourcePath(Array(segments[..<(d + 2)]))
                if seen.insert(child).inserted { t.children[ResourcePath(Array(segments[..<(d + 1)])), default: []].append(child) }
            }
        }
        trees[database] = t
        return t
    }

    /// Wraps a copy of the store's state.
    init(databases: [DatabaseID: [ResourcePath: Document]]) { self.databases = databases }

    /// The document at `path`, looked up in the copy.
    func document(_ path: ResourcePath, in database: DatabaseID) throws(FirestoreError) -> Document? {
        databases[database]?[path]
    }

    /// Validates, then evaluates the query over every document of `database`; `statistics`
    /// counts them all as scanned, with no index.
    /// - Throws: `.invalidArgument` for invalid queries.
    func runQuery(_ target: QueryTarget, in database: DatabaseID, statistics: inout QueryStatistics) throws(FirestoreError)
        -> (documents: [Document], skipped: Int)
    {
        try target.query.validate()
        let all = databases[database]?.values ?? [:].values
        statistics = QueryStatistics(documentsScanned: all.count, plan: "scan of every document of the database")
        return target.query.evaluate(over: all, target: target, in: database)
    }

    /// Direct children of `collection`, sorted by name.
    func listDocuments(in collection: ResourcePath, database: DatabaseID, startAfter: ResourcePath?, limit: Int?)
        throws(FirestoreError) -> [Document]
    {
        // Depth and prefix, then the bound, without building a path per document; with a
        // limit only the first `limit` names are kept in order (a page of a 100k-document
        // collection costs one comparison per document, not a sort of them all).
        let depth = collection.segments.count + 1
        guard let keep = limit.map({ max($0, 0) }) else {
            let documents = databases[database] ?? [:]
            var all = (tree(database).children[collection] ?? []).compactMap { documents[$0] }
            if let startAfter { all.removeAll { !(startAfter < $0.path) } }
            return all.sorted { $0.path < $1.path }
        }
        var children: [Document] = []
        for document in (databases[database] ?? [:]).values {
            let path = document.path
            guard path.segments.count == depth, collection.isPrefix(of: path) else { continue }
            if let startAfter, !(startAfter < path) { continue }
            if children.count == keep, let last = children.last, !(path < last.path) { continue }
            var low = 0
            var high = children.count
            while low < high {
                let mid = (low + high) / 2
                if children[mid].path < path { low = mid + 1 } else { high = mid }
            }
            children.insert(document, at: low)
            if children.count > keep { children.removeLast() }
        }
        return children
    }

    /// Ancestors at depth `collection + 1` of deeper documents that do not exist themselves.
    func missingDocuments(in collection: ResourcePath, database: DatabaseID) throws(FirestoreError) -> [ResourcePath] {
        let documents = databases[database] ?? [:]
        return (tree(database).children[collection] ?? []).filter { documents[$0] == nil }.sorted()
    }

    /// Segment `parent.count` of every document below `parent`, distinct and sorted.
    func collectionIDs(under parent: ResourcePath, in database: DatabaseID) throws(FirestoreError) -> [String] {
        guard parent.segments.count % 2 == 0 else {
            // A collection as the parent: the ids of its documents that have descendants.
            let depth = parent.segments.count
            var ids = Set<ExactName>()
            for path in (databases[database] ?? [:]).keys where path.segments.count > depth && parent.isPrefix(of: path) {
                ids.insert(ExactName(path.segments[depth]))
            }
            return ids.sorted().map(\.string)
        }
        return (tree(database).collectionIDs[parent] ?? []).sorted().map(\.string)
    }

    /// Drops the copy.
    func close() {
        databases = [:]
        trees = [:]
    }
}
