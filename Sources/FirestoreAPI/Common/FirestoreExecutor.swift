import FirestoreEngine
import FirestoreModel
import FirestoreRPC

/// Runs one `FirestoreRequest` on the engine and shapes the RPC's response messages: the one
/// place the logic between a decoded request and the engine lives (automatic ids, masks,
/// ListDocuments and ListCollectionIds paging, the message sequence of a streamed read), so
/// that REST, gRPC and any later transport only decode and encode.
///
/// Source: googleapis `google/firestore/v1/firestore.proto`; docs/reference/firestore-wire.md
/// §1.3 (per-method details), docs/reference/grpc-and-listen.md §7 (what clients rely on).
public struct FirestoreExecutor: Sendable {
    /// The engine every request runs on.
    public let engine: FirestoreEngine
    /// Receives one line per query run: the plan the store chose and what it scanned
    /// (`EXPLAIN` in the request log); nil writes no line (and formats none).
    public let queryLog: (@Sendable (String) -> Void)?

    /// Creates an executor.
    public init(engine: FirestoreEngine, queryLog: (@Sendable (String) -> Void)? = nil) {
        self.engine = engine
        self.queryLog = queryLog
    }

    /// Runs `request` for `auth` as `execute` does, except that a write waits for its group
    /// commit (`FirestoreEngine.groupCommit`) and a query or listing for a store thread
    /// (`FirestoreEngine.offPool`) without holding a thread of the cooperative pool: the entry
    /// point of the network transports. Point reads (GetDocument, BatchGetDocuments) and
    /// transaction bookkeeping run where they are called.
    /// - Throws: as `execute`.
    public func perform(_ request: FirestoreRequest, auth: AuthContext) async throws(FirestoreError) -> FirestoreResponse {
        switch request {
        case .createDocument, .updateDocument, .deleteDocument, .commit:
            let plan = try CommitPlan(request)
            return try plan.respond(
                try await engine.groupCommit(plan.writes, in: plan.database, transaction: plan.transaction, auth: auth))
        case .runQuery, .runAggregationQuery, .listDocuments, .listCollectionIds, .partitionQuery, .batchWrite:
            // Reads of unbounded length (and BatchWrite's commit per write) run on the store's
            // own threads, so a long scan never holds a thread of the cooperative pool that
            // every other request's decoding, encoding and point read needs.
            return try await engine.offPool { () throws(FirestoreError) in try self.execute(request, auth: auth) }
        default:
            return try execute(request, auth: auth)
        }
    }

    /// Runs `request` for `auth`.
    /// - Throws: the engine's `FirestoreError` (rules denials, preconditions, aborted
    ///   transactions, …), `.invalidArgument` for ids or page tokens the engine cannot use.
    public func execute(_ request: FirestoreRequest, auth: AuthContext) throws(FirestoreError) -> FirestoreResponse {
        for p in Self.readMask(of: request) ?? [] { try DocumentLimits.checkPathSegments(p) }
        switch request {
        case .getDocument(let r):
            let read = try engine.getDocument(r.path, in: r.database, consistency: r.consistency, auth: auth)
            return .document(read.value.masked(r.mask))
        case .listDocuments(let r):
            return .listDocuments(try listDocuments(r, auth: auth))
        case .createDocument, .updateDocument, .deleteDocument, .commit:
            let plan = try CommitPlan(request)
            return try plan.respond(try engine.commit(plan.writes, in: plan.database, transaction: plan.transaction, auth: auth))
        case .batchGetDocuments(let r):
            let read = try engine.batchGet(r.paths, in: r.database, consistency: r.consistency, auth: auth)
            var messages: [BatchGetDocumentsResponse] = []
            if let t = read.transaction { messages.append(BatchGetDocumentsResponse(result: nil, transaction: t, readTime: nil)) }
            for item in read.value {
                let result: BatchGetResult
                switch item {
                case .found(let d): result = .found(d.masked(r.mask))
                case .missing: result = item
                }
                messages.append(BatchGetDocumentsResponse(result: result, readTime: read.readTime))
            }
            return .batchGetDocuments(messages)
        case .beginTransaction(let r):
            return .beginTransaction(BeginTransactionResponse(transaction: try engine.beginTransaction(in: r.database, mode: r.options)))
        case .rollback(let r):
            try engine.rollback(r.transaction, in: r.database)
            return .empty
        case .runQuery(let r):
            return .runQuery(try runQuery(r, auth: auth))
        case .runAggregationQuery(let r):
            return .runAggregationQuery(try runAggregationQuery(r, auth: auth))
        case .partitionQuery(let r):
            // No partitions: legal, and clients then run the query as one partition.
            try engine.checkReadTime(r.readTime, in: r.database)
            return .partitionQuery(PartitionQueryResponse())
        case .listCollectionIds(let r):
            return .listCollectionIds(try listCollectionIDs(r, auth: auth))
        case .batchWrite(let r):
            return .batchWrite(BatchWriteResponse(results: try engine.batchWrite(r.writes, in: r.database, auth: auth)))
        }
    }

