import FirestoreModel
import FirestoreRPC
import GoogleWire

/// Firestore's response messages in proto3 JSON, shaped as the emulator writes them: a
/// server-streaming RPC's messages become one JSON array. Source: googleapis `firestore.proto`;
/// docs/reference/firestore-wire.md §1.3, §1.8.
extension RESTCodec {
    /// The JSON body answering `response`, with document names in `database`.
    public static func encodeResponse(_ response: FirestoreResponse, database: DatabaseID) -> JSONValue {
        switch response {
        case .document(let d): return encodeDocument(d, database: database)
        case .empty, .partitionQuery: return .object([])
        case .listDocuments(let r): return encodeListDocumentsResponse(r, database: database)
        case .batchGetDocuments(let list): return .array(list.map { encodeBatchGetDocumentsResponse($0, database: database) })
        case .beginTransaction(let r): return encodeBeginTransactionResponse(r)
        case .commit(let r): return encodeCommitResponse(r)
        case .runQuery(let list): return .array(list.map { encodeRunQueryResponse($0, database: database) })
        case .runAggregationQuery(let r):
            var elements: [JSONValue] = []
            if let t = r.transaction, !t.isEmpty { elements.append(.object(["transaction": encodeBytes(t)])) }
            elements.append(encodeRunAggregationQueryResult(r))
            return .array(elements)
        case .listCollectionIds(let r): return encodeListCollectionIdsResponse(r)
        case .batchWrite(let r): return encodeBatchWriteResponse(r)
        }
    }

    /// The JSON text of `encodeResponse(response, database:)`. A query's elements are written
    /// straight into one buffer; other answers go through `JSONValue`.
    public static func serializeResponse(_ response: FirestoreResponse, database: DatabaseID) -> [UInt8] {
        switch response {
        case .document(let d):
            var out: [UInt8] = []
            out.reserveCapacity(1024)
            writeDocument(d, database: database, into: &out)
            return out
        case .runQuery(let list):
            var out: [UInt8] = []
            out.reserveCapacity(64 + list.count * 768)
            out.append(UInt8(ascii: "["))
            appendRunQueryElements(list, database: database, into: &out, first: true)
            out.append(UInt8(ascii: "]"))
            return out
        default:
            return encodeResponse(response, database: database).serialized()
        }
    }

    /// Appends the elements of a RunQuery answer's JSON array (no brackets), a comma before each
    /// unless it is the array's `first`: an answer written page by page is the same text.
    public static func appendRunQueryElements(
        _ list: [RunQueryResponse], database: DatabaseID, into out: inout [UInt8], first: Bool
    ) {
        for (i, m) in list.enumerated() {
            if i > 0 || !first { out.append(UInt8(ascii: ",")) }
            if !writeDocumentElement(m, database: database, into: &out) {
                encodeRunQueryResponse(m, database: database).write(into: &out)
            }
        }
    }

    /// A `RunQueryResponse` element. With a document: `{document, readTime, done?, skippedResults?}`
    /// (`done: true` on the last, as the emulator marks it); the begun transaction alone:
    /// `{transaction}`; neither (an empty result): `{readTime, skippedResults?, done?}`. Any of
    /// them ends with `explainMetrics` when it carries the metrics (an explained query's last
    /// element; a plan-only explain may be `{explainMetrics}` or `{readTime, explainMetrics}`;
    /// docs/reference/firestore-wire.md §1.12).
    public static func encodeRunQueryResponse(_ m: RunQueryResponse, database: DatabaseID) -> JSONValue {
        var text: [UInt8] = []
        if writeDocumentElement(m, database: database, into: &text) { return .fragment(text) }
        var members: [JSONValue.Member] = []
        if let d = m.document {
            members.append(.init("document", encodeDocument(d, database: database)))
            if let t = m.readTime { members.append(.init("readTime", encodeTimestamp(t))) }
            if m.done { members.append(.init("done", .bool(true))) }
            if m.skippedResults > 0 { members.append(.init("skippedResults", .integer(Int(m.skippedResults)))) }
        } else if let t = m.transaction, !t.isEmpty {
            members.append(.init("transaction", encodeBytes(t)))
        } else {
            if let t = m.readTime { members.append(.init("readTime", encodeTimestamp(t))) }
            if m.skippedResults > 0 { members.append(.init("skippedResults", .integer(Int(m.skippedResults)))) }
            if m.done { members.append(.init("done", .bool(true))) }
        }
        if let e = m.explainMetrics { members.append(.init("explainMetrics", encodeExplainMetrics(e))) }
        return .object(members)
    }

