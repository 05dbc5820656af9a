import FirestoreModel

/// Query execution: plan (`QueryPlanner`) → index scan (this file) → semantics
/// (`StructuredQuery.evaluate`).
extension SQLiteSnapshot {
    /// Runs `target` on a composite or single-field index (or the name order), decoding only
    /// the candidates the index yields, and stopping early when the stream is in query order.
    /// `statistics` gets the plan, the indexes it read, the index rows read and the documents
    /// decoded (archived versions included at a read time).
    /// - Throws: `.invalidArgument` when the query is invalid; `.internalError` on storage failure.
    func runQuery(_ target: QueryTarget, in database: DatabaseID, statistics: inout QueryStatistics) throws(FirestoreError)
        -> (documents: [Document], skipped: Int)
    {
        let query = target.query
        try query.validate()
        let decodedBefore = documentsDecoded
        let rowsBefore = indexRowsRead
        defer {
            statistics.documentsScanned = documentsDecoded - decodedBefore
            statistics.indexEntriesScanned = indexRowsRead - rowsBefore
            if let lastPlan {
                statistics.plan = lastPlan.description
                let scope: IndexQueryScope = query.allDescendants ? .collectionGroup : .collection
                statistics.indexesUsed = lastPlan.indexesUsed(scope: scope.planSummaryName)
            }
        }
        lastPlan = nil
        let order = query.normalizedOrderBy
        let needed = query.limit.map { limit in
            let (sum, overflow) = query.offset.addingReportingOverflow(limit)
            return overflow ? Int.max : sum
        }
        if needed == 0 { return ([], 0) }
        var inOrder = false
        let accepted: [Document] = try reading { connection in
            guard let db = try databaseRowID(database, connection) else { return [] }
            let composites = try compositeIndexes(of: query, db: db, connection)
            var plan = QueryPlanner.plan(target, in: database, composites: composites.map(\.index))
            let compositeIDs = Dictionary(composites.map { ($0.index, $0.id) }, uniquingKeysWith: { a, _ in a })
            var indexIDs: [SingleFieldIndex: Int64] = [:]
            var missing: [SingleFieldIndex] = []
            for index in plan.indexes where indexIDs[index] == nil {
                if let id = try indexRowID(index, db: db, connection) { indexIDs[index] = id } else { missing.append(index) }
            }
            if !missing.isEmpty {
                store.buildMissing(missing, in: database)
                // If nothing was committed since this view was taken, move it past the build.
                if let sequence, try store.repin(connection, ifAt: sequence) {
                    for index in missing {
                        if let id = try indexRowID(index, db: db, connection) { indexIDs[index] = id }
                    }
                    missing.removeAll { indexIDs[$0] != nil }
                }
            }
            if !missing.isEmpty {
                // The view predates the build: the indexes serve the next queries; scan now.
                let first = order.first ?? Order(.documentKey)
                plan = first.field.isDocumentKey
                    ? QueryPlan(accesses: [.documents(range: .all, direction: first.direction)], streamOrder: .path)
                    : QueryPlan(accesses: [.documents(range: .all, direction: .ascending)], streamOrder: .unordered)
            }
            lastPlan = plan
            var stream = CandidateStream(
                target: target, database: database, needed: plan.streamOrder == .unordered ? nil : needed,
                deduplicate: plan.mayRepeat)
            stream.orderedByPath = plan.streamOrder == .path
            stream.perRange = plan.streamOrder == .indexKeyWithinRanges
            stream.readTime = readTime
            stream.filterIsExact = plan.isExact(for: query)
            inOrder = plan.followsWholeOrder(order)
            for access in plan.accesses where !stream.isDone {
                try read(access, target: target, db: db, indexIDs: indexIDs, compositeIDs: compositeIDs, connection, into: &stream)
            }
            return stream.accepted
        }
        // Every accepted candidate passed the target, the filter and the cursors in the stream.
        guard let readTime else { return query.ordered(accepted: accepted, in: database, inOrder: inOrder) }
        // At a read time the plan streamed the latest versions that existed then; the answer's
        // first `needed` are among those and the archived versions current then, which are few
        // (at most the retention window's updates in scope).
        let archived = try archivedCandidates(target, at: readTime, in: database)
        return query.evaluate(over: accepted + archived, target: target, in: database)
    }