    /// The mask of the fields a request answers with (`mask` of GetDocument, BatchGetDocuments,
    /// ListDocuments, CreateDocument, UpdateDocument), nil for other requests.
    static func readMask(of request: FirestoreRequest) -> [FieldPath]? {
        switch request {
        case .getDocument(let r): return r.mask
        case .batchGetDocuments(let r): return r.mask
        case .listDocuments(let r): return r.mask
        case .createDocument(let r): return r.mask
        case .updateDocument(let r): return r.mask
        default: return nil
        }
    }

    /// ListDocuments through `DocumentListing` (page size 0 = all).
    func listDocuments(_ r: ListDocumentsRequest, auth: AuthContext) throws(FirestoreError) -> ListDocumentsResponse {
        let page = try DocumentListing.page(r, engine: engine, auth: auth)
        let items = page.items.map { item -> ListedDocument in
            if case .document(let d) = item { return .document(d.masked(r.mask)) }
            return item
        }
        return ListDocumentsResponse(documents: items, nextPageToken: page.nextPageToken ?? "")
    }

    /// RunQuery's messages: the begun transaction first (with the read time), then the results
    /// (`appendResults`).
    ///
    /// With `explainOptions`, the last message carries `explain_metrics`; without `analyze`
    /// no document is returned (production plans the query and answers the plan only).
    /// Source: docs/reference/firestore-wire.md §1.12.
    func runQuery(_ r: RunQueryRequest, auth: AuthContext) throws(FirestoreError) -> [RunQueryResponse] {
        let started = ContinuousClock.now
        let read = try engine.explainQuery(r.target, in: r.database, consistency: r.consistency, auth: auth)
        let elapsed = ContinuousClock.now - started
        let statistics = read.value.statistics
        logQuery(r.target, database: r.database, statistics: statistics, returned: read.value.documents.count, elapsed: elapsed)
        var messages: [RunQueryResponse] = []
        if let t = read.transaction {
            messages.append(RunQueryResponse(document: nil, transaction: t, readTime: read.readTime))
        }
        if let explain = r.explainOptions {
            let metrics = Self.explainMetrics(
                statistics, used: productionPlan(r.target, r.database), analyze: explain.analyze,
                results: read.value.documents.count, aggregation: false, elapsed: elapsed)
            if !explain.analyze {
                messages.append(RunQueryResponse(document: nil, readTime: read.readTime, done: true, explainMetrics: metrics))
                return messages
            }
            appendResults(read, select: r.target.query.select, to: &messages)
            messages[messages.count - 1].explainMetrics = metrics
            return messages
        }
        appendResults(read, select: r.target.query.select, to: &messages)
        return messages
    }

    /// Documents per page of a streamed RunQuery (`streamQuery`): a page is read, encoded and
    /// sent before the next is read, so this bounds the answer's memory (about 1 MiB of
    /// documents of 1 KiB).
    public static let queryPageSize = 1_000

    /// True when `streamQuery` can answer `r`: outside a transaction, without explain options.
    public static func streams(_ r: RunQueryRequest) -> Bool {
        guard r.explainOptions == nil else { return false }
        switch r.consistency {
        case .strong, .readTime: return true
        case .transaction, .newTransaction: return false
        }
    }

    /// RunQuery answered in pages (`FirestoreEngine.runQueryPages`): `send` gets each page's
    /// messages, the same messages `runQuery` answers (the skipped count on the first, `done`
    /// on the last), and the next page is read only after `send` returns, so a slow reader
    /// holds back the reading (HTTP/2 flow control and TCP back-pressure reach the store).
    /// - Precondition: `streams(r)`.
    /// - Throws: as `runQuery`, and what `send` throws.
    public func streamQuery(
        _ r: RunQueryRequest, auth: AuthContext, pageSize: Int = FirestoreExecutor.queryPageSize,
        send: ([RunQueryResponse]) async throws(FirestoreError) -> Void
    ) async throws(FirestoreError) {
        let started = ContinuousClock.now
        var statistics: QueryStatistics?
        var returned = 0
        let select = r.target.query.select
        try await engine.runQueryPages(r.target, in: r.database, consistency: r.consistency, auth: auth, pageSize: pageSize) {
            (page) throws(FirestoreError) in
            if var s = statistics {
                s.indexEntriesScanned += page.statistics.indexEntriesScanned
                s.documentsScanned += page.statistics.documentsScanned
                statistics = s
            } else {
                statistics = page.statistics
            }
            var messages: [RunQueryResponse] = []
            messages.reserveCapacity(page.documents.count)
            Self.appendResults(
                page.documents, skipped: page.skipped, readTime: page.readTime, isLast: page.isLast, select: select, to: &messages)
            returned += page.documents.count
            try await send(messages)
        }
        logQuery(r.target, database: r.database, statistics: statistics ?? QueryStatistics(), returned: returned, elapsed: ContinuousClock.now - started)
    }

