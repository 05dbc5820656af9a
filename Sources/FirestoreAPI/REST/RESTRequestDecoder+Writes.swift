import FirestoreModel
import FirestoreRPC
import GoogleWire

extension RESTRequestDecoder {
    /// Decodes `writes: [Write]` from a Commit or BatchWrite body.
    func writes(_ reader: inout JSONObjectReader) throws(FirestoreError) -> [Write] {
        guard let w = reader.take("writes") else { return [] }
        guard case .array(let list) = w else { throw .invalidArgument("Invalid value at 'writes': expected an array.") }
        var out: [Write] = []
        out.reserveCapacity(list.count)
        for (i, item) in list.enumerated() {
            out.append(try RESTCodec.decodeWrite(item, database: route.database, at: "writes[\(i)]"))
        }
        return out
    }

    /// Commit: `POST …/documents:commit` with `{writes, transaction?}`.
    func commit() throws(FirestoreError) -> CommitRequest {
        var reader = try JSONObjectReader(try body(), at: "")
        let writes = try writes(&reader)
        let tx = try reader.take("transaction").map { (t: JSONValue) throws(FirestoreError) in try RESTCodec.decodeBytes(t, at: "transaction") }
        _ = reader.take("database")
        try reader.finish()
        return CommitRequest(database: route.database, writes: writes, transaction: tx)
    }

    /// BatchWrite: `POST …/documents:batchWrite` with `{writes, labels?}`.
    func batchWrite() throws(FirestoreError) -> BatchWriteRequest {
        var reader = try JSONObjectReader(try body(), at: "")
        let writes = try writes(&reader)
        _ = reader.take("labels")
        _ = reader.take("database")
        try reader.finish()
        return BatchWriteRequest(database: route.database, writes: writes)
    }

    /// BeginTransaction: `POST …/documents:beginTransaction` with `{options?}` (absent = read-write).
    func beginTransaction() throws(FirestoreError) -> BeginTransactionRequest {
        var reader = try JSONObjectReader(try body(), at: "")
        let options = try reader.take("options").map { (o: JSONValue) throws(FirestoreError) in
            try RESTCodec.decodeTransactionOptions(o, at: "options")
        }
        _ = reader.take("database")
        try reader.finish()
        return BeginTransactionRequest(database: route.database, options: options ?? .readWrite(retryTransaction: nil))
    }

    /// Rollback: `POST …/documents:rollback` with `{transaction}`.
    /// - Throws: `.invalidArgument` without a transaction.
    func rollback() throws(FirestoreError) -> RollbackRequest {
        var reader = try JSONObjectReader(try body(), at: "")
        guard let t = reader.take("transaction") else { throw .invalidArgument("transaction is required.") }
        let id = try RESTCodec.decodeBytes(t, at: "transaction")
        _ = reader.take("database")
        try reader.finish()
        return RollbackRequest(database: route.database, transaction: id)
    }
}
