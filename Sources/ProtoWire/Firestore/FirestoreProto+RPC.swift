import FirestoreModel
import FirestoreRPC

extension FirestoreProto {
    /// Decodes the request message of a unary or server-streaming `method`.
    /// - Throws: `INVALID_ARGUMENT` naming the field for malformed bytes (each request type's
    ///   `init(serializedBytes:)`); `UNIMPLEMENTED` for Listen and Write, which are streams.
    public static func request(_ method: FirestoreMethod, from bytes: [UInt8]) throws(FirestoreError) -> FirestoreRequest {
        switch method {
        case .getDocument: return .getDocument(try GetDocumentRequest(serializedBytes: bytes))
        case .listDocuments: return .listDocuments(try ListDocumentsRequest(serializedBytes: bytes))
        case .createDocument: return .createDocument(try CreateDocumentRequest(serializedBytes: bytes))
        case .updateDocument: return .updateDocument(try UpdateDocumentRequest(serializedBytes: bytes))
        case .deleteDocument: return .deleteDocument(try DeleteDocumentRequest(serializedBytes: bytes))
        case .batchGetDocuments: return .batchGetDocuments(try BatchGetDocumentsRequest(serializedBytes: bytes))
        case .beginTransaction: return .beginTransaction(try BeginTransactionRequest(serializedBytes: bytes))
        case .commit: return .commit(try CommitRequest(serializedBytes: bytes))
        case .rollback: return .rollback(try RollbackRequest(serializedBytes: bytes))
        case .runQuery: return .runQuery(try RunQueryRequest(serializedBytes: bytes))
        case .runAggregationQuery: return .runAggregationQuery(try RunAggregationQueryRequest(serializedBytes: bytes))
        case .partitionQuery: return .partitionQuery(try PartitionQueryRequest(serializedBytes: bytes))
        case .listCollectionIds: return .listCollectionIds(try ListCollectionIdsRequest(serializedBytes: bytes))
        case .batchWrite: return .batchWrite(try BatchWriteRequest(serializedBytes: bytes))
        case .listen, .write:
            throw FirestoreError(.unimplemented, "\(method.name) is a bidirectional stream, not a unary call.")
        }
    }

    /// The serialized response messages of `response`, in order (one for a unary RPC), with
    /// document names in `database`.
    public static func messages(_ response: FirestoreResponse, database: DatabaseID) -> [[UInt8]] {
        switch response {
        case .document(let d): return [serializedDocument(d, database: database)]
        case .empty: return [serializedEmpty]
        case .listDocuments(let r): return [r.serializedBytes(database: database)]
        case .batchGetDocuments(let list): return list.map { $0.serializedBytes(database: database) }
        case .beginTransaction(let r): return [r.serializedBytes()]
        case .commit(let r): return [r.serializedBytes()]
        case .runQuery(let list): return list.map { $0.serializedBytes(database: database) }
        case .runAggregationQuery(let r): return [r.serializedBytes()]
        case .partitionQuery(let r): return [r.serializedBytes()]
        case .listCollectionIds(let r): return [r.serializedBytes()]
        case .batchWrite(let r): return [r.serializedBytes()]
        }
    }
}
