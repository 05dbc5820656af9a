import FirestoreModel

/// `RunQueryRequest` of `google.firestore.v1`, as every transport decodes it.
/// Source: googleapis `google/firestore/v1/firestore.proto`.
public struct RunQueryRequest: Sendable, Hashable {
    /// The database named by `parent`.
    public var database: DatabaseID
    /// The query and its parent (the documents root or a document).
    public var target: QueryTarget
    /// Which state to read.
    public var consistency: ReadConsistency
    /// `explain_options`: nil runs the query plainly.
    public var explainOptions: ExplainOptions?

    /// Creates a request.
    public init(
        database: DatabaseID, target: QueryTarget, consistency: ReadConsistency = .strong, explainOptions: ExplainOptions? = nil
    ) {
        self.database = database
        self.target = target
        self.consistency = consistency
        self.explainOptions = explainOptions
    }
}
