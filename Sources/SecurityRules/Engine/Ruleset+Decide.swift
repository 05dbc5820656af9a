/// The decision procedure of docs/reference/security-rules.md §8: collect applicable statements in source order,
/// evaluate each until one is `true`, explain otherwise.
extension Ruleset {
    /// An `allow` statement that applies to the request, with the captures of its match.
    struct Candidate {
        /// The match block.
        var match: RulesProgram.Match
        /// The statement.
        var allow: AllowDecl
        /// Wildcard captures of the request path.
        var captures: [String: Binding]
    }

    /// The applicable statements for `method` on `tokens`.
    func candidates(for method: RulesMethod, tokens: [PathMatcher.Token]) -> [Candidate] {
        var out: [Candidate] = []
        for m in program.matches {
            let granting = m.allows.filter { a in a.methods.contains { $0.grants(method) } }
            guard !granting.isEmpty, let captures = PathMatcher.match(m.pattern, tokens, version: program.version) else { continue }
            for a in granting { out.append(Candidate(match: m, allow: a, captures: captures)) }
        }
        return out
    }

    /// Evaluates the candidates; on denial re-runs with tracing to name the culprits.
    func run(
        request: RulesRequest, pathText: String, tokens: [PathMatcher.Token], globals: [String: RulesValue], ledger: AccessLedger,
        way: String?
    )
        -> RulesDecision
    {
        let cands = candidates(for: request.method, tokens: tokens)
        var explanation = RulesExplanation(method: request.method, path: pathText, way: way)
        guard !cands.isEmpty else {
            explanation.failure = RulesExplanation.noMatchingStatements
            return RulesDecision(allowed: false, explanation: explanation)
        }
        let callsBefore = ledger.calls
        let first = evaluate(cands, request: request, globals: globals, ledger: ledger, trace: false)
        if first.allowed {
            explanation.statements = first.outcomes
            explanation.debugLog = first.debugLog
            return RulesDecision(allowed: true, explanation: explanation)
        }
        if let fatal = first.fatal {
            // A spent budget is explained by its message; replaying would spend it again.
            let line = first.outcomes.last?.position.line ?? fatal.position.line
            explanation.statements = first.outcomes
            explanation.debugLog = first.debugLog
            explanation.failure = "\(fatal.message) for '\(request.method.rawValue)' @ L\(line)"
            return RulesDecision(allowed: false, explanation: explanation)
        }
        // Replay with tracing; reads are cached, and the batch count is restored so the replay
        // meets the same budget errors as the first pass.
        let callsAfter = ledger.calls
        ledger.calls = callsBefore
        let traced = evaluate(cands, request: request, globals: globals, ledger: ledger, trace: true)
        ledger.calls = callsAfter
        explanation.statements = traced.outcomes
        explanation.debugLog = first.debugLog
        return RulesDecision(allowed: false, explanation: explanation)
    }

    /// The outcome of evaluating the candidates once.
    struct Pass {
        /// True when a statement granted.
        var allowed = false
        /// Each statement evaluated, in order.
        var outcomes: [StatementOutcome] = []
        /// A spent budget, which denies the whole request.
        var fatal: RulesEvalError?
        /// `debug()` output.
        var debugLog: [String] = []
    }

    /// Evaluates the candidates in order until one grants; `trace` records sub-results for explanations.
    func evaluate(_ cands: [Candidate], request: RulesRequest, globals: [String: RulesValue], ledger: AccessLedger, trace: Bool) -> Pass {
        let evaluation = Evaluation(
            program: program, database: request.database, limits: limits, globals: globals, ledger: ledger, recordCoverage: !trace)
        if trace { evaluation.trace = [:] }
        var pass = evaluateStatements(cands, evaluation, trace: trace)
        pass.debugLog = evaluation.debugLog
        if let counts = evaluation.coverage { coverage.merge(counts) }
        return pass
    }

    private func evaluateStatements(_ cands: [Candidate], _ evaluation: Evaluation, trace: Bool) -> Pass {
        var pass = Pass()
        for c in cands {
            let matchPath = "/" + c.match.pattern.map(\.description).joined(separator: "/")
            guard let condition = c.allow.condition else {
                pass.outcomes.append(
                    StatementOutcome(
                        matchPath: matchPath, methods: c.allow.methods, position: c.allow.position, result: .granted, culprits: []))
                pass.allowed = true
                return pass
            }
            var env = Environment(variables: c.captures, scope: c.match.scope, captures: c.captures)
            env.variables = c.captures
            var outcome = StatementOutcome(
                matchPath: matchPath, methods: c.allow.methods, position: condition.position, result: .denied, culprits: [])
            do {
                let v = try evaluation.eval(condition, env)
                switch v {
                case .bool(true):
                    outcome.result = .granted
                    pass.outcomes.append(outcome)
                    pass.allowed = true
                    return pass
                case .bool(false): outcome.result = .denied
                default: outcome.result = .notBool(v.typeName)
                }
            } catch {
                outcome.result = .error(error)
                if error.kind == .fatal {
                    pass.fatal = error
                    if trace { outcome.culprits = explain(condition, evaluation) }
                    pass.outcomes.append(outcome)
                    return pass
                }
            }
            if trace { outcome.culprits = explain(condition, evaluation) }
            pass.outcomes.append(outcome)
        }
        return pass
    }
}
