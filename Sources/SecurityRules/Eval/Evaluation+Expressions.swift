import FirestoreModel

/// The tree-walking evaluator: one case per node kind (a closed set), operands evaluated
/// last-first (reference §3.4), errors thrown as values that `&&`, `||` and `?:` inspect.
extension Evaluation {
    /// The names that resolve to built-in namespaces when no variable shadows them.
    static let namespaces: Set<String> = ["math", "hashing", "duration", "timestamp", "latlng", "string"]

    /// Evaluates `e` in `env`.
    /// - Throws: the expression's error (ordinary, unprovable or fatal).
    func eval(_ e: Expr, _ env: Environment) throws(RulesEvalError) -> RulesValue {
        steps += 1
        if steps > limits.maxExpressions {
            throw RulesEvalError("Evaluation exceeded the limit of \(limits.maxExpressions) expressions.", at: e.position, kind: .fatal)
        }
        depth += 1
        defer { depth -= 1 }
        if depth > limits.maxEvaluationDepth {
            throw RulesEvalError("Evaluation nested deeper than \(limits.maxEvaluationDepth) frames.", at: e.position, kind: .fatal)
        }
        do {
            let v = try evalNode(e, env)
            record(e, .success(v))
            return v
        } catch {
            record(e, .failure(error))
            throw error
        }
    }

    private func evalNode(_ e: Expr, _ env: Environment) throws(RulesEvalError) -> RulesValue {
        switch e.kind {
        case .literal(let v):
            return v
        case .identifier(let name):
            return try lookup(name, env, at: e.position)
        case .list(let items):
            return .list(try evalAll(items, env))
        case .map(let entries):
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
        case .path(let parts):
            return .path(try evalPath(parts, env))
        case .unary(let op, let operand):
            let v = try eval(operand, env)
            return try Operators.unary(op, v, at: e.position)
        case .binary(let op, let lhs, let rhs):
            let r = try eval(rhs, env)
            let l = try eval(lhs, env)
            return try Operators.binary(op, l, r, at: e.position, evaluation: self)
        case .logical(let op, let terms):
            return try evalLogical(op, terms, env)
        case .ternary(let c, let a, let b):
            guard case .bool(let cond) = try eval(c, env) else {
                throw RulesEvalError("Conditional expression requires a bool condition.", at: c.position)
            }
            return try eval(cond ? a : b, env)
        case .member(let receiver, let name):
            return try Operators.member(try eval(receiver, env), name, at: e.position)
        case .index(let receiver, let index):
            let i = try eval(index, env)
            return try Operators.index(try eval(receiver, env), i, at: e.position)
        case .slice(let receiver, let lower, let upper):
            let u = try upper.map { (x: Expr) throws(RulesEvalError) in try eval(x, env) }
            let l = try lower.map { (x: Expr) throws(RulesEvalError) in try eval(x, env) }
            return try Operators.slice(try eval(receiver, env), l, u, at: e.position)
        case .call(let name, let args):
            return try evalCall(name, args, env, at: e.position)
        case .method(let receiver, let name, let args):
            if case .identifier(let ns) = receiver.kind, Self.namespaces.contains(ns), !isBound(ns, env),
                let fn = Library.functions[ns + "." + name]
            {
                let values = try evalAll(args, env)
                return try Library.invoke(fn, receiver: nil, args: values, evaluation: self, at: e.position)
            }
            let values = try evalAll(args, env)
            let r = try eval(receiver, env)
            return try Library.callMethod(name, on: r, args: values, evaluation: self, at: e.position)
        case .isType(let operand, let type):
            let v = try eval(operand, env)
            if case .constraint = v, type != .constraint {
                throw RulesEvalError("", at: e.position, kind: .unprovable)
            }
            return .bool(type.admits(v.kind))
        }
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
