import FirestoreModel

/// The tree-walking evaluator: one case per node kind (a closed set), operands evaluated
/// last-first (reference §3.4), errors thrown as values that `&&`, `||` and `?:` inspect.
extension Evaluation {
    /// The names that resolve to built-in namespaces when no variable shadows them.
    static let namespaces: Set<String> = ["math", "hashing", "duration", "timestamp", "latlng"]

    /// Evaluates `e` in `env`.
    /// - Throws: the expression's error (ordinary, unprovable or fatal).
    func eval(_ e: Expr, _ env: Environment) throws(RulesEvalError) -> RulesValue {
        steps += 1
        depth += 1
        defer { depth -= 1 }
        if steps > limits.maxExpressions || depth > limits.maxEvaluationDepth { throw budgetError(at: e) }
        let v: RulesValue
        do {
            v = try evalNode(e, env)
        } catch {
            if coverage != nil || trace != nil { record(e, .failure(error)) }
            throw error
        }
        if coverage != nil || trace != nil { record(e, .success(v)) }
        return v
    }

    /// The fatal error for a spent expression or depth budget (kept out of `eval`'s frame).
    @inline(never)
    private func budgetError(at e: Expr) -> RulesEvalError {
        if steps > limits.maxExpressions {
            return RulesEvalError("Evaluation exceeded the limit of \(limits.maxExpressions) expressions.", at: e.position, kind: .fatal)
        }
        return RulesEvalError("Evaluation nested deeper than \(limits.maxEvaluationDepth) frames.", at: e.position, kind: .fatal)
    }

    /// One case per node kind. Each non-trivial case lives in its own non-inlined function so
    /// this frame stays small: nesting depth costs stack per level, and debug builds give a
    /// function one slot for every local of every case.
    private func evalNode(_ e: Expr, _ env: Environment) throws(RulesEvalError) -> RulesValue {
        switch e.kind {
        case .literal(let v): return v
        case .identifier(let name): return try lookup(name, env, at: e.position)
        case .list(let items): return .list(try evalAll(items, env))
        case .map(let entries): return try evalMap(entries, env)
        case .path(let parts): return .path(try evalPath(parts, env))
        case .unary(let op, let operand): return try evalUnary(op, operand, env, at: e.position)
        case .binary(let op, let lhs, let rhs): return try evalBinary(op, lhs, rhs, env, at: e.position)
        case .logical(let op, let terms): return try evalLogical(op, terms, env)
        case .ternary(let c, let a, let b): return try evalTernary(c, a, b, env)
        case .member(let receiver, let name): return try evalMember(receiver, name, env, at: e.position)
        case .index(let receiver, let index): return try evalIndex(receiver, index, env, at: e.position)
        case .slice(let receiver, let lower, let upper): return try evalSlice(receiver, lower, upper, env, at: e.position)
        case .call(let name, let args): return try evalCall(name, args, env, at: e.position)
        case .method(let receiver, let name, let args): return try evalMethod(receiver, name, args, env, at: e.position)
        case .isType(let operand, let type): return try evalIsType(operand, type, env, at: e.position)
        }
    }

    @inline(never)
    private func evalMap(_ entries: [MapEntry], _ env: Environment) throws(RulesEvalError) -> RulesValue {
        var values: [(String, RulesValue)] = []
        for entry in entries.reversed() {
            let v = try eval(entry.value, env)
            guard case .string(let k) = try eval(entry.key, env) else {
                throw RulesEvalError("Map keys must be strings.", at: entry.key.position)
            }
            values.append((k, v))
        }
        var m: [String: RulesValue] = [:]
        for (k, v) in values.reversed() { m[k] = v }
        return .map(RulesMap(m))
    }

    @inline(never)
    private func evalUnary(_ op: RulesUnaryOperator, _ operand: Expr, _ env: Environment, at p: SourcePosition) throws(RulesEvalError)
        -> RulesValue
    {
        try Operators.unary(op, try eval(operand, env), at: p)
    }

