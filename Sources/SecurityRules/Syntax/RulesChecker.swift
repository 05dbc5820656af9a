/// Compile-time checks on a parsed file: the documented limits and the rules the grammar
/// cannot express (docs/reference/security-rules.md §1, §1.1, §8, §8.1, §10).
///
/// - at most 7 parameters and 10 `let`s per function; no recursion, direct or mutual;
/// - match nesting ≤ 10, ≤ 20 captures per nested set, ≤ 100 segments;
/// - one recursive wildcard per match statement; in version 1 it must be the last segment;
/// - the ruleset text ≤ 256 KB;
/// - regex literals given to `matches` / `split` compile.
struct RulesChecker {
    /// The checked text.
    let source: RulesSource
    /// Errors and warnings found (bounded).
    var log = DiagnosticLog()
    /// The findings recorded so far.
    var diagnostics: [RulesDiagnostic] { log.entries }

    /// Largest ruleset accepted: 256 KB.
    static let maxBytes = 256 * 1024

    /// Records an error.
    mutating func error(_ message: String, at position: SourcePosition) {
        let src = source
        log.append(.error) { RulesDiagnostic(.error, message, at: position, in: src) }
    }

    /// Runs every check on `file`; with `structureOnly`, the size and declaration limits only.
    ///
    /// The emulator checks recursion and regex literals only once the names are right: a
    /// file with a package used as a variable reports that alone (corpus compile.g95), so
    /// `Ruleset` passes `structureOnly` when the parser's name checks failed.
    mutating func check(_ file: RulesFileSyntax, structureOnly: Bool = false) {
        if source.bytes.count > Self.maxBytes {
            error("Ruleset is \(source.bytes.count) bytes; the limit is 262144 bytes (256 KB).", at: source.position(ofOffset: 0))
        }
        for f in file.functions { checkFunction(f) }
        guard let service = file.service else { return }
        for f in service.functions { checkFunction(f) }
        for m in service.matches { checkMatch(m, depth: 1, captures: 0, segments: 0, version: file.version) }
        if structureOnly { return }
        checkRecursion(file)
        checkRegexLiterals(file)
        checkNames(file)
    }

    /// Rejects an invalid regular expression written as a string literal argument of
    /// `matches` or `split`, as the emulator does at compile time (`Invalid regular expression
    /// pattern. Pattern: (.`, corpus compile.c19); a computed pattern fails only when run, and
    /// `replace` is not checked there either.
    mutating func checkRegexLiterals(_ file: RulesFileSyntax) {
        let program = RulesProgram(source: source, syntax: file)
        func visit(_ e: Expr, in checker: inout RulesChecker) {
            if case .method(_, let name, let args) = e.kind, name == "matches" || name == "split", args.count == 1,
                case .literal(.string(let pattern)) = args[0].kind
            {
                do throws(RulesRegex.Failure) {
                    _ = try RulesRegex.compile(pattern)
                } catch {
                    var reason = ""
                    if case .syntax(let why) = error { reason = " (\(why))" }
                    checker.error(RulesMessages.invalidRegex(pattern) + reason, at: args[0].position)
                }
            }
            for c in e.kind.children { visit(c, in: &checker) }
        }
        for s in program.scopes {
            for f in s.functions.values.sorted(by: { $0.position < $1.position }) {
                for b in f.bindings { visit(b.value, in: &self) }
                visit(f.body, in: &self)
            }
        }
        for m in program.matches {
            for a in m.allows { if let c = a.condition { visit(c, in: &self) } }
        }
    }

    mutating func warning(_ message: String, at position: SourcePosition) {
        let src = source
        log.append(.warning) { RulesDiagnostic(.warning, message, at: position, in: src) }
    }

    /// Warns about names nothing declares: they would fail at run time and deny silently.
    mutating func checkNames(_ file: RulesFileSyntax) {
        let program = RulesProgram(source: source, syntax: file)
        var seen = Set<String>()
        func visit(_ e: Expr, scope: Int, variables: Set<String>, in checker: inout RulesChecker) {
            switch e.kind {
            case .identifier(let name):
                if !variables.contains(name) && seen.insert("v:\(name)@\(e.position.offset)").inserted {
                    checker.warning("Unknown variable '\(name)'.", at: e.position)
                }
                return
            case .call(let name, _):
                if program.resolveFunction(name, from: scope) == nil && Library.functions[name] == nil {
                    checker.warning("Unknown function '\(name)'.", at: e.position)
                }
            case .method(let receiver, let name, let args):
                if case .identifier(let ns) = receiver.kind, Evaluation.namespaces.contains(ns), !variables.contains(ns) {
                    if Library.functions[ns + "." + name] == nil {
                        checker.warning("Unknown function '\(ns).\(name)'.", at: e.position)
                    }
                    for a in args { visit(a, scope: scope, variables: variables, in: &checker) }
                    return
                }
            case .path(let parts):
                // `$(name)` with an undeclared name is a bind() placeholder, not an error.
                for case .interpolation(let x) in parts {
                    if case .identifier = x.kind { continue }
                    visit(x, scope: scope, variables: variables, in: &checker)
                }
                return
            default: break
            }
            for c in e.kind.children { visit(c, scope: scope, variables: variables, in: &checker) }
        }
        let globals: Set<String> = ["request", "resource"]
        for (i, s) in program.scopes.enumerated() {
            for f in s.functions.values.sorted(by: { $0.position < $1.position }) {
                var vars = globals.union(s.wildcards).union(f.parameters)
                for b in f.bindings {
                    visit(b.value, scope: i, variables: vars, in: &self)
                    vars.insert(b.name)
                }
                visit(f.body, scope: i, variables: vars, in: &self)
            }
        }
        for m in program.matches {
            let vars = globals.union(program.scopes[m.scope].wildcards)
            for a in m.allows { if let c = a.condition { visit(c, scope: m.scope, variables: vars, in: &self) } }
        }
    }

