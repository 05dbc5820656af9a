/// Names the sub-expressions behind a denial, from the trace of a re-run evaluation:
/// for `&&` the operand that was false, for `||` every operand, for an error the innermost
/// expression that raised it, for a comparison its operands' values.
extension Ruleset {
    /// Lines naming the sub-expressions that made `root` false or fail, with their values.
    func explain(_ root: Expr, _ evaluation: Evaluation) -> [String] {
        var out: [String] = []
        var visitedFunctions = Set<Int>()
        collect(root, evaluation, &out, &visitedFunctions, depth: 0)
        return out
    }

    /// The source of `e` on one line, shortened to 120 characters.
    func text(_ e: Expr) -> String {
        let raw = source.slice(e.position.offset, e.end)
        let oneLine = raw.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).map { $0.trimmingPrefix(while: \.isWhitespace) }.joined(
            separator: " ")
        return oneLine.count > 120 ? String(oneLine.prefix(117)) + "..." : oneLine
    }

    /// A traced outcome as text.
    func show(_ r: Result<RulesValue, RulesEvalError>?) -> String {
        switch r {
        case .success(let v)?: return v.literalText.count > 200 ? String(v.literalText.prefix(197)) + "..." : v.literalText
        case .failure(let e)?: return "error(\(e.denialText))"
        case nil: return "not evaluated"
        }
    }

    private func collect(_ e: Expr, _ ev: Evaluation, _ out: inout [String], _ visited: inout Set<Int>, depth: Int) {
        guard depth < 40, out.count < 20 else { return }
        let outcome = ev.trace?[e.id]
        let here = "L\(e.position.line):\(e.position.column) `\(text(e))`"
        if case .failure(let err)? = outcome {
            // Descend to the child that raised the same error.
            for c in e.kind.children {
                if case .failure(let ce)? = ev.trace?[c.id], ce.position == err.position, ce.message == err.message {
                    collect(c, ev, &out, &visited, depth: depth + 1)
                    return
                }
            }
            if case .call(let name, _) = e.kind, let body = calledBody(name, ev), !visited.contains(body.id) {
                visited.insert(body.id)
                out.append("\(here) → \(show(outcome)) in function \(name)")
                collect(body, ev, &out, &visited, depth: depth + 1)
                return
            }
            out.append("\(here) → \(show(outcome))" + operandValues(e, ev))
            return
        }
        switch e.kind {
        case .logical(.and, let terms):
            if let culprit = terms.first(where: { if case .success(.bool(false))? = ev.trace?[$0.id] { return true } else { return false } }
            ) {
                collect(culprit, ev, &out, &visited, depth: depth + 1)
                return
            }
        case .logical(.or, let terms):
            for t in terms where ev.trace?[t.id] != nil { collect(t, ev, &out, &visited, depth: depth + 1) }
            return
        case .call(let name, _):
            if let body = calledBody(name, ev), !visited.contains(body.id) {
                visited.insert(body.id)
                out.append("\(here) → \(show(outcome)) in function \(name)")
                collect(body, ev, &out, &visited, depth: depth + 1)
                return
            }
        case .ternary(let c, let a, let b):
            if case .success(.bool(let cond))? = ev.trace?[c.id] {
                collect(cond ? a : b, ev, &out, &visited, depth: depth + 1)
                return
            }
        default: break
        }
        out.append("\(here) → \(show(outcome))" + operandValues(e, ev))
    }

    private func calledBody(_ name: String, _ ev: Evaluation) -> Expr? {
        for s in program.scopes { if let f = s.functions[name], ev.trace?[f.body.id] != nil { return f.body } }
        return nil
    }

    private func operandValues(_ e: Expr, _ ev: Evaluation) -> String {
        let kids = e.kind.children.filter {
            if case .literal = $0.kind { return false }
            return ev.trace?[$0.id] != nil
        }
        guard !kids.isEmpty else { return "" }
        return " where " + kids.map { "`\(text($0))` = \(show(ev.trace?[$0.id]))" }.joined(separator: ", ")
    }
}
