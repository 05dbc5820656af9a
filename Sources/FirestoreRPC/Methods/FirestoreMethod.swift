/// Every RPC of the `google.firestore.v1.Firestore` service Hearth serves, with how each
/// transport reaches it: the one table the REST routes, the gRPC method paths and the
/// WebChannel channels derive from (a new transport reads it; it adds no method list of its own).
///
/// Source: googleapis `google/firestore/v1/firestore.proto` (the `rpc` declarations and their
/// `google.api.http` options); docs/reference/firestore-wire.md §1.2 (method table).
public enum FirestoreMethod: String, CaseIterable, Sendable {
    /// Reads one document.
    case getDocument = "GetDocument"
    /// Lists a collection's documents, page by page.
    case listDocuments = "ListDocuments"
    /// Creates a document (auto id when none is given).
    case createDocument = "CreateDocument"
    /// Replaces or merges (update mask) a document, creating it unless a precondition says otherwise.
    case updateDocument = "UpdateDocument"
    /// Deletes a document.
    case deleteDocument = "DeleteDocument"
    /// Reads many documents (server streaming).
    case batchGetDocuments = "BatchGetDocuments"
    /// Opens a transaction.
    case beginTransaction = "BeginTransaction"
    /// Applies writes atomically, optionally ending a transaction.
    case commit = "Commit"
    /// Abandons a transaction.
    case rollback = "Rollback"
    /// Runs a structured query (server streaming).
    case runQuery = "RunQuery"
    /// Runs count/sum/avg over a structured query (server streaming).
    case runAggregationQuery = "RunAggregationQuery"
    /// Splits a query into partitions.
    case partitionQuery = "PartitionQuery"
    /// The mobile SDKs' write stream (bidirectional).
    case write = "Write"
    /// The realtime listen stream (bidirectional).
    case listen = "Listen"
    /// Lists the collection ids under a parent.
    case listCollectionIds = "ListCollectionIds"
    /// Applies writes independently (not atomically).
    case batchWrite = "BatchWrite"

    /// The fully qualified service name (`google.firestore.v1.Firestore`).
    public static let service = "google.firestore.v1.Firestore"

    /// The RPC's name in the proto (`RunQuery`).
    public var name: String { rawValue }

    /// The HTTP/2 `:path` of a gRPC call: `/google.firestore.v1.Firestore/RunQuery`.
    public var grpcPath: String { Self.grpcPrefix + name }

    /// The method whose gRPC `:path` is `path`, or nil for an unknown path.
    public init?(grpcPath path: String) {
        guard path.hasPrefix(Self.grpcPrefix), let method = Self.byName[String(path.dropFirst(Self.grpcPrefix.count))] else {
            return nil
        }
        self = method
    }

    /// `/google.firestore.v1.Firestore/`, the start of every method's gRPC path.
    public static let grpcPrefix = "/\(service)/"

    private static let byName: [String: FirestoreMethod] = Dictionary(
        uniqueKeysWithValues: allCases.map { ($0.name, $0) })

    /// How many messages each side sends.
    public enum Streaming: Sendable, Hashable {
        /// One request, one response.
        case unary
        /// One request, a stream of responses (REST answers with a JSON array of them).
        case serverStreaming
        /// Streams both ways (Listen, Write): gRPC or WebChannel only, never plain REST.
        case bidirectional
    }

    /// The method's streaming shape (firestore.proto's `stream` markers).
    public var streaming: Streaming {
        switch self {
        case .batchGetDocuments, .runQuery, .runAggregationQuery: return .serverStreaming
        case .listen, .write: return .bidirectional
        default: return .unary
        }
    }

    /// The REST v1 binding: HTTP method, which resource the URL names, custom verb.
    public var http: HTTPBinding {
        switch self {
        case .getDocument: return HTTPBinding("GET", .document)
        case .listDocuments: return HTTPBinding("GET", .collection)
        case .createDocument: return HTTPBinding("POST", .collection)
        case .updateDocument: return HTTPBinding("PATCH", .document)
        case .deleteDocument: return HTTPBinding("DELETE", .document)
        case .batchGetDocuments: return HTTPBinding("POST", .database, verb: "batchGet")
        case .beginTransaction: return HTTPBinding("POST", .database, verb: "beginTransaction")
        case .commit: return HTTPBinding("POST", .database, verb: "commit")
        case .rollback: return HTTPBinding("POST", .database, verb: "rollback")
        case .runQuery: return HTTPBinding("POST", .parent, verb: "runQuery")
        case .runAggregationQuery: return HTTPBinding("POST", .parent, verb: "runAggregationQuery")
        case .partitionQuery: return HTTPBinding("POST", .parent, verb: "partitionQuery")
        case .write: return HTTPBinding("POST", .database, verb: "write")
        case .listen: return HTTPBinding("POST", .database, verb: "listen")
        case .listCollectionIds: return HTTPBinding("POST", .parent, verb: "listCollectionIds")
        case .batchWrite: return HTTPBinding("POST", .database, verb: "batchWrite")
        }
    }

    /// The WebChannel path of a bidirectional method (`/google.firestore.v1.Firestore/Listen/channel`),
    /// as the web SDK opens it; nil for the others.
    /// Source: firebase-js-sdk `packages/firestore/src/platform/browser/webchannel_connection.ts`.
    public var webChannelPath: String? { streaming == .bidirectional ? grpcPath + "/channel" : nil }

    /// Every REST custom verb (`commit`, `runQuery`, …), all bound to POST.
    public static let restVerbs: Set<String> = Set(allCases.compactMap(\.http.verb))

    /// The method a REST request reaches: `httpMethod` on a URL naming `resource` with `verb`.
    /// - Returns: nil when no method is bound there (the REST adapter words that error).
    public static func rest(httpMethod: String, resource: HTTPBinding.Resource, verb: String?) -> FirestoreMethod? {
        allCases.first { $0.http.matches(httpMethod: httpMethod, resource: resource, verb: verb) }
    }
}
