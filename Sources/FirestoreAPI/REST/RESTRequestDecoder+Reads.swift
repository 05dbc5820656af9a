import FirestoreModel
import FirestoreRPC
import GoogleWire

extension RESTRequestDecoder {
    /// The consistency selector of a read body: `transaction` | `newTransaction` | `readTime`.
    /// - Throws: `.invalidArgument` when more than one is set (one `consistency_selector` oneof).
    func consistency(_ reader: inout JSONObjectReader) throws(FirestoreError) -> ReadConsistency {
        let tx = reader.take("transaction")
        let newTx = reader.take("newTransaction")
        let readTime = reader.take("readTime")
        switch (tx, newTx, readTime) {
        case (nil, nil, nil): return .strong
        case (let t?, nil, nil): return .transaction(try RESTCodec.decodeBytes(t, at: reader.child("transaction")))
        case (nil, let o?, nil): return .newTransaction(try RESTCodec.decodeTransactionOptions(o, at: reader.child("newTransaction")))
        case (nil, nil, let r?): return .readTime(try RESTCodec.decodeTimestamp(r, at: reader.child("readTime")))
        default: throw .invalidArgument("Only one of transaction, newTransaction and readTime may be set.")
        }
    }

    /// BatchGetDocuments: `POST …/documents:batchGet` with `{documents, mask?, <consistency>}`.
    /// - Throws: `.invalidArgument` when `database` names another database than the URL.
    func batchGetDocuments() throws(FirestoreError) -> BatchGetDocumentsRequest {
        let db = route.database
        var reader = try JSONObjectReader(try body(), at: "")
        if let d = reader.take("database"), case .string(let name) = d, name != db.name {
            throw .invalidArgument("Database \"\(name)\" does not match the URL.")
        }
        let names = reader.take("documents")
        let mask = try reader.take("mask").map { (m: JSONValue) throws(FirestoreError) in try RESTCodec.decodeMask(m, at: "mask") }
        let consistency = try consistency(&reader)
        try reader.finish()
        var paths: [ResourcePath] = []
        if let names {
            guard case .array(let list) = names else { throw .invalidArgument("Invalid value at 'documents': expected an array.") }
            for (i, n) in list.enumerated() {
                guard case .string(let s) = n else { throw .invalidArgument("Invalid value at 'documents[\(i)]': expected a string.") }
                paths.append(try RESTCodec.decodeDocumentName(s, database: db, at: "documents[\(i)]"))
            }
        }
        return BatchGetDocumentsRequest(database: db, paths: paths, mask: mask, consistency: consistency)
    }

    /// RunQuery: `POST /v1/{parent}:runQuery` with `{structuredQuery, <consistency>, explainOptions?}`.
    /// - Throws: `.invalidArgument` for a malformed `explainOptions` (`RESTCodec.decodeExplainOptions`).
    func runQuery() throws(FirestoreError) -> RunQueryRequest {
        var reader = try JSONObjectReader(try body(), at: "")
        guard let sq = reader.take("structuredQuery") else { throw .invalidArgument("structuredQuery is required.") }
        let query = try RESTCodec.decodeStructuredQuery(sq, at: "structuredQuery")
        let consistency = try consistency(&reader)
        let explainOptions = try reader.take("explainOptions").map { (v) throws(FirestoreError) in
            try RESTCodec.decodeExplainOptions(v, at: "explainOptions")
        }
        try reader.finish()
        return RunQueryRequest(
            database: route.database, target: QueryTarget(parent: route.path, query: query), consistency: consistency,
            explainOptions: explainOptions)
    }

    /// RunAggregationQuery: `POST /v1/{parent}:runAggregationQuery` with
    /// `{structuredAggregationQuery, <consistency>, explainOptions?}`.
    /// - Throws: `.invalidArgument` for a malformed `explainOptions` (`RESTCodec.decodeExplainOptions`).
    func runAggregationQuery() throws(FirestoreError) -> RunAggregationQueryRequest {
        var reader = try JSONObjectReader(try body(), at: "")
        guard let saq = reader.take("structuredAggregationQuery") else {
            throw .invalidArgument("structuredAggregationQuery is required.")
        }
        let aq = try RESTCodec.decodeAggregationQuery(saq, at: "structuredAggregationQuery")
        let consistency = try consistency(&reader)
        let explainOptions = try reader.take("explainOptions").map { (v) throws(FirestoreError) in
            try RESTCodec.decodeExplainOptions(v, at: "explainOptions")
        }
        try reader.finish()
        return RunAggregationQueryRequest(
            database: route.database, target: QueryTarget(parent: route.path, query: aq.query), aggregations: aq.aggregations,
            consistency: consistency, explainOptions: explainOptions)
    }

    /// PartitionQuery: `POST /v1/{parent}:partitionQuery` with `{structuredQuery?, partitionCount?,
    /// pageToken?, pageSize?, readTime?}` (the query is decoded, so a malformed one is refused).
    func partitionQuery() throws(FirestoreError) -> PartitionQueryRequest {
        var reader = try JSONObjectReader(try body(), at: "")
        var query = StructuredQuery(collectionID: "")
        if let sq = reader.take("structuredQuery") {
            query = try RESTCodec.decodeStructuredQuery(sq, at: "structuredQuery")
        }
        for k in ["partitionCount", "pageToken", "pageSize"] { _ = reader.take(k) }
        let readTime = try reader.take("readTime").map { (v) throws(FirestoreError) in
            try RESTCodec.decodeTimestamp(v, at: "readTime")
        }
        try reader.finish()
        return PartitionQueryRequest(database: route.database, target: QueryTarget(parent: route.path, query: query), readTime: readTime)
    }

    /// ListCollectionIds: `POST /v1/{parent}:listCollectionIds` with `{pageSize?, pageToken?, readTime?}`.
    func listCollectionIds() throws(FirestoreError) -> ListCollectionIdsRequest {
        var reader = try JSONObjectReader(try body(), at: "")
        var pageSize: Int32 = 0
        if let p = reader.take("pageSize") { pageSize = try RESTCodec.decodeInt32(p, at: "pageSize") }
        var pageToken = ""
        if let t = reader.take("pageToken"), case .string(let s) = t { pageToken = s }
        let readTime = try reader.take("readTime").map { (v) throws(FirestoreError) in
            try RESTCodec.decodeTimestamp(v, at: "readTime")
        }
        try reader.finish()
        return ListCollectionIdsRequest(
            database: route.database, parent: route.path, pageSize: pageSize, pageToken: pageToken, readTime: readTime)
    }
}
