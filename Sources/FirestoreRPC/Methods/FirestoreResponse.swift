import FirestoreModel

/// What `FirestoreExecutor` answers to a `FirestoreRequest`: the RPC's response messages in
/// the domain model, which each transport encodes (a server-streaming RPC answers with the
/// list of messages gRPC streams and REST writes as one JSON array).
/// Source: googleapis `google/firestore/v1/firestore.proto`.
public enum FirestoreResponse: Sendable, Equatable {
    /// GetDocument, CreateDocument, UpdateDocument: the document (already masked).
    case document(Document)
    /// DeleteDocument, Rollback: `google.protobuf.Empty`.
    case empty
    /// ListDocuments.
    case listDocuments(ListDocumentsResponse)
    /// BatchGetDocuments: a message carrying only the begun transaction (when one was
    /// begun), then one per requested name, in order.
    case batchGetDocuments([BatchGetDocumentsResponse])
    /// BeginTransaction.
    case beginTransaction(BeginTransactionResponse)
    /// Commit.
    case commit(CommitResponse)
    /// RunQuery: a message carrying only the begun transaction (when one was begun), then one
    /// per result document (`skippedResults` on the first, `done` on the last), or one
    /// message with neither when nothing matched.
    case runQuery([RunQueryResponse])
    /// RunAggregationQuery: one message.
    case runAggregationQuery(RunAggregationQueryResponse)
    /// PartitionQuery.
    case partitionQuery(PartitionQueryResponse)
    /// ListCollectionIds.
    case listCollectionIds(ListCollectionIdsResponse)
    /// BatchWrite.
    case batchWrite(BatchWriteResponse)
}
