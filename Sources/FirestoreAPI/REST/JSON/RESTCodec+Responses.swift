import FirestoreModel
import GoogleWire

/// Elements of the streaming responses (sent over REST as one JSON array) and error bodies,
/// shaped as the emulator writes them. Source: googleapis `firestore.proto`; reference §1.3, §1.8.
extension RESTCodec {
    /// A `RunQueryResponse` element carrying one result: `{document, readTime}` plus
    /// `done: true` on the last element (the emulator marks it; it reports no `skippedResults`).
    public static func encodeRunQueryResult(_ document: Document, readTime: Timestamp, database: DatabaseID, done: Bool = false)
        -> JSONValue
    {
        var members: [JSONValue.Member] = [
            .init("document", encodeDocument(document, database: database)), .init("readTime", encodeTimestamp(readTime)),
        ]
        if done { members.append(.init("done", .bool(true))) }
        return .object(members)
    }

    /// A `RunQueryResponse` element without a document: `{readTime, skippedResults?, done?}` —
    /// what an empty result set returns (`[{"readTime": …, "done": true}]`).
    public static func encodeRunQueryEmpty(readTime: Timestamp, skippedResults: Int = 0, done: Bool = true) -> JSONValue {
        var members: [JSONValue.Member] = [.init("readTime", encodeTimestamp(readTime))]
        if skippedResults > 0 { members.append(.init("skippedResults", .integer(skippedResults))) }
        if done { members.append(.init("done", .bool(true))) }
        return .object(members)
    }

    /// The first stream element when a read began a transaction: `{transaction}` alone.
    public static func encodeTransactionElement(_ transaction: [UInt8]) -> JSONValue {
        .object(["transaction": encodeBytes(transaction)])
    }

    /// A `BatchGetDocumentsResponse` for a found document: `{found, readTime}`.
    public static func encodeBatchGetFound(_ document: Document, readTime: Timestamp, database: DatabaseID) -> JSONValue {
        .object(["found": encodeDocument(document, database: database), "readTime": encodeTimestamp(readTime)])
    }

    /// A `BatchGetDocumentsResponse` for a missing document: `{missing: "<full name>", readTime}`.
    public static func encodeBatchGetMissing(_ path: ResourcePath, readTime: Timestamp, database: DatabaseID) -> JSONValue {
        .object(["missing": .string(database.resourceName(path)), "readTime": encodeTimestamp(readTime)])
    }

    /// A `RunAggregationQueryResponse` element:
    /// `{result: {aggregateFields: {alias: Value}}, readTime, done: true}`, aliases in UTF-8 order.
    public static func encodeAggregationResult(_ fields: [String: Value], readTime: Timestamp) -> JSONValue {
        .object([
            "result": .object(["aggregateFields": encodeFields(fields)]), "readTime": encodeTimestamp(readTime),
            "done": .bool(true),
        ])
    }

    /// A `BeginTransactionResponse` `{transaction: "<base64>"}`.
    public static func encodeBeginTransactionResponse(_ transaction: [UInt8]) -> JSONValue {
        .object(["transaction": encodeBytes(transaction)])
    }

    /// The Google API error body `{"error": {"code", "message", "status"}}` — the shape
    /// GoogleWire owns (`ErrorTable.errorBody(_:httpStatus:)`), kept here for Firestore's callers.
    /// - Parameter httpStatus: the HTTP status from the error table (reference §1.8), which
    ///   is also the body's `code`.
    public static func encodeError(_ error: FirestoreError, httpStatus: Int) -> JSONValue {
        ErrorTable.errorBody(error, httpStatus: httpStatus)
    }
}
