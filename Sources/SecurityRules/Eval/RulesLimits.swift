/// Budgets that bound one decision, so hostile rules or data end in a denial, never a hang.
///
/// Defaults follow docs/reference/security-rules.md §8 (1000 expressions, call depth 20) and §6 (10 document
/// reads per operation, 20 per batch); `maxWork` and `maxEvaluationDepth` are Hearth's own
/// guards for library work (elements touched, regex steps) and interpreter recursion.
public struct RulesLimits: Sendable, Hashable {
    /// Expressions evaluated per request (per way of a list request).
    public var maxExpressions: Int
    /// Nested user-function calls.
    public var maxCallDepth: Int
    /// `get`/`exists`/`getAfter`/`existsAfter` reads per operation (cached repeats are free).
    public var maxDocumentAccessPerOperation: Int
    /// The same reads across a batch or transaction.
    public var maxDocumentAccessPerBatch: Int
    /// Library work units per request (one unit ≈ one element visited or one regex step).
    /// The default, 1,000,000, spends about 0.5 s of CPU in a debug build (≈ 0.5 µs a regex
    /// step) before the denial; 10,000,000 let one hostile write burn 5 s.
    public var maxWork: Int
    /// Nested expression frames on the interpreter's stack (a function call counts 2). The
    /// default keeps a decision under 512 KiB of stack even in debug builds.
    public var maxEvaluationDepth: Int

    /// Creates limits; the defaults are the documented Firestore ones.
    public init(
        maxExpressions: Int = 1000, maxCallDepth: Int = 20, maxDocumentAccessPerOperation: Int = 10,
        maxDocumentAccessPerBatch: Int = 20, maxWork: Int = 1_000_000, maxEvaluationDepth: Int = 160
    ) {
        self.maxExpressions = maxExpressions
        self.maxCallDepth = maxCallDepth
        self.maxDocumentAccessPerOperation = maxDocumentAccessPerOperation
        self.maxDocumentAccessPerBatch = maxDocumentAccessPerBatch
        self.maxWork = maxWork
        self.maxEvaluationDepth = maxEvaluationDepth
    }
}
