import FirestoreModel

/// The tree-walking evaluator: one case per node kind (a closed set), operands evaluated
/// last-first (docs/reference/security-rules.md §3.4), errors thrown as values that `&&`, `||` and `?:` inspect.
///
/// Stack discipline: recursion depth is the expression depth, so every frame on the
/// recursive path is kept small — `evalNode` only dispatches, each node kind is its own
/// non-inlined function that unpacks its node, and error construction and coverage
/// recording live out of line (debug builds give a function one slot per local of every case).
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
        do {
            let v = try evalNode(e, env)
            if recording { recordSuccess(e, v) }
            return v
        } catch {
            if recording { recordFailure(e, error) }
            throw error
        }
    }

    /// The fatal error for a spent expression or depth budget (kept out of `eval`'s frame).
    @inline(never)
    private func budgetError(at e: Expr) -> RulesEvalError {
        if steps > limits.maxExpressions {
            return RulesEvalError("Evaluation exceeded the limit of \(limits.maxExpressions) expressions.", at: e.position, kind: .fatal)
        }
        return RulesEvalError("Evaluation nested deeper than \(limits.maxEvaluationDepth) frames.", at: e.position, kind: .fatal)
    }

    /// A node-kind handler: unpacks its node and evaluates it.
    private typealias Handler = (Evaluation, Expr, Environment) throws(RulesEvalError) -> RulesValue

    /// Picks the handler, then makes the one call: a single call site keeps this frame small.
    private func evalNode(_ e: Expr, _ env: Environment) throws(RulesEvalError) -> RulesValue {
        let handler: Handler
        switch e.kind {
        case .literal: handler = { ev, e, _ in ev.literal(e) }
        case .identifier: handler = { ev, e, env throws(RulesEvalError) in try ev.evalIdentifier(e, env) }
        case .list: handler = { ev, e, env throws(RulesEvalError) in try ev.evalList(e, env) }
        case .map: handler = { ev, e, env throws(RulesEvalError) in try ev.evalMap(e, env) }
        case .path: handler = { ev, e, env throws(RulesEvalError) in try ev.evalPath(e, env) }
        case .unary: handler = { ev, e, env throws(RulesEvalError) in try ev.evalUnary(e, env) }
        case .binary: handler = { ev, e, env throws(RulesEvalError) in try ev.evalBinary(e, env) }
        case .logical: handler = { ev, e, env throws(RulesEvalError) in try ev.evalLogical(e, env) }
        case .ternary: handler = { ev, e, env throws(RulesEvalError) in try ev.evalTernary(e, env) }
        case .member: handler = { ev, e, env throws(RulesEvalError) in try ev.evalMember(e, env) }
        case .index: handler = { ev, e, env throws(RulesEvalError) in try ev.evalIndex(e, env) }
        case .slice: handler = { ev, e, env throws(RulesEvalError) in try ev.evalSlice(e, env) }
        case .call: handler = { ev, e, env throws(RulesEvalError) in try ev.evalCall(e, env) }
        case .method: handler = { ev, e, env throws(RulesEvalError) in try ev.evalMethod(e, env) }
        case .isType: handler = { ev, e, env throws(RulesEvalError) in try ev.evalIsType(e, env) }
        }
        return try handler(self, e, env)
    }

    @inline(never)
    private func literal(_ e: Expr) -> RulesValue {
        guard case .literal(let v) = e.kind else { return .null }
        return v
    }

    @inline(never)
    private func evalIdentifier(_ e: Expr, _ env: Environment) throws(RulesEvalError) -> RulesValue {
        guard case .identifier(let name) = e.kind else { return .null }
        return try lookup(name, env, at: e.position)
    }

    @inline(never)
    private func evalList(_ e: Expr, _ env: Environment) throws(RulesEvalError) -> RulesValue {
        guard case .list(let items) = e.kind else { return .null }
        return .list(try evalAll(items, env))
    }

    @inline(never)
    private func evalMap(_ e: Expr, _ env: Environment) throws(RulesEvalError) -> RulesValue {
        guard case .map(let entries) = e.kind else { return .null }
        var values: [(String, RulesValue)] = []
        for entry in entries.reversed() {
            let v = try eval(entry.value, env)
            guard case .string(let k) = try eval(entry.key, env) else {
                throw RulesEvalError("Map keys must be strings.", at: entry.key.position)
            }
            values.append((k, v))
        }
        var m: ExactNameDictionary<RulesValue> = [:]
        for (k, v) in values.reversed() { m[k] = v }
        return .map(RulesMap(m))
    }

    @inline(never)
    private func evalUnary(_ e: Expr, _ env: Environment) throws(RulesEvalError) -> RulesValue {
        guard case .unary(let op, let operand) = e.kind else { return .null }
        return try Operators.unary(op, try eval(operand, env), at: e.position)
    }

    @inline(never)
    private func evalBinary(_ e: Expr, _ env: Environment) throws(RulesEvalError) -> RulesValue {
        guard case .binary(let op, let lhs, let rhs) = e.kind else { return .null }
        let r = try eval(rhs, env)
        let l = try eval(lhs, env)
        return try Operators.binary(op, l, r, at: e.position, evaluation: self)
    }

    @inline(never)
    private func evalTernary(_ e: Expr, _ env: Environment) throws(RulesEvalError) -> RulesValue {
        guard case .ternary(let c, let a, let b) = e.kind else { return .null }
        guard case .bool(let cond) = try eval(c, env) else {
            throw RulesEvalError("Conditional expression requires a bool condition.", at: c.position)
        }
        return try eval(cond ? a : b, env)
    }

    @inline(never)
    private func evalMember(_ e: Expr, _ env: Environment) throws(RulesEvalError) -> RulesValue {
        guard case .member(let receiver, let name) = e.kind else { return .null }
        return try Operators.member(try eval(receiver, env), name, at: e.position)
    }

    @inline(never)
    private func evalIndex(_ e: Expr, _ env: Environment) throws(RulesEvalError) -> RulesValue {
        guard case .index(let receiver, let index) = e.kind else { return .null }
        let i = try eval(index, env)
        return try Operators.index(try eval(receiver, env), i, at: e.position)
    }

    @inline(never)
    private func evalSlice(_ e: Expr, _ env: Environment) throws(RulesEvalError) -> RulesValue {
        guard case .slice(let receiver, let lower, let upper) = e.kind else { return .null }
        var u: RulesValue?
        var l: RulesValue?
        if let upper { u = try eval(upper, env) }
        if let lower { l = try eval(lower, env) }
        return try Operators.slice(try eval(receiver, env), l, u, at: e.position)
    }

    @inline(never)
    private func evalMethod(_ e: Expr, _ env: Environment) throws(RulesEvalError) -> RulesValue {
        guard case .method(let receiver, let name, let args) = e.kind else { return .null }
        if case .identifier(let ns) = receiver.kind, Self.namespaces.contains(ns), !isBound(ns, env) {
            let values = try evalAll(args, env)
            guard let fn = Library.functions[ns + "." + name] else {
                // `math.isInfinite(x)`: the emulator names the qualified function (corpus misc.c07).
                throw RulesEvalError(RulesMessages.functionNotFound(ns + "." + name), at: e.position)
            }
            return try Library.invoke(fn, receiver: nil, args: values, evaluation: self, at: e.position)
        }
        let values = try evalAll(args, env)
        let r = try eval(receiver, env)
        return try Library.callMethod(name, on: r, args: values, evaluation: self, at: e.position)
    }

    @inline(never)
    private func evalIsType(_ e: Expr, _ env: Environment) throws(RulesEvalError) -> RulesValue {
        guard case .isType(let operand, let type) = e.kind else { return .null }
        let v = try eval(operand, env)
        if case .constraint = v, type != .constraint {
            throw RulesEvalError("", at: e.position, kind: .unprovable)
        }
        if type == .vector || type == .map, case .map(let m) = v {
            // A vector value is the map {__type__: '__vector__', value: [...]}: `is vector`, not `is map`.
            guard case .string("__vector__")? = m.member("__type__") else { return .bool(type == .map) }
            return .bool(type == .vector)
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
        env.variables[name] != nil || globals[name] != nil || unknownGlobals.contains(name)
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
        if unknownGlobals.contains(name) { throw RulesEvalError("", at: position, kind: .unprovable) }
        throw RulesEvalError(RulesMessages.variableNotFound(name), at: position)
    }

    /// `&&` / `||` over a flattened chain (docs/reference/security-rules.md §3.5): a deciding operand (`false` for
    /// `&&`, `true` for `||`) wins even over an earlier error; otherwise the left-most error;
    /// fatal errors pass straight through.
    @inline(never)
    private func evalLogical(_ e: Expr, _ env: Environment) throws(RulesEvalError) -> RulesValue {
        guard case .logical(let op, let terms) = e.kind else { return .null }
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

    /// Builds a path from literal and `$(…)` parts (docs/reference/security-rules.md §2.3).
    @inline(never)
    private func evalPath(_ e: Expr, _ env: Environment) throws(RulesEvalError) -> RulesValue {
        guard case .path(let parts) = e.kind else { return .null }
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
        return .path(RulesPath(segments))
    }

    /// A call by name: innermost user function, else a global built-in (docs/reference/security-rules.md §1, §4.13).
    @inline(never)
    private func evalCall(_ e: Expr, _ env: Environment) throws(RulesEvalError) -> RulesValue {
        guard case .call(let name, let args) = e.kind else { return .null }
        let position = e.position
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
    /// if read), then the body (docs/reference/security-rules.md §8.1).
    private func callUser(_ fn: FunctionDecl, declaringScope: Int, args: [RulesValue], caller: Environment, at position: SourcePosition)
        throws(RulesEvalError) -> RulesValue
    {
        guard args.count == fn.parameters.count else {
            throw RulesEvalError(
                "Function \(fn.name) expects \(fn.parameters.count) argument(s), got \(args.count).", at: position)
        }
        callDepth += 1
        // A call's own frames cost about two expression levels of stack.
        depth += 2
        defer {
            callDepth -= 1
            depth -= 2
        }
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
