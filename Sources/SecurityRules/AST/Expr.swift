/// One expression node of a rules condition; immutable and shared between threads.
///
/// `id` is dense per ruleset (0…n-1) and indexes coverage counters; `start`/`end` are byte
/// offsets of the node's source text, `position` its first character (what denials report).
public final class Expr: Sendable {
    /// Dense node number within its ruleset.
    public let id: Int
    /// Where the node's text starts.
    public let position: SourcePosition
    /// Byte offset one past the node's text.
    public let end: Int
    /// Height of the subtree (a leaf is 1); the parser refuses trees taller than its limit.
    public let height: Int
    /// What the node is.
    public let kind: ExprKind

    /// Creates a node; `height` is derived from the children.
    init(id: Int, position: SourcePosition, end: Int, kind: ExprKind) {
        self.id = id
        self.position = position
        self.end = end
        self.kind = kind
        self.height = 1 + kind.children.reduce(0) { max($0, $1.height) }
    }
}

/// The node kinds of the expression language (docs/reference/security-rules.md §2).
public indirect enum ExprKind: Sendable {
    /// `1`, `2.0`, `'s'`, `b'x'`, `true`, `null`.
    case literal(RulesValue)
    /// A variable or wildcard name.
    case identifier(String)
    /// `[a, b]`.
    case list([Expr])
    /// `{'k': v}`.
    case map([MapEntry])
    /// `/a/$(x)/(default)`.
    case path([PathPart])
    /// `!a`, `-a`.
    case unary(RulesUnaryOperator, Expr)
    /// `a + b`, `a == b`, `a in b`, …
    case binary(RulesBinaryOperator, Expr, Expr)
    /// A flattened chain `a && b && c` or `a || b || c`.
    case logical(RulesLogicalOperator, [Expr])
    /// `c ? a : b`.
    case ternary(Expr, Expr, Expr)
    /// `a.f`.
    case member(Expr, String)
    /// `a[i]`.
    case index(Expr, Expr)
    /// `a[i:j]`.
    case slice(Expr, Expr?, Expr?)
    /// `f(args)`: a user function, a global built-in, or `get`/`exists`….
    case call(String, [Expr])
    /// `a.m(args)`, including namespace calls such as `math.abs(x)`.
    case method(Expr, String, [Expr])
    /// `a is T`.
    case isType(Expr, RulesType)

    /// Direct sub-expressions, in source order.
    public var children: [Expr] {
        switch self {
        case .literal, .identifier: return []
        case .list(let es): return es
        case .map(let es): return es.flatMap { [$0.key, $0.value] }
        case .path(let parts): return parts.compactMap { if case .interpolation(let e) = $0 { return e } else { return nil } }
        case .unary(_, let e), .member(let e, _), .isType(let e, _): return [e]
        case .binary(_, let a, let b), .index(let a, let b): return [a, b]
        case .logical(_, let es), .call(_, let es): return es
        case .ternary(let a, let b, let c): return [a, b, c]
        case .slice(let a, let b, let c): return [a] + [b, c].compactMap { $0 }
        case .method(let r, _, let args): return [r] + args
        }
    }
}

/// One `key: value` entry of a map literal.
public struct MapEntry: Sendable {
    /// The key expression (must evaluate to a string).
    public let key: Expr
    /// The value expression.
    public let value: Expr
}

/// One segment of a path literal.
public enum PathPart: Sendable {
    /// Taken verbatim, including `(default)` and `{name}` placeholders.
    case literal(String)
    /// `$(expr)`: a string splices one segment, a path all of its segments.
    case interpolation(Expr)
}

/// Prefix operators.
public enum RulesUnaryOperator: String, Sendable {
    /// `!a`: logical negation of a bool.
    case not = "!"
    /// `-a`: arithmetic negation of an int, float or duration.
    case negate = "-"
}

/// Infix operators other than `&&`/`||`, tightest first; `Parser.binaryLevel` holds the
/// binding order (the emulator's, which differs from docs/reference/security-rules.md §2.2 for `in` and `is`).
public enum RulesBinaryOperator: String, Sendable {
    /// `*`, `/`, `%`.
    case multiply = "*"
    case divide = "/"
    case modulo = "%"
    /// `+`, `-`.
    case add = "+"
    case subtract = "-"
    /// The orderings.
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    /// Equality, never an error between different types.
    case equal = "=="
    case notEqual = "!="
    /// Membership in a list, set or map; binds looser than `==` and `is`.
    case `in` = "in"
}

/// The lazy, error-absorbing connectives (docs/reference/security-rules.md §3.5).
public enum RulesLogicalOperator: String, Sendable {
    /// Conjunction: `false` wins over an error.
    case and = "&&"
    /// Disjunction: `true` wins over an error.
    case or = "||"
}