    /// One message per document (the skipped count on the first, `done` on the last), or one
    /// with the read time, the skipped count and `done` when nothing matched.
    private func appendResults(
        _ read: ReadResult<(documents: [Document], skipped: Int, statistics: QueryStatistics)>, select: [FieldPath]?,
        to messages: inout [RunQueryResponse]
    ) {
        Self.appendResults(
            read.value.documents, skipped: read.value.skipped, readTime: read.readTime, isLast: true, select: select, to: &messages)
    }

    /// The messages of one run of a query's documents: one per document (masked to `select`),
    /// `skipped` on the first, `done` on the last when `isLast`; an empty last run is one
    /// message with the read time, `skipped` and `done`.
    private static func appendResults(
        _ documents: [Document], skipped: Int, readTime: Timestamp, isLast: Bool, select: [FieldPath]?,
        to messages: inout [RunQueryResponse]
    ) {
        let skipped = Int32(clamping: skipped)
        for (i, d) in documents.enumerated() {
            messages.append(
                RunQueryResponse(
                    document: d.masked(select), readTime: readTime, skippedResults: i == 0 ? skipped : 0,
                    done: isLast && i == documents.count - 1))
        }
        if documents.isEmpty && isLast {
            messages.append(RunQueryResponse(document: nil, readTime: readTime, skippedResults: skipped, done: true))
        }
    }

    /// RunAggregationQuery's message: one value per alias, with `explain_metrics` when asked
    /// (without `analyze`, the plan only and no result).
    func runAggregationQuery(_ r: RunAggregationQueryRequest, auth: AuthContext) throws(FirestoreError)
        -> RunAggregationQueryResponse
    {
        let started = ContinuousClock.now
        let read = try engine.explainAggregation(
            r.target, aggregations: r.aggregations, in: r.database, consistency: r.consistency, auth: auth)
        let elapsed = ContinuousClock.now - started
        let statistics = read.value.statistics
        logQuery(r.target, database: r.database, statistics: statistics, returned: 1, elapsed: elapsed)
        var response = RunAggregationQueryResponse(
            aggregateFields: read.value.fields, transaction: read.transaction, readTime: read.readTime)
        if let explain = r.explainOptions {
            response.explainMetrics = Self.explainMetrics(
                statistics, used: productionPlan(r.target, r.database), analyze: explain.analyze, results: 1,
                aggregation: true, elapsed: elapsed)
            if !explain.analyze { response.aggregateFields = [:] }
        }
        return response
    }

    /// The indexes production's plan reads for `target` with the project's indexes
    /// (`IndexRequirement.indexesUsed`), or nil when it lacks one (the query ran anyway).
    private func productionPlan(_ target: QueryTarget, _ database: DatabaseID) -> [IndexUsage]? {
        IndexRequirement.indexesUsed(for: target, configuration: engine.indexes.configuration(forProject: database.project))?
            .map { IndexUsage(queryScope: $0.queryScope.planSummaryName, properties: $0.properties) }
    }

    /// `explain_metrics`: the plan summary always, execution statistics with `analyze`.
    ///
    /// The plan summary names the indexes production would read (`used`), so that a query
    /// explained here reads as it will in production; when production would refuse the query
    /// (nil), the indexes Hearth's store read. The counts are the store's. Billing as
    /// production's report: a query bills its documents returned, an aggregation its index
    /// entries (one read per 1,000), and either at least one read (`min_query_cost`).
    /// Source: docs/reference/firestore-wire.md §1.12; docs/reference/indexes.md §8.
    static func explainMetrics(
        _ statistics: QueryStatistics, used production: [IndexUsage]?, analyze: Bool, results: Int, aggregation: Bool,
        elapsed: Duration
    ) -> ExplainMetrics {
        var used = production ?? statistics.indexesUsed
        if used.isEmpty { used = [IndexUsage(queryScope: "Collection", properties: "(__name__ ASC)")] }
        guard analyze else { return ExplainMetrics(indexesUsed: used) }
        let entries = Int64(max(statistics.indexEntriesScanned, statistics.documentsScanned))
        let documents = aggregation ? 0 : Int64(results)
        let indexEntries = aggregation ? entries : 0
        let reads = aggregation ? (entries + 999) / 1000 : documents
        let stats = ExecutionStats(
            resultsReturned: Int64(results), executionDuration: elapsed, readOperations: max(1, reads),
            debugStats: DebugStats(
                indexEntriesScanned: Int64(statistics.indexEntriesScanned), documentsScanned: Int64(statistics.documentsScanned),
                billingDetails: BillingDetails(
                    documentsBillable: documents, indexEntriesBillable: indexEntries, minQueryCost: reads == 0 ? 1 : 0)))
        return ExplainMetrics(indexesUsed: used, executionStats: stats)
    }

