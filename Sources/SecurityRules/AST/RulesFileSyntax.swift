/// The parsed form of a whole rules file (docs/reference/security-rules.md §1).
public struct RulesFileSyntax: Sendable {
    /// `rules_version`: 1 when absent, 2 for `'2'`.
    public var version: Int
    /// Functions declared before `service`.
    public var functions: [FunctionDecl]
    /// The `cloud.firestore` service block; nil if parsing failed before it or the file has
    /// only other services (whose rules never apply to Firestore).
    public var service: ServiceDecl?
    /// Number of expression nodes (ids are 0..<exprCount).
    public var exprCount: Int
}

/// `service cloud.firestore { … }`.
public struct ServiceDecl: Sendable {
    /// `cloud.firestore`.
    public var name: String
    /// Service-scope functions.
    public var functions: [FunctionDecl]
    /// Top-level match blocks.
    public var matches: [MatchDecl]
    /// Where `service` is.
    public var position: SourcePosition
}

/// `match /a/{b}/{c=**} { … }`.
public struct MatchDecl: Sendable {
    /// The path pattern, relative to the enclosing match.
    public var pattern: [MatchSegment]
    /// Where the `/` before each segment of `pattern` is.
    public var segmentPositions: [SourcePosition]
    /// Functions declared in this block.
    public var functions: [FunctionDecl]
    /// `allow` statements, in source order.
    public var allows: [AllowDecl]
    /// Nested matches.
    public var children: [MatchDecl]
    /// Where `match` is.
    public var position: SourcePosition
}

/// One segment of a match pattern (docs/reference/security-rules.md §1.1).
public enum MatchSegment: Sendable, Hashable, CustomStringConvertible {
    /// A literal segment such as `cities` or `(default)`.
    case literal(String)
    /// `{name}`: exactly one segment, bound as a string.
    case wildcard(String)
    /// `{name=**}`: v2 zero or more segments (v1 one or more, last only), bound as a path.
    case recursive(String)

    /// The segment as written.
    public var description: String {
        switch self {
        case .literal(let s): return s
        case .wildcard(let n): return "{\(n)}"
        case .recursive(let n): return "{\(n)=**}"
        }
    }
}

/// The methods an `allow` can name (docs/reference/security-rules.md §1.2).
public enum AllowMethod: String, Sendable, Hashable, CaseIterable {
    /// `read` = get + list, `write` = create + update + delete.
    case read, write, get, list, create, update, delete

    /// True when this method name grants `method`.
    func grants(_ method: RulesMethod) -> Bool {
        switch self {
        case .read: return method == .get || method == .list
        case .write: return method == .create || method == .update || method == .delete
        case .get: return method == .get
        case .list: return method == .list
        case .create: return method == .create
        case .update: return method == .update
        case .delete: return method == .delete
        }
    }
}

/// `allow get, list: if cond;`
public struct AllowDecl: Sendable {
    /// The methods named.
    public var methods: [AllowMethod]
    /// The condition; nil grants unconditionally.
    public var condition: Expr?
    /// Where `allow` is.
    public var position: SourcePosition
}

/// `function f(a, b) { let x = …; return …; }`.
public struct FunctionDecl: Sendable {
    /// The name.
    public var name: String
    /// Parameter names.
    public var parameters: [String]
    /// `let` bindings in order.
    public var bindings: [LetBinding]
    /// The `return` expression.
    public var body: Expr
    /// Where `function` is.
    public var position: SourcePosition
}

/// `let name = expr;`
public struct LetBinding: Sendable {
    /// The bound name.
    public var name: String
    /// Its expression, evaluated eagerly in order.
    public var value: Expr
}