    /// The composite indexes built in this snapshot for the query's collection id and scope.
    private func compositeIndexes(of query: StructuredQuery, db: Int64, _ connection: SQLiteConnection) throws
        -> [(id: Int64, index: CompositeIndex)]
    {
        guard !query.collectionID.isEmpty else { return [] }
        let scope: IndexQueryScope = query.allDescendants ? .collectionGroup : .collection
        let select = try connection.prepare(
            "SELECT id, fields FROM composite_indexes WHERE db = ?1 AND collection_id = ?2 AND scope = ?3 ORDER BY id")
        defer { select.reset() }
        try select.bind(db, at: 1)
        try select.bind(query.collectionID, at: 2)
        try select.bind(scope.storedValue, at: 3)
        var out: [(id: Int64, index: CompositeIndex)] = []
        while try select.step() {
            let fields = try CompositeIndex.decodeFields(select.blob(at: 1))
            out.append((select.int64(at: 0), CompositeIndex(collectionGroup: query.collectionID, queryScope: scope, fields: fields)))
        }
        return out
    }

    /// The row id of `index` if it is built in this snapshot.
    func indexRowID(_ index: SingleFieldIndex, db: Int64, _ connection: SQLiteConnection) throws -> Int64? {
        let select = try connection.prepare(
            "SELECT id FROM field_indexes WHERE db = ?1 AND collection_id = ?2 AND field = ?3 AND kind = ?4 AND scope = ?5")
        defer { select.reset() }
        try select.bind(db, at: 1)
        try select.bind(index.collectionID, at: 2)
        try select.bind(OrderedKey.fieldPath(index.field), at: 3)
        try select.bind(index.mode.rawValue, at: 4)
        try select.bind(index.queryScope.rawValue, at: 5)
        return try select.step() ? select.int64(at: 0) : nil
    }

