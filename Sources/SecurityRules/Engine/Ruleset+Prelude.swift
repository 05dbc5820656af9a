/// The emulator's first pass over a write without precondition, reproduced for its denial
/// message only (docs/reference/security-rules.md §8, firebase-tools #6252).
///
/// Before it knows whether the document exists, the emulator tries every `create` statement
/// and then every `update` statement of an upsert with `request.method` set to that method and
/// `resource` unknown. That pass never grants; each statement shows as `false for '<m>' @ L<n>`
/// (even one that came out true), as `evaluation error at L<n>:<c> for '<m>' @ L<n>` when it
/// needed `resource`, or with its error's text. When no statement came out true or needed
/// `resource`, that pass is the whole answer; otherwise the real evaluation's outcomes follow
/// (corpus overlap.c4, d1, h1, h2; write.w2b; shouts.sw02, sw08). The verdict is always the
/// real evaluation's.
extension Ruleset {
    /// The first-pass fragments of an upsert, and whether that pass alone is the message.
    /// Reads go through a scratch ledger, so the request's read budget is not spent twice.
    func upsertPrelude(_ request: RulesRequest, tokens: [PathMatcher.Token], path: RulesPath, ledger: AccessLedger)
        -> (fragments: [String], decides: Bool)
    {
        var fragments: [String] = []
        var decides = true
        let scratch = AccessLedger(access: ledger.access, limit: ledger.limit)
        for method in [RulesMethod.create, .update] {
            var asMethod = request
            asMethod.method = method
            let globals = requestGlobals(asMethod, path: path)
            for c in candidates(for: method, tokens: tokens) {
                let at = c.allow.condition?.position ?? c.allow.position
                let suffix = " for '\(method.rawValue)' @ L\(at.line)"
                guard let condition = c.allow.condition else {
                    decides = false
                    fragments.append("false" + suffix)
                    continue
                }
                let evaluation = Evaluation(
                    program: program, database: request.database, limits: limits, globals: globals, ledger: scratch,
                    recordCoverage: false)
                evaluation.unknownGlobals = ["resource"]
                let env = Environment(variables: c.captures, scope: c.match.scope, captures: c.captures)
                do {
                    if case .bool(true) = try evaluation.eval(condition, env) { decides = false }
                    fragments.append("false" + suffix)
                } catch {
                    if error.kind == .unprovable {
                        decides = false
                        fragments.append("evaluation error at L\(at.line):\(at.column)" + suffix)
                    } else {
                        fragments.append(error.message + suffix)
                    }
                }
            }
        }
        return (fragments, decides)
    }
}
