import FirestoreModel

/// One page of a query answered in pages (`FirestoreEngine.runQueryPages`).
public struct QueryPage: Sendable {
    /// The page's documents, in query order.
    public var documents: [Document]
    /// Documents `offset` skipped (on the first page; 0 after).
    public var skipped: Int
    /// The read time every page is read at.
    public var readTime: Timestamp
    /// True on the last page: no document follows `documents`.
    public var isLast: Bool
    /// What the store read for this page.
    public var statistics: QueryStatistics
}

extension FirestoreEngine {
    /// RunQuery answered page by page, so a result of any size streams in bounded memory at
    /// the pace its reader takes it (issue 14 item 4).
    ///
    /// Every page reads the one store snapshot opened first (the answer is consistent, at one
    /// read time); each page runs on the reader threads, and no thread is held while `deliver`
    /// waits for the client. A page is the query resumed after the last document delivered
    /// (`startAfter` its order values and name) with `limit` `pageSize + 1`: the extra document
    /// tells whether the page is the last. When the store cannot resume from a cursor without
    /// reading far more than a page (a scan with no index in order: the in-memory store, a
    /// query waiting for its index), the rest is read at once and delivered a page at a time
    /// (its documents are then held, their answer is still encoded page by page).
    ///
    /// - Parameters:
    ///   - consistency: `.strong` or `.readTime`; a query in a transaction must use `runQuery`.
    ///   - pageSize: documents per page (≥ 1).
    ///   - deliver: gets each page in order; what it throws ends the query.
    /// - Throws: as `runQuery`; `.invalidArgument` for a transactional `consistency`.
    public func runQueryPages(
        _ target: QueryTarget, in database: DatabaseID, consistency: ReadConsistency, auth: AuthContext, pageSize: Int,
        deliver: (QueryPage) async throws(FirestoreError) -> Void
    ) async throws(FirestoreError) {
        var pointInTime: Timestamp?
        switch consistency {
        case .strong: break
        case .readTime(let t): pointInTime = t
        case .transaction, .newTransaction:
            throw .invalidArgument("A query in a transaction is answered whole (runQuery).")
        }
        try validate(target)
        try prepareQuery(target, in: database)
        let at = pointInTime
        let query = target.query
        let size = max(pageSize, 1)
        var box: TransactionRegistry.SnapshotBox?
        var readTime = Timestamp(seconds: 0, nanos: 0)
        var remaining = query.limit
        var after: Cursor?
        var first = true
        var paging = true
        while true {
            var page = query
            if !first {
                page.offset = 0
                page.startAt = after
            }
            let want = paging ? size : nil
            page.limit = Self.pageLimit(want: want, remaining: remaining)
            let pageTarget = QueryTarget(parent: target.parent, query: page)
            let held = box
            // The first page opens the snapshot and checks the rules in the same trip to the
            // reader threads.
            let read = try await offPool {
                () throws(FirestoreError) -> (box: TransactionRegistry.SnapshotBox, readTime: Timestamp?, documents: [Document], skipped: Int, statistics: QueryStatistics) in
                var openedAt: Timestamp?
                let snapshot: TransactionRegistry.SnapshotBox
                if let held {
                    snapshot = held
                } else {
                    let (s, t) = try self.openSnapshot(at: at, in: database)
                    snapshot = TransactionRegistry.SnapshotBox(s)
                    openedAt = t
                    let requestTime = at == nil ? t : max(self.clock(), t)
                    let view = ReadView(snapshot: s, database: database, recording: false)
                    try self.authorizeList(target, database: database, auth: auth, time: requestTime, view: view)
                }
                var statistics = QueryStatistics()
                let r = try snapshot.snapshot.runQuery(pageTarget, in: database, statistics: &statistics)
                return (snapshot, openedAt, r.documents, r.skipped, statistics)
            }
            if box == nil { box = read.box }
            if let t = read.readTime { readTime = t }
            var documents = read.documents
            var isLast = true
            if let want, documents.count > want {
                documents.removeLast(documents.count - want)
                isLast = false
            }
            if let r = remaining {
                remaining = r - documents.count
                if remaining == 0 { isLast = true }
            }
            // A store that read far more than the page to find it would read as much again
            // for every page: read the rest at once.
            if paging && read.statistics.documentsScanned > 4 * (size + 1) + (first ? query.offset : 0) { paging = false }
            if !isLast, let last = documents.last { after = Self.cursor(after: last, order: query.normalizedOrderBy, in: database) }
            // Delivered `size` at a time even when read at once, so the answer is encoded page by page.
            var start = 0
            repeat {
                let end = min(start + size, documents.count)
                try await deliver(
                    QueryPage(
                        documents: Array(documents[start..<end]), skipped: first && start == 0 ? read.skipped : 0,
                        readTime: readTime, isLast: isLast && end == documents.count,
                        statistics: start == 0 ? read.statistics : QueryStatistics()))
                start = end
            } while start < documents.count
            if isLast { return }
            first = false
        }
    }

    /// The page's `limit`: one more than wanted (to see whether more follow), within what the
    /// query's own limit leaves; nil for no limit.
    static func pageLimit(want: Int?, remaining: Int?) -> Int? {
        guard let want else { return remaining }
        guard let remaining else { return want + 1 }
        return min(want + 1, remaining)
    }

    /// `startAfter` `document` in `order` (the normalised orderBy, `__name__` last).
    static func cursor(after document: Document, order: [Order], in database: DatabaseID) -> Cursor {
        Cursor(values: order.map { document.value(at: $0.field, in: database) ?? .null }, before: false)
    }
}