    /// Streams one access's rows into `stream`, range by range, until it says stop.
    private func read(
        _ access: QueryPlan.Access, target: QueryTarget, db: Int64, indexIDs: [SingleFieldIndex: Int64],
        compositeIDs: [CompositeIndex: Int64], _ connection: SQLiteConnection, into stream: inout CandidateStream
    ) throws {
        let query = target.query
        let group = query.allDescendants
        // `allDescendants` with no collection id: every collection under the parent.
        let allCollections = group && query.collectionID.isEmpty
        let collectionKey = OrderedKey.path(target.parent.appending(query.collectionID))
        // A collection group under a document: only paths below that document.
        let subtree: KeyRange? =
            group && !target.parent.segments.isEmpty
            ? KeyRange(
                lower: .init(key: OrderedKey.path(target.parent), inclusive: false),
                upper: .init(key: OrderedKey.descendantsEnd(of: OrderedKey.path(target.parent)), inclusive: false))
            : nil

        switch access {
        case .documents(var range, let direction):
            if let subtree {
                guard let narrowed = range.intersection(subtree) else { return }
                range = narrowed
            }
            let dir = direction == .ascending ? "ASC" : "DESC"
            let sql = """
                SELECT d.path, \(SQLiteSchema.documentColumns) FROM documents AS d
                WHERE d.db = ?1 AND \(allCollections ? "?2 = ?2" : group ? "d.collection_id = ?2" : "d.parent = ?2")\
                \(Self.bounds("d.path", range, 3, 4))
                ORDER BY d.path \(dir)
                """
            let select = try connection.prepare(sql)
            defer { select.reset() }
            try select.bind(db, at: 1)
            if group { try select.bind(query.collectionID, at: 2) } else { try select.bind(collectionKey, at: 2) }
            try Self.bind(range, select, 3, 4)
            try pump(select, into: &stream)

        case .index(let index, let ranges, let direction):
            guard let id = indexIDs[index] else { return }
            let dir = direction == .ascending ? "ASC" : "DESC"
            for range in ranges where !stream.isDone {
                let stopColumn = stream.orderedByPath ? "e.path" : "e.value"
                let sql = """
                    SELECT \(stopColumn), \(SQLiteSchema.documentColumns)
                    FROM index_entries AS e CROSS JOIN documents AS d
                    WHERE e.index_id = ?1 AND e.parent = ?2\(Self.bounds("e.value", range, 3, 4))\
                    \(subtree.map { Self.bounds("e.path", $0, 5, 6) } ?? "")
                      AND d.db = ?7 AND d.path = e.path
                    ORDER BY e.value \(dir), e.path \(dir)
                    """
                try scanEntries(
                    sql, index: id, parent: index.entryParent(collectionKey), range: range, subtree: subtree, db: db,
                    connection, into: &stream)
            }

        case .composite(let index, let ranges, let direction):
            guard let id = compositeIDs[index] else { return }
            let dir = direction == .ascending ? "ASC" : "DESC"
            for range in ranges where !stream.isDone {
                stream.beginRange()
                // The entry key is the whole query order (it ends with the name): the stop key.
                let sql = """
                    SELECT e.key, \(SQLiteSchema.documentColumns)
                    FROM composite_entries AS e CROSS JOIN documents AS d
                    WHERE e.index_id = ?1 AND e.parent = ?2\(Self.bounds("e.key", range, 3, 4))\
                    \(subtree.map { Self.bounds("e.path", $0, 5, 6) } ?? "")
                      AND d.db = ?7 AND d.path = e.path
                    ORDER BY e.key \(dir)
                    """
                try scanEntries(
                    sql, index: id, parent: index.entryParent(collectionKey), range: range, subtree: subtree, db: db,
                    connection, into: &stream)
            }
        }
    }

    /// Runs an entry scan `sql` (single-field or composite: `?1` index id, `?2` parent,
    /// `?3`/`?4` the key range, `?5`/`?6` the subtree of a collection group under a document,
    /// `?7` the database) and feeds its rows to `stream`.
    private func scanEntries(
        _ sql: String, index id: Int64, parent: [UInt8], range: KeyRange, subtree: KeyRange?, db: Int64,
        _ connection: SQLiteConnection, into stream: inout CandidateStream
    ) throws {
        let select = try connection.prepare(sql)
        defer { select.reset() }
        try select.bind(id, at: 1)
        try select.bind(parent, at: 2)
        try Self.bind(range, select, 3, 4)
        if let subtree { try Self.bind(subtree, select, 5, 6) }
        try select.bind(db, at: 7)
        try pump(select, into: &stream)
    }

    /// Feeds rows (stop key in column 0, document columns from 1) to `stream` until it stops.
    private func pump(_ select: SQLiteStatement, into stream: inout CandidateStream) throws {
        while try select.step() {
            indexRowsRead += 1
            let stopKey = select.blob(at: 0)
            if stream.shouldStop(before: stopKey) { return }
            let path = try OrderedKey.decodePath(select.blob(at: 1))
            guard stream.wants(path) else { continue }
            // A latest version written after the read time is not seen (its archived
            // predecessor, if any, is read separately); its fields are never decoded.
            if let readTime = stream.readTime, readTime < Self.updateTime(select, documentColumnsFrom: 1) { continue }
            stream.offer(try decodeDocument(select, from: 1), stopKey: stopKey)
        }
    }

