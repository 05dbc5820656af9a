/// The checked, flattened form of a rules file that decisions run on.
///
/// Function scopes form a tree (file → service → match → nested match); every match block is
/// flattened, in source order (depth-first, parent before children), to its full pattern from
/// the root plus its allow statements (docs/reference/security-rules.md §1, §8 "source order, depth-first").
struct RulesProgram: Sendable {
    /// One lexical scope of function declarations.
    struct FunctionScope: Sendable {
        /// The enclosing scope; nil for the file scope.
        var parent: Int?
        /// Functions declared directly in this scope.
        var functions: [String: FunctionDecl]
        /// Wildcard names visible in this scope (its match and all enclosing matches).
        var wildcards: Set<String>
    }

    /// One match block with its full pattern.
    struct Match: Sendable {
        /// The concatenated pattern from the service root.
        var pattern: [MatchSegment]
        /// Its allow statements.
        var allows: [AllowDecl]
        /// Index of its function scope.
        var scope: Int
        /// Where `match` is.
        var position: SourcePosition
    }

    /// The rules text.
    let source: RulesSource
    /// `rules_version` (1 or 2).
    let version: Int
    /// Function scopes: 0 = file, 1 = service, then one per match.
    let scopes: [FunctionScope]
    /// Every match block, flattened in source order.
    let matches: [Match]
    /// Every expression node by id.
    let expressions: [Expr]

    /// Builds the program from a syntax tree (already checked); `extra` roots are indexed too.
    init(source: RulesSource, syntax: RulesFileSyntax, extra: [Expr] = []) {
        self.source = source
        self.version = syntax.version
        var scopes: [FunctionScope] = [FunctionScope(parent: nil, functions: Self.table(syntax.functions), wildcards: [])]
        var matches: [Match] = []
        if let service = syntax.service {
            scopes.append(FunctionScope(parent: 0, functions: Self.table(service.functions), wildcards: []))
            func visit(_ m: MatchDecl, prefix: [MatchSegment], parentScope: Int) {
                let pattern = prefix + m.pattern
                var names = scopes[parentScope].wildcards
                for s in m.pattern {
                    switch s {
                    case .wildcard(let n), .recursive(let n): names.insert(n)
                    case .literal: break
                    }
                }
                scopes.append(FunctionScope(parent: parentScope, functions: Self.table(m.functions), wildcards: names))
                let scope = scopes.count - 1
                matches.append(Match(pattern: pattern, allows: m.allows, scope: scope, position: m.position))
                for c in m.children { visit(c, prefix: pattern, parentScope: scope) }
            }
            for m in service.matches { visit(m, prefix: [], parentScope: 1) }
        }
        self.scopes = scopes
        self.matches = matches
        var exprs = [Expr?](repeating: nil, count: syntax.exprCount)
        func collect(_ e: Expr) {
            if e.id < exprs.count { exprs[e.id] = e }
            for c in e.kind.children { collect(c) }
        }
        for s in scopes {
            for f in s.functions.values {
                collect(f.body)
                for b in f.bindings { collect(b.value) }
            }
        }
        for m in matches { for a in m.allows { if let c = a.condition { collect(c) } } }
        for e in extra { collect(e) }
        self.expressions = exprs.compactMap { $0 }
    }

    private static func table(_ fs: [FunctionDecl]) -> [String: FunctionDecl] {
        var t: [String: FunctionDecl] = [:]
        for f in fs where t[f.name] == nil { t[f.name] = f }
        return t
    }

    /// The innermost declaration of `name` visible from `scope`, and the scope declaring it.
    func resolveFunction(_ name: String, from scope: Int) -> (FunctionDecl, Int)? {
        var s: Int? = scope
        while let i = s {
            if let f = scopes[i].functions[name] { return (f, i) }
            s = scopes[i].parent
        }
        return nil
    }
}
