import FirestoreEngine
import FirestoreModel
import GoogleWire

extension FirestoreRESTService {
    /// Decodes `writes: [Write]` from a Commit or BatchWrite body.
    func writes(_ reader: inout JSONObjectReader, _ db: DatabaseID) throws(FirestoreError) -> [Write] {
        guard let w = reader.take("writes") else { return [] }
        guard case .array(let list) = w else { throw .invalidArgument("Invalid value at 'writes': expected an array.") }
        var out: [Write] = []
        out.reserveCapacity(list.count)
        for (i, item) in list.enumerated() {
            out.append(try RESTCodec.decodeWrite(item, database: db, at: "writes[\(i)]"))
        }
        return out
    }

    /// Commit → `{writeResults, commitTime}`.
    func commit(_ db: DatabaseID, _ body: JSONValue, auth: AuthContext) throws(FirestoreError) -> JSONValue {
        var reader = try JSONObjectReader(body, at: "")
        let writes = try writes(&reader, db)
        let tx = try reader.take("transaction").map { (t: JSONValue) throws(FirestoreError) in try RESTCodec.decodeBytes(t, at: "transaction") }
        _ = reader.take("database")
        try reader.finish()
        let r = try engine.commit(writes, in: db, transaction: tx, auth: auth)
        return RESTCodec.encodeCommitResponse(r.writeResults, commitTime: r.commitTime)
    }

    /// BatchWrite → `{writeResults, status}` aligned with the writes.
    func batchWrite(_ db: DatabaseID, _ body: JSONValue, auth: AuthContext) throws(FirestoreError) -> JSONValue {
        var reader = try JSONObjectReader(body, at: "")
        let writes = try writes(&reader, db)
        _ = reader.take("labels")
        _ = reader.take("database")
        try reader.finish()
        let results = try engine.batchWrite(writes, in: db, auth: auth)
        var writeResults: [JSONValue] = []
        var statuses: [JSONValue] = []
        for r in results {
            switch r {
            case .success(let w):
                writeResults.append(RESTCodec.encodeWriteResult(w))
                statuses.append(.object([]))
            case .failure(let e):
                writeResults.append(.object([]))
                statuses.append(.object(["code": .integer(e.code.rawValue), "message": .string(e.message)]))
            }
        }
        return .object(["writeResults": .array(writeResults), "status": .array(statuses)])
    }

    /// BeginTransaction → `{transaction}`.
    func beginTransaction(_ db: DatabaseID, _ body: JSONValue) throws(FirestoreError) -> JSONValue {
        var reader = try JSONObjectReader(body, at: "")
        let options = try reader.take("options").map { (o: JSONValue) throws(FirestoreError) in try RESTCodec.decodeTransactionOptions(o, at: "options") }
        _ = reader.take("database")
        try reader.finish()
        let id = try engine.beginTransaction(in: db, mode: Self.mode(options ?? .readWrite(retryTransaction: nil)))
        return RESTCodec.encodeBeginTransactionResponse(id)
    }

    /// Rollback → `{}`.
    func rollback(_ db: DatabaseID, _ body: JSONValue) throws(FirestoreError) -> JSONValue {
        var reader = try JSONObjectReader(body, at: "")
        guard let t = reader.take("transaction") else { throw .invalidArgument("transaction is required.") }
        let id = try RESTCodec.decodeBytes(t, at: "transaction")
        _ = reader.take("database")
        try reader.finish()
        try engine.rollback(id, in: db)
        return .object([])
    }
}
