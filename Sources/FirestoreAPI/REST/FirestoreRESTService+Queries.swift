import FirestoreEngine
import FirestoreModel
import GoogleWire

extension FirestoreRESTService {
    /// The consistency selector of a streaming read body: `transaction` | `newTransaction` | `readTime`.
    func consistency(_ reader: inout JSONObjectReader) throws(FirestoreError) -> ReadConsistency {
        let tx = reader.take("transaction")
        let newTx = reader.take("newTransaction")
        let readTime = reader.take("readTime")
        switch (tx, newTx, readTime) {
        case (nil, nil, nil): return .strong
        case (let t?, nil, nil): return .transaction(try RESTCodec.decodeBytes(t, at: reader.child("transaction")))
        case (nil, let o?, nil):
            return .newTransaction(Self.mode(try RESTCodec.decodeTransactionOptions(o, at: reader.child("newTransaction"))))
        case (nil, nil, let r?): return .readTime(try RESTCodec.decodeTimestamp(r, at: reader.child("readTime")))
        default: throw .invalidArgument("Only one of transaction, newTransaction and readTime may be set.")
        }
    }

    static func mode(_ o: RESTCodec.TransactionOptions) -> TransactionMode {
        switch o {
        case .readOnly(let t): return .readOnly(readTime: t)
        case .readWrite(let r): return .readWrite(retrying: r)
        }
    }

    /// The query parent of `route`: the documents root or a document.
    func queryParent(_ route: RESTRoute) throws(FirestoreError) -> ResourcePath {
        guard route.path.segments.isEmpty || route.path.isDocument else {
            throw .invalidArgument("Query parent must be a document or the documents root: \(route.path)")
        }
        return route.path
    }

    /// BatchGetDocuments → JSON array of `{found|missing, readTime}` (transaction first when begun).
    func batchGet(_ db: DatabaseID, _ body: JSONValue, auth: AuthContext) throws(FirestoreError) -> JSONValue {
        var reader = try JSONObjectReader(body, at: "")
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
        let r = try engine.batchGet(paths, in: db, consistency: consistency, auth: auth)
        var out: [JSONValue] = []
        if let t = r.transaction { out.append(RESTCodec.encodeTransactionElement(t)) }
        for item in r.value {
            switch item {
            case .found(let d): out.append(RESTCodec.encodeBatchGetFound(d.masked(mask), readTime: r.readTime, database: db))
            case .missing(let p): out.append(RESTCodec.encodeBatchGetMissing(p, readTime: r.readTime, database: db))
            }
        }
        return .array(out)
    }

    /// RunQuery → JSON array of `{document, readTime}`; `[{readTime}]` when nothing matches.
    func runQuery(_ route: RESTRoute, _ body: JSONValue, auth: AuthContext) throws(FirestoreError) -> JSONValue {
        var reader = try JSONObjectReader(body, at: "")
        guard let sq = reader.take("structuredQuery") else { throw .invalidArgument("structuredQuery is required.") }
        let query = try RESTCodec.decodeStructuredQuery(sq, at: "structuredQuery")
        let consistency = try consistency(&reader)
        _ = reader.take("explainOptions")
        try reader.finish()
        let target = QueryTarget(parent: try queryParent(route), query: query)
        let r = try engine.runQuery(target, in: route.database, consistency: consistency, auth: auth)
        var out: [JSONValue] = []
        if let t = r.transaction { out.append(RESTCodec.encodeTransactionElement(t)) }
        let docs = r.value.documents
        if docs.isEmpty {
            out.append(RESTCodec.encodeRunQueryEmpty(readTime: r.readTime, skippedResults: r.value.skipped))
        } else {
            for (i, d) in docs.enumerated() {
                var element = RESTCodec.encodeRunQueryResult(
                    d.masked(query.select), readTime: r.readTime, database: route.database, done: i == docs.count - 1)
                if i == 0 && r.value.skipped > 0, case .object(var m) = element {
                    m.append(.init("skippedResults", .integer(r.value.skipped)))
                    element = .object(m)
                }
                out.append(element)
            }
        }
        return .array(out)
    }

    /// RunAggregationQuery → one-element JSON array `{result:{aggregateFields}, readTime}`.
    func runAggregationQuery(_ route: RESTRoute, _ body: JSONValue, auth: AuthContext) throws(FirestoreError) -> JSONValue {
        var reader = try JSONObjectReader(body, at: "")
        guard let saq = reader.take("structuredAggregationQuery") else {
            throw .invalidArgument("structuredAggregationQuery is required.")
        }
        let aq = try RESTCodec.decodeAggregationQuery(saq, at: "structuredAggregationQuery")
        let consistency = try consistency(&reader)
        _ = reader.take("explainOptions")
        try reader.finish()
        let target = QueryTarget(parent: try queryParent(route), query: aq.query)
        let r = try engine.runAggregation(
            target, aggregations: aq.aggregations, in: route.database, consistency: consistency, auth: auth)
        var out: [JSONValue] = []
        if let t = r.transaction { out.append(RESTCodec.encodeTransactionElement(t)) }
        out.append(RESTCodec.encodeAggregationResult(r.value, readTime: r.readTime))
        return .array(out)
    }

    /// PartitionQuery: no partitions (legal; clients then run one partition).
    func partitionQuery(_ route: RESTRoute, _ body: JSONValue) throws(FirestoreError) -> JSONValue {
        var reader = try JSONObjectReader(body, at: "")
        if let sq = reader.take("structuredQuery") {
            _ = try RESTCodec.decodeStructuredQuery(sq, at: "structuredQuery")
        }
        for k in ["partitionCount", "pageToken", "pageSize"] { _ = reader.take(k) }
        let readTime = try reader.take("readTime").map { (v) throws(FirestoreError) in
            try RESTCodec.decodeTimestamp(v, at: "readTime")
        }
        try reader.finish()
        try engine.checkReadTime(readTime, in: route.database)
        return .object([])
    }

    /// ListCollectionIds → `{collectionIds:[…], nextPageToken?}` (admin only, as the emulator).
    func listCollectionIDs(_ route: RESTRoute, _ body: JSONValue, auth: AuthContext) throws(FirestoreError) -> JSONValue {
        var reader = try JSONObjectReader(body, at: "")
        var pageSize: Int?
        if let p = reader.take("pageSize") { pageSize = Int(try RESTCodec.decodeInt32(p, at: "pageSize")) }
        var after: String?
        if let t = reader.take("pageToken"), case .string(let s) = t, !s.isEmpty { after = s }
        let readTime = try reader.take("readTime").map { (v) throws(FirestoreError) in
            try RESTCodec.decodeTimestamp(v, at: "readTime")
        }
        try reader.finish()
        var ids = try engine.listCollectionIDs(under: try queryParent(route), in: route.database, readTime: readTime, auth: auth)
        if let after { ids = ids.filter { utf8Less(after, $0) } }
        var members: [JSONValue.Member] = []
        var next: String?
        if let l = pageSize, l > 0, ids.count > l {
            ids.removeLast(ids.count - l)
            next = ids.last
        }
        if !ids.isEmpty { members.append(.init("collectionIds", .array(ids.map(JSONValue.string)))) }
        if let next { members.append(.init("nextPageToken", .string(next))) }
        return .object(members)
    }
}
