import FirestoreModel

/// One request of a unary or server-streaming Firestore RPC, decoded from any transport's wire
/// form (REST URL + JSON body, gRPC protobuf) into the domain model; `FirestoreExecutor` runs it.
/// The bidirectional streams (Listen, Write) are sequences of `ListenRequest`/`WriteRequest`.
/// Source: googleapis `google/firestore/v1/firestore.proto`.
public enum FirestoreRequest: Sendable, Hashable {
    /// GetDocument.
    case getDocument(GetDocumentRequest)
    /// ListDocuments.
    case listDocuments(ListDocumentsRequest)
    /// CreateDocument.
    case createDocument(CreateDocumentRequest)
    /// UpdateDocument.
    case updateDocument(UpdateDocumentRequest)
    /// DeleteDocument.
    case deleteDocument(DeleteDocumentRequest)
    /// BatchGetDocuments.
    case batchGetDocuments(BatchGetDocumentsRequest)
    /// BeginTransaction.
    case beginTransaction(BeginTransactionRequest)
    /// Commit.
    case commit(CommitRequest)
    /// Rollback.
    case rollback(RollbackRequest)
    /// RunQuery.
    case runQuery(RunQueryRequest)
    /// RunAggregationQuery.
    case runAggregationQuery(RunAggregationQueryRequest)
    /// PartitionQuery.
    case partitionQuery(PartitionQueryRequest)
    /// ListCollectionIds.
    case listCollectionIds(ListCollectionIdsRequest)
    /// BatchWrite.
    case batchWrite(BatchWriteRequest)

    /// The RPC this request belongs to.
    public var method: FirestoreMethod {
        switch self {
        case .getDocument: return .getDocument
        case .listDocuments: return .listDocuments
        case .createDocument: return .createDocument
        case .updateDocument: return .updateDocument
        case .deleteDocument: return .deleteDocument
        case .batchGetDocuments: return .batchGetDocuments
        case .beginTransaction: return .beginTransaction
        case .commit: return .commit
        case .rollback: return .rollback
        case .runQuery: return .runQuery
        case .runAggregationQuery: return .runAggregationQuery
        case .partitionQuery: return .partitionQuery
        case .listCollectionIds: return .listCollectionIds
        case .batchWrite: return .batchWrite
        }
    }

    /// The database the request names.
    public var database: DatabaseID {
        switch self {
        case .getDocument(let r): return r.database
        case .listDocuments(let r): return r.database
        case .createDocument(let r): return r.database
        case .updateDocument(let r): return r.database
        case .deleteDocument(let r): return r.database
        case .batchGetDocuments(let r): return r.database
        case .beginTransaction(let r): return r.database
        case .commit(let r): return r.database
        case .rollback(let r): return r.database
        case .runQuery(let r): return r.database
        case .runAggregationQuery(let r): return r.database
        case .partitionQuery(let r): return r.database
        case .listCollectionIds(let r): return r.database
        case .batchWrite(let r): return r.database
        }
    }
}