    @inline(never)
    private func evalBinary(_ op: RulesBinaryOperator, _ lhs: Expr, _ rhs: Expr, _ env: Environment, at p: SourcePosition)
        throws(RulesEvalError) -> RulesValue
    {
        let r = try eval(rhs, env)
        let l = try eval(lhs, env)
        return try Operators.binary(op, l, r, at: p, evaluation: self)
    }

    @inline(never)
    private func evalTernary(_ c: Expr, _ a: Expr, _ b: Expr, _ env: Environment) throws(RulesEvalError) -> RulesValue {
        guard case .bool(let cond) = try eval(c, env) else {
            throw RulesEvalError("Conditional expression requires a bool condition.", at: c.position)
        }
        return try eval(cond ? a : b, env)
    }

    @inline(never)
    private func evalMember(_ receiver: Expr, _ name: String, _ env: Environment, at p: SourcePosition) throws(RulesEvalError) -> RulesValue
    {
        try Operators.member(try eval(receiver, env), name, at: p)
    }

    @inline(never)
    private func evalIndex(_ receiver: Expr, _ index: Expr, _ env: Environment, at p: SourcePosition) throws(RulesEvalError) -> RulesValue {
        let i = try eval(index, env)
        return try Operators.index(try eval(receiver, env), i, at: p)
    }

    @inline(never)
    private func evalSlice(_ receiver: Expr, _ lower: Expr?, _ upper: Expr?, _ env: Environment, at p: SourcePosition)
        throws(RulesEvalError) -> RulesValue
    {
        var u: RulesValue?
        var l: RulesValue?
        if let upper { u = try eval(upper, env) }
        if let lower { l = try eval(lower, env) }
        return try Operators.slice(try eval(receiver, env), l, u, at: p)
    }

    @inline(never)
    private func evalMethod(_ receiver: Expr, _ name: String, _ args: [Expr], _ env: Environment, at p: SourcePosition)
        throws(RulesEvalError) -> RulesValue
    {
        if case .identifier(let ns) = receiver.kind, Self.namespaces.contains(ns), !isBound(ns, env),
            let fn = Library.functions[ns + "." + name]
        {
            let values = try evalAll(args, env)
            return try Library.invoke(fn, receiver: nil, args: values, evaluation: self, at: p)
        }
        let values = try evalAll(args, env)
        let r = try eval(receiver, env)
        return try Library.callMethod(name, on: r, args: values, evaluation: self, at: p)
    }

    @inline(never)
    private func evalIsType(_ operand: Expr, _ type: RulesType, _ env: Environment, at p: SourcePosition) throws(RulesEvalError)
        -> RulesValue
    {
        let v = try eval(operand, env)
        if case .constraint = v, type != .constraint {
            throw RulesEvalError("", at: p, kind: .unprovable)
        }
        return .bool(type.admits(v.kind))
    }

    /// Evaluates `items` last-first and returns them in source order.
    func evalAll(_ items: [Expr], _ env: Environment) throws(RulesEvalError) -> [RulesValue] {
        var out: [RulesValue] = []
        out.reserveCapacity(items.count)
        for item in items.reversed() { out.append(try eval(item, env)) }
        out.reverse()
        return out
    }

    /// True when `name` is a variable of `env` or a global.
    func isBound(_ name: String, _ env: Environment) -> Bool {
        env.variables[name] != nil || globals[name] != nil
    }

    /// The value of variable `name`.
    /// - Throws: the stored error of a failed `let`, or an unbound/unknown variable error.
    func lookup(_ name: String, _ env: Environment, at position: SourcePosition) throws(RulesEvalError) -> RulesValue {
        if let b = env.variables[name] {
            switch b {
            case .value(let v): return v
            case .error(let err): throw err
            case .unbound: throw RulesEvalError(RulesMessages.unboundVariable(name), at: position)
            }
        }
        if let v = globals[name] { return v }
        throw RulesEvalError(RulesMessages.variableNotFound(name), at: position)
    }