    /// Appends the element of a RunQuery answer that carries a document and no explain
    /// metrics, `{document, readTime?, done?, skippedResults?}`, as JSON text; returns false
    /// (writing nothing) for every other element, which `encodeRunQueryResponse` builds.
    static func writeDocumentElement(_ m: RunQueryResponse, database: DatabaseID, into out: inout [UInt8]) -> Bool {
        guard let d = m.document, m.explainMetrics == nil else { return false }
        out.append(literal: #"{"document":"#)
        writeDocument(d, database: database, into: &out)
        if let t = m.readTime {
            out.append(literal: #","readTime":""#)
            t.appendRFC3339(to: &out)
            out.append(UInt8(ascii: "\""))
        }
        if m.done { out.append(literal: #","done":true"#) }
        if m.skippedResults > 0 {
            out.append(literal: #","skippedResults":"#)
            out.append(contentsOf: String(m.skippedResults).utf8)
        }
        out.append(UInt8(ascii: "}"))
        return true
    }

    /// A `BatchGetDocumentsResponse` element: `{found, readTime}`, `{missing: "<full name>", readTime}`,
    /// or the begun transaction alone: `{transaction}`.
    public static func encodeBatchGetDocumentsResponse(_ m: BatchGetDocumentsResponse, database: DatabaseID) -> JSONValue {
        var members: [JSONValue.Member] = []
        switch m.result {
        case .found(let d)?: members.append(.init("found", encodeDocument(d, database: database)))
        case .missing(let p)?: members.append(.init("missing", .string(database.resourceName(p))))
        case nil:
            if let t = m.transaction, !t.isEmpty { members.append(.init("transaction", encodeBytes(t))) }
            return .object(members)
        }
        if let t = m.readTime { members.append(.init("readTime", encodeTimestamp(t))) }
        return .object(members)
    }

    /// A `RunAggregationQueryResponse` result element:
    /// `{result: {aggregateFields: {alias: Value}}, readTime, done: true, explainMetrics?}`, aliases
    /// in UTF-8 order (the begun transaction, if any, is its own element before it). A plan-only
    /// explain (`aggregateFields` empty, `explainMetrics` set) has no `result`:
    /// `{readTime?, done: true, explainMetrics}` (docs/reference/firestore-wire.md §1.12).
    public static func encodeRunAggregationQueryResult(_ m: RunAggregationQueryResponse) -> JSONValue {
        var members: [JSONValue.Member] = []
        if !(m.aggregateFields.isEmpty && m.explainMetrics != nil) {
            members.append(.init("result", .object(["aggregateFields": encodeFields(m.aggregateFields)])))
        }
        if let t = m.readTime { members.append(.init("readTime", encodeTimestamp(t))) }
        members.append(.init("done", .bool(true)))
        if let e = m.explainMetrics { members.append(.init("explainMetrics", encodeExplainMetrics(e))) }
        return .object(members)
    }

    /// A `ListDocumentsResponse` `{documents?, nextPageToken?}`; a missing document (`showMissing`)
    /// is written with its name only.
    public static func encodeListDocumentsResponse(_ r: ListDocumentsResponse, database: DatabaseID) -> JSONValue {
        var members: [JSONValue.Member] = []
        if !r.documents.isEmpty {
            members.append(.init("documents", .array(r.documents.map { item in
                switch item {
                case .document(let d): return encodeDocument(d, database: database)
                case .missing(let p): return .object(["name": .string(database.resourceName(p))])
                }
            })))
        }
        if !r.nextPageToken.isEmpty { members.append(.init("nextPageToken", .string(r.nextPageToken))) }
        return .object(members)
    }

    /// A `ListCollectionIdsResponse` `{collectionIds?, nextPageToken?}`.
    public static func encodeListCollectionIdsResponse(_ r: ListCollectionIdsResponse) -> JSONValue {
        var members: [JSONValue.Member] = []
        if !r.collectionIDs.isEmpty { members.append(.init("collectionIds", .array(r.collectionIDs.map(JSONValue.string)))) }
        if !r.nextPageToken.isEmpty { members.append(.init("nextPageToken", .string(r.nextPageToken))) }
        return .object(members)
    }

    /// A `BatchWriteResponse` `{writeResults, status}` aligned with the writes: `{}` and `{}` for a
    /// success's status and a failure's result, `{code, message}` for a failure's status.
    public static func encodeBatchWriteResponse(_ r: BatchWriteResponse) -> JSONValue {
        var writeResults: [JSONValue] = []
        var statuses: [JSONValue] = []
        for result in r.results {
            switch result {
            case .success(let w):
                writeResults.append(encodeWriteResult(w))
                statuses.append(.object([]))
            case .failure(let e):
                writeResults.append(.object([]))
                statuses.append(.object(["code": .integer(e.code.rawValue), "message": .string(e.message)]))
            }
        }
        return .object(["writeResults": .array(writeResults), "status": .array(statuses)])
    }

    /// A `BeginTransactionResponse` `{transaction: "<base64>"}`.
    public static func encodeBeginTransactionResponse(_ r: BeginTransactionResponse) -> JSONValue {
        .object(["transaction": encodeBytes(r.transaction)])
    }

    /// A `CommitResponse` `{writeResults: [...], commitTime}` (`writeResults` omitted when empty).
    public static func encodeCommitResponse(_ r: CommitResponse) -> JSONValue {
        var members: [JSONValue.Member] = []
        if !r.writeResults.isEmpty { members.append(.init("writeResults", .array(r.writeResults.map(encodeWriteResult)))) }
        members.append(.init("commitTime", encodeTimestamp(r.commitTime)))
        return .object(members)
    }

    /// The Google API error body `{"error": {"code", "message", "status"}}` — the shape
    /// GoogleWire owns (`ErrorTable.errorBody(_:httpStatus:)`), kept here for Firestore's callers.
    /// - Parameter httpStatus: the HTTP status from the error table (docs/reference/firestore-wire.md §1.8), which
    ///   is also the body's `code`.
    public static func encodeError(_ error: FirestoreError, httpStatus: Int) -> JSONValue {
        ErrorTable.errorBody(error, httpStatus: httpStatus)
    }
}
