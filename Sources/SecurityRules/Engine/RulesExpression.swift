import FirestoreModel

/// One expression compiled on its own, outside any rules file: for unit tests, REPLs and
/// tools that want to evaluate `request.auth.uid == 'alice'` against chosen variables.
public struct RulesExpression: Sendable {
    /// The expression text.
    public let source: RulesSource
    /// The parsed tree.
    public let root: Expr
    /// The one-expression program the evaluator resolves names in.
    let program: RulesProgram

    /// Parses `text` as a single expression.
    /// - Throws: `RulesCompileError` with every syntax error.
    public init(_ text: String) throws(RulesCompileError) {
        let source = RulesSource(text: text, fileName: "expression")
        var parser = Parser(source: source)
        var root: Expr?
        do {
            let e = try parser.parseExpression()
            if parser.current.kind != .eof {
                parser.error("Unexpected \(parser.describe(parser.current)) after the expression.", at: parser.current.start)
            } else {
                root = e
            }
        } catch {}
        let diagnostics = RulesDiagnostic.limited(
            parser.lexer.diagnostics + parser.diagnostics,
            suppressed: parser.lexer.log.suppressed + parser.log.suppressed)
        guard let root, diagnostics.isEmpty else {
            throw RulesCompileError(
                diagnostics: diagnostics.isEmpty
                    ? [RulesDiagnostic(.error, "Invalid expression.", at: source.position(ofOffset: 0), in: source)] : diagnostics)
        }
        self.source = source
        self.root = root
        self.program = RulesProgram(
            source: source, syntax: RulesFileSyntax(version: 2, functions: [], service: nil, exprCount: parser.nextID), extra: [root])
    }

    /// The S-expression dump of the tree.
    public var dump: String { root.dump }

    /// Evaluates the expression with `variables` in scope (e.g. `request`, `resource`).
    /// Document functions see `access`; budgets are `limits`.
    public func evaluate(
        variables: [String: RulesValue] = [:], access: some RulesDocumentAccess = NoDocumentAccess(), limits: RulesLimits = RulesLimits(),
        database: DatabaseID = DatabaseID(project: "demo-project")
    ) -> Result<RulesValue, RulesEvalError> {
        let ledger = AccessLedger(access: access, limit: limits.maxDocumentAccessPerOperation)
        let evaluation = Evaluation(
            program: program, database: database, limits: limits, globals: variables, ledger: ledger, recordCoverage: false)
        let env = Environment(variables: [:], scope: 0, captures: [:])
        do {
            return .success(try evaluation.eval(root, env))
        } catch {
            return .failure(error)
        }
    }
}
