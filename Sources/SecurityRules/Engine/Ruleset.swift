import FirestoreModel

/// A compiled rules file: the entry point the Firestore engine calls for every client
/// request (docs/ARCHITECTURE.md: Source → Syntax → AST → Eval → Library → Engine).
///
/// Immutable after `init` except for the coverage counters, which are guarded by a lock, so
/// one ruleset serves every connection concurrently.
public final class Ruleset: Sendable {
    /// The rules text and its line table.
    public let source: RulesSource
    /// The parsed file (printable with `description`).
    public let syntax: RulesFileSyntax
    /// Budgets applied to every decision.
    public let limits: RulesLimits
    /// Warnings found while compiling (errors make `init` throw).
    public let warnings: [RulesDiagnostic]
    /// The flattened, checked program decisions run on.
    let program: RulesProgram
    /// Evaluation counters shared by every decision.
    let coverage: RulesCoverage

    /// Compiles `source`.
    /// - Parameters:
    ///   - source: the rules text.
    ///   - fileName: the name diagnostics show (`firestore.rules`).
    ///   - limits: decision budgets (defaults: docs/reference/security-rules.md §6, §8).
    /// - Throws: `RulesCompileError` listing every syntax and check error, each rendered as
    ///   `file:line:col: message`, the source line and a caret.
    public init(source text: String, fileName: String, limits: RulesLimits = RulesLimits()) throws(RulesCompileError) {
        if text.utf8.count > RulesChecker.maxBytes * 4 {
            // Refuse to even index absurdly large inputs.
            let head = RulesSource(text: String(text.prefix(200)), fileName: fileName)
            throw RulesCompileError(diagnostics: [
                RulesDiagnostic(
                    .error, "Ruleset is \(text.utf8.count) bytes; the limit is 262144 bytes (256 KB).", at: head.position(ofOffset: 0),
                    in: head)
            ])
        }
        let source = RulesSource(text: text, fileName: fileName)
        var diagnostics: [RulesDiagnostic] = []
        var parser = Parser(source: source)
        let syntax = parser.parseFile()
        diagnostics = parser.lexer.diagnostics + parser.diagnostics
        var suppressed = parser.lexer.log.suppressed + parser.log.suppressed
        if !diagnostics.contains(where: { $0.severity == .error }) {
            let names = parser.semanticDiagnostics
            diagnostics += names
            suppressed += parser.semanticLog.suppressed
            var checker = RulesChecker(source: source)
            checker.check(syntax, structureOnly: names.contains(where: { $0.severity == .error }))
            diagnostics += checker.diagnostics
            suppressed += checker.log.suppressed
        }
        diagnostics.sort { $0.position < $1.position }
        let failed = diagnostics.contains(where: { $0.severity == .error })
        diagnostics = RulesDiagnostic.limited(diagnostics, suppressed: suppressed)
        if failed { throw RulesCompileError(diagnostics: diagnostics) }
        self.source = source
        self.syntax = syntax
        self.limits = limits
        self.warnings = diagnostics
        self.program = RulesProgram(source: source, syntax: syntax)
        self.coverage = RulesCoverage(count: program.expressions.count)
    }

    /// Decides one request.
    ///
    /// `get`/`create`/`update`/`delete`: the statements of every match whose full pattern
    /// matches the document are tried in source order; the first `true` grants. `list`: the
    /// query's filter is split into ways and every way must be proven (docs/reference/security-rules.md §7).
    /// Document reads through `access` are capped at `limits.maxDocumentAccessPerOperation`.
    public func decide(_ request: RulesRequest, access: some RulesDocumentAccess) -> RulesDecision {
        let ledger = AccessLedger(access: access, limit: limits.maxDocumentAccessPerOperation)
        return decide(request, ledger: ledger)
    }

    /// Decides every operation of one batch, transaction or multi-document read together:
    /// they share `get()` caching and the batch budget (`limits.maxDocumentAccessPerBatch`),
    /// each also has its own per-operation budget (docs/reference/security-rules.md §6, §6.1). The commit must fail
    /// when any decision denies.
    public func decide(batch requests: [RulesRequest], access: some RulesDocumentAccess) -> [RulesDecision] {
        let limit = requests.count > 1 ? limits.maxDocumentAccessPerBatch : limits.maxDocumentAccessPerOperation
        let ledger = AccessLedger(access: access, limit: limit)
        return requests.map { decide($0, ledger: ledger) }
    }

    /// Decides one request with a given read ledger (shared across a batch).
    func decide(_ request: RulesRequest, ledger: AccessLedger) -> RulesDecision {
        if request.method == .list { return decideList(request, ledger: ledger) }
        let path = RulesValue.documentPath(request.path, database: request.database)
        let tokens = path.segments.map { PathMatcher.Token.segment($0) }
        var globals = requestGlobals(request, path: path)
        globals["resource"] = request.resource.map { RulesValue.resource($0, database: request.database) } ?? .null
        var decision = run(request: request, pathText: path.description, tokens: tokens, globals: globals, ledger: ledger, way: nil)
        if !decision.allowed, request.isUpsert, request.method == .create || request.method == .update {
            let prelude = upsertPrelude(request, tokens: tokens, path: path, ledger: ledger)
            decision.explanation.prelude = prelude.fragments
            decision.explanation.preludeDecides = prelude.decides
        }
        return decision
    }

    /// `request` as a map (docs/reference/security-rules.md §5.1) plus nothing else; callers add `resource`.
    func requestGlobals(_ request: RulesRequest, path: RulesPath) -> [String: RulesValue] {
        var r: ExactNameDictionary<RulesValue> = [
            "method": .string(request.method.rawValue),
            "path": .path(path),
            "time": .timestamp(request.time),
        ]
        switch request.auth {
        case .user(let uid, let token):
            r["auth"] = .map(RulesMap(["uid": .string(uid), "token": .map(RulesMap(token.mapValues(RulesValue.init)))]))
        case .unauthenticated, .admin:
            r["auth"] = .null
        }
        switch request.method {
        case .create, .update:
            r["resource"] = request.requestResource.map { RulesValue.resource($0, database: request.database) } ?? .null
        case .delete:
            r["resource"] = .null
        case .get, .list:
            break
        }
        if request.method == .list, let q = request.query {
            var orderBy: ExactNameDictionary<RulesValue> = [:]
            for o in q.orderBy { orderBy[o.field.canonical] = .string(o.direction == .ascending ? "ASC" : "DESC") }
            r["query"] = .map(
                RulesMap([
                    "limit": q.limit.map { .int(Int64($0)) } ?? .null,
                    "offset": .int(Int64(q.offset)),
                    "orderBy": .map(RulesMap(orderBy)),
                ]))
        }
        return ["request": .map(RulesMap(r))]
    }
}