    /// Parameter and `let` limits.
    mutating func checkFunction(_ f: FunctionDecl) {
        if f.parameters.count > 7 {
            error("Function '\(f.name)' has \(f.parameters.count) parameters; at most 7 are allowed.", at: f.position)
        }
        if f.bindings.count > 10 {
            error("Function '\(f.name)' has \(f.bindings.count) let bindings; at most 10 are allowed.", at: f.position)
        }
        if Set(f.parameters).count != f.parameters.count { error("Function '\(f.name)' repeats a parameter name.", at: f.position) }
    }

    /// Nesting, capture, segment and wildcard limits of a match and its children.
    ///
    /// A misplaced `{name=**}` is reported at the `/` before it, where the emulator puts it
    /// (corpus compile.c10, c30).
    mutating func checkMatch(_ m: MatchDecl, depth: Int, captures: Int, segments: Int, version: Int) {
        if depth > 10 { error("Match statements are nested more than 10 deep.", at: m.position) }
        var caps = captures
        var recursive = 0
        for (i, s) in m.pattern.enumerated() {
            let at = i < m.segmentPositions.count ? m.segmentPositions[i] : m.position
            switch s {
            case .wildcard: caps += 1
            case .recursive(let n):
                caps += 1
                recursive += 1
                if recursive == 2 { error("A match path may contain at most one recursive wildcard.", at: at) }
                if version < 2 && i != m.pattern.count - 1 {
                    error("Recursive wildcard {\(n)=**} must be the last segment in rules_version 1.", at: at)
                }
            case .literal: break
            }
        }
        if caps > 20 { error("More than 20 capture variables in nested match paths.", at: m.position) }
        let segs = segments + m.pattern.count
        if segs > 100 { error("Nested match paths are longer than 100 segments.", at: m.position) }
        for f in m.functions { checkFunction(f) }
        for c in m.children { checkMatch(c, depth: depth + 1, captures: caps, segments: segs, version: version) }
    }

    /// Rejects cycles in the call graph (calls resolve lexically, innermost scope first).
    mutating func checkRecursion(_ file: RulesFileSyntax) {
        let program = RulesProgram(source: source, syntax: file)
        struct Node: Hashable {
            var scope: Int
            var name: String
        }
        var edges: [Node: [Node]] = [:]
        var decls: [Node: FunctionDecl] = [:]
        for (i, s) in program.scopes.enumerated() {
            for (name, f) in s.functions {
                let node = Node(scope: i, name: name)
                decls[node] = f
                var callees: [Node] = []
                func visit(_ e: Expr) {
                    if case .call(let callee, _) = e.kind, let (_, scope) = program.resolveFunction(callee, from: i) {
                        callees.append(Node(scope: scope, name: callee))
                    }
                    for c in e.kind.children { visit(c) }
                }
                visit(f.body)
                for b in f.bindings { visit(b.value) }
                edges[node] = callees
            }
        }
        var state: [Node: Int] = [:]  // 1 = on stack, 2 = done
        var reported = Set<Node>()
        func dfs(_ n: Node, _ stack: [Node]) -> [Node]? {
            state[n] = 1
            for m in edges[n] ?? [] {
                if state[m] == 1 { return stack + [n, m] }
                if state[m] == nil, let cycle = dfs(m, stack + [n]) { return cycle }
            }
            state[n] = 2
            return nil
        }
        for n in edges.keys.sorted(by: { ($0.scope, $0.name) < ($1.scope, $1.name) }) where state[n] == nil {
            if let cycle = dfs(n, []), let start = cycle.last, !reported.contains(start), let decl = decls[start] {
                reported.insert(start)
                let from = cycle.firstIndex(of: start) ?? 0
                let names = cycle[from...].map(\.name).joined(separator: " -> ")
                error("Recursive function calls are not allowed: \(names).", at: decl.position)
            }
        }
    }
}