    /// `&&` / `||` over a flattened chain (reference §3.5): a deciding operand (`false` for
    /// `&&`, `true` for `||`) wins even over an earlier error; otherwise the left-most error;
    /// fatal errors pass straight through.
    @inline(never)
    private func evalLogical(_ op: RulesLogicalOperator, _ terms: [Expr], _ env: Environment) throws(RulesEvalError) -> RulesValue {
        let decisive = op == .or
        var firstError: RulesEvalError?
        for t in terms {
            do {
                let v = try eval(t, env)
                guard case .bool(let b) = v else {
                    if firstError == nil {
                        firstError = RulesEvalError(
                            RulesMessages.unsupported("\(v.typeName) \(op.rawValue) bool", expected: ["bool \(op.rawValue) bool"]),
                            at: t.position)
                    }
                    continue
                }
                if b == decisive { return .bool(decisive) }
            } catch {
                if error.kind == .fatal { throw error }
                if firstError == nil { firstError = error }
            }
        }
        if let err = firstError { throw err }
        return .bool(!decisive)
    }

    /// Builds a path from literal and `$(…)` parts (reference §2.3).
    private func evalPath(_ parts: [PathPart], _ env: Environment) throws(RulesEvalError) -> RulesPath {
        var segments: [String] = []
        for part in parts {
            switch part {
            case .literal(let s): segments.append(s)
            case .interpolation(let x):
                // `$(name)` with an undeclared name is a placeholder for `bind()` (Path docs).
                if case .identifier(let n) = x.kind, !isBound(n, env) {
                    segments.append("{\(n)}")
                    continue
                }
                switch try eval(x, env) {
                case .string(let s): segments.append(s)
                case .path(let p): segments.append(contentsOf: p.segments)
                case let other:
                    throw RulesEvalError(
                        RulesMessages.unsupported("$(\(other.typeName))", expected: ["$(string)", "$(path)"]), at: x.position)
                }
            }
        }
        return RulesPath(segments)
    }

    /// A call by name: innermost user function, else a global built-in (reference §1, §4.13).
    @inline(never)
    private func evalCall(_ name: String, _ args: [Expr], _ env: Environment, at position: SourcePosition) throws(RulesEvalError)
        -> RulesValue
    {
        if let (fn, declaringScope) = program.resolveFunction(name, from: env.scope) {
            let values = try evalAll(args, env)
            return try callUser(fn, declaringScope: declaringScope, args: values, caller: env, at: position)
        }
        guard let builtin = Library.functions[name] else {
            throw RulesEvalError(RulesMessages.functionNotFound(name), at: position)
        }
        let values = try evalAll(args, env)
        return try Library.invoke(builtin, receiver: nil, args: values, evaluation: self, at: position)
    }

    /// Runs a user function: eager arguments, eager `let`s (an erroring `let` surfaces only
    /// if read), then the body (reference §8.1).
    private func callUser(_ fn: FunctionDecl, declaringScope: Int, args: [RulesValue], caller: Environment, at position: SourcePosition)
        throws(RulesEvalError) -> RulesValue
    {
        guard args.count == fn.parameters.count else {
            throw RulesEvalError(
                "Function \(fn.name) expects \(fn.parameters.count) argument(s), got \(args.count).", at: position)
        }
        callDepth += 1
        defer { callDepth -= 1 }
        if callDepth > limits.maxCallDepth {
            throw RulesEvalError("Function call depth exceeded the limit of \(limits.maxCallDepth).", at: position, kind: .fatal)
        }
        var vars: [String: Binding] = [:]
        let visible = program.scopes[declaringScope].wildcards
        for (k, v) in caller.captures where visible.contains(k) { vars[k] = v }
        for (p, v) in zip(fn.parameters, args) { vars[p] = .value(v) }
        var env = Environment(variables: vars, scope: declaringScope, captures: caller.captures)
        for b in fn.bindings {
            do {
                env.variables[b.name] = .value(try eval(b.value, env))
            } catch {
                if error.kind == .fatal { throw error }
                env.variables[b.name] = .error(error)
            }
        }
        return try eval(fn.body, env)
    }
}