    /// ` AND column >= ?lo AND column < ?hi` for the range's present ends.
    private static func bounds(_ column: String, _ range: KeyRange, _ lo: Int, _ hi: Int) -> String {
        var sql = ""
        if let l = range.lower { sql += " AND \(column) \(l.inclusive ? ">=" : ">") ?\(lo)" }
        if let u = range.upper { sql += " AND \(column) \(u.inclusive ? "<=" : "<") ?\(hi)" }
        return sql
    }

    private static func bind(_ range: KeyRange, _ statement: SQLiteStatement, _ lo: Int32, _ hi: Int32) throws {
        if let l = range.lower { try statement.bind(l.key, at: lo) }
        if let u = range.upper { try statement.bind(u.key, at: hi) }
    }
}

/// The candidates of one query as they stream in: checks each against the query's semantics
/// and decides when reading can stop.
///
/// Early stop (only for a stream in query order, `needed` = offset + limit): once `needed`
/// candidates are accepted, rows are read until the stop key (the leading order key) changes;
/// every later row sorts after all accepted ones, so the answer is already among them.
/// With `perRange`, each range is in query order but the ranges are not (one per `in` value):
/// the rule then applies to each range on its own (`beginRange`), as the answer's first
/// `needed` are among the first `needed` of each range.
struct CandidateStream {
    /// The query and its parent.
    let target: QueryTarget
    /// The database queried (for `__name__` values).
    let database: DatabaseID
    /// `offset + limit` when the stream is in query order and the query has a limit; else nil.
    let needed: Int?
    /// Candidates that passed the filter and cursors, in stream order.
    private(set) var accepted: [Document] = []
    private var seen: Set<ResourcePath>?
    private var boundary: [UInt8]?
    /// True once the stream decided to stop.
    private(set) var isDone = false
    private let order: [Order]

    /// A stream; `deduplicate` when the same document can come from several ranges.
    init(target: QueryTarget, database: DatabaseID, needed: Int?, deduplicate: Bool) {
        self.target = target
        self.database = database
        self.needed = needed
        self.seen = deduplicate ? [] : nil
        self.order = target.query.normalizedOrderBy
    }

    /// True when the stop key is the document name rather than the index value.
    var orderedByPath = false
    /// For a point-in-time query, the read time: later versions are skipped, not offered.
    var readTime: Timestamp?

    /// True when every row the plan reads matches the filter (`QueryPlan.isExact(for:)`): the
    /// filter is not evaluated again on the decoded document.
    var filterIsExact = false

    /// True when the early-stop rule applies to each range rather than the whole stream.
    var perRange = false
    /// Candidates accepted since `beginRange`.
    private var acceptedInRange = 0

    /// Starts a new range: with `perRange`, its own early stop.
    mutating func beginRange() {
        guard perRange else { return }
        boundary = nil
        acceptedInRange = 0
    }

    /// True (and from then on `isDone`, unless `perRange`) when a row with `stopKey` can no
    /// longer matter (in this range, with `perRange`).
    mutating func shouldStop(before stopKey: UnsafeRawBufferPointer) -> Bool {
        guard let boundary else { return false }
        if boundary.elementsEqual(stopKey) { return false }
        if !perRange { isDone = true }
        return true
    }

    /// Whether the document at `path` is worth decoding.
    mutating func wants(_ path: ResourcePath) -> Bool {
        guard target.contains(path) else { return false }
        if seen != nil { return seen?.insert(path).inserted ?? true }
        return true
    }

    /// Keeps `document` when it matches the filter, has every orderBy field and is within the cursors.
    mutating func offer(_ document: Document, stopKey: UnsafeRawBufferPointer) {
        let query = target.query
        guard filterIsExact || query.matches(document, in: database, order: order),
            query.withinCursors(document, in: database, order: order)
        else {
            return
        }
        accepted.append(document)
        acceptedInRange += 1
        if let needed, boundary == nil, (perRange ? acceptedInRange : accepted.count) >= needed { boundary = Array(stopKey) }
    }
}