    /// `query messages [bucket == 3] order by i desc limit 20: index messages (bucket ASC, i DESC, __name__ DESC) …; 20 index entries, 20 documents scanned, 20 returned, 0.4 ms`.
    private func logQuery(
        _ target: QueryTarget, database: DatabaseID, statistics: QueryStatistics, returned: Int, elapsed: Duration
    ) {
        guard let queryLog else { return }
        let used = statistics.indexesUsed.map(\.properties).joined(separator: " + ")
        let ms = ((elapsed / .milliseconds(1)) * 100).rounded() / 100
        queryLog(
            "EXPLAIN \(database.project) \(target.query.allDescendants ? "group " : "")\(target.query.collectionID): "
                + "\(used.isEmpty ? "(__name__ ASC)" : used); plan \(statistics.plan); "
                + "\(statistics.indexEntriesScanned) index entries, \(statistics.documentsScanned) documents scanned, "
                + "\(returned) returned, \(ms) ms")
    }

    /// ListCollectionIds: the ids after `pageToken` (the last id of the previous page), at most
    /// `pageSize` of them (0 = all), UTF-8 ordered.
    func listCollectionIDs(_ r: ListCollectionIdsRequest, auth: AuthContext) throws(FirestoreError) -> ListCollectionIdsResponse {
        var ids = try engine.listCollectionIDs(under: r.parent, in: r.database, readTime: r.readTime, auth: auth)
        if !r.pageToken.isEmpty { ids = ids.filter { utf8Less(r.pageToken, $0) } }
        var next = ""
        if r.pageSize > 0, ids.count > Int(r.pageSize) {
            ids.removeLast(ids.count - Int(r.pageSize))
            next = ids.last ?? ""
        }
        return ListCollectionIdsResponse(collectionIDs: ids, nextPageToken: next)
    }
}

extension Document {
    /// The document with only the fields under `mask` (nil = all fields).
    func masked(_ mask: [FieldPath]?) -> Document {
        guard let mask else { return self }
        var d = self
        d.fields = projected(to: mask)
        return d
    }
}

/// The commit a write request makes, and how its answer is shaped from the commit's outcome:
/// CreateDocument (automatic id, `exists: false`), UpdateDocument, DeleteDocument, Commit.
struct CommitPlan: Sendable {
    var writes: [Write]
    var database: DatabaseID
    var transaction: [UInt8]?
    var respond: @Sendable (CommitOutcome) throws(FirestoreError) -> FirestoreResponse

    /// - Throws: `.invalidArgument` for a document id CreateDocument cannot use or a response
    ///   mask path over 20 segments; `.internalError` for a request that makes no commit.
    init(_ request: FirestoreRequest) throws(FirestoreError) {
        for p in FirestoreExecutor.readMask(of: request) ?? [] { try DocumentLimits.checkPathSegments(p) }
        switch request {
        case .createDocument(let r):
            let id = r.documentID.isEmpty ? AutoID.make() : r.documentID
            let path = r.parent.appending(r.collectionID).appending(id)
            try path.validateIDs()
            writes = [Write(operation: .update(path: path, fields: r.fields), currentDocument: .exists(false))]
            database = r.database
            respond = { outcome throws(FirestoreError) in
                guard let document = outcome.documents[0] else { throw .internalError("Document \(path) vanished during its own creation.") }
                return .document(document.masked(r.mask))
            }
        case .updateDocument(let r):
            writes = [r.write]
            database = r.database
            respond = { outcome throws(FirestoreError) in
                guard let document = outcome.documents[0] else { throw .internalError("Document \(r.path) vanished during its own update.") }
                return .document(document.masked(r.mask))
            }
        case .deleteDocument(let r):
            writes = [r.write]
            database = r.database
            respond = { _ in .empty }
        case .commit(let r):
            writes = r.writes
            database = r.database
            transaction = r.transaction
            respond = { outcome in .commit(CommitResponse(writeResults: outcome.writeResults, commitTime: outcome.commitTime)) }
        default:
            throw .internalError("\(request) makes no commit.")
        }
    }
}
