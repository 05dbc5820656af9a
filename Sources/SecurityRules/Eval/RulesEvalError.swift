/// An evaluation error: the third outcome of every rules expression (docs/reference/security-rules.md §3.5).
///
/// It carries the position of the expression that failed. `&&` and `||` absorb ordinary
/// errors when the other side decides the result; `fatal` errors (exceeded budgets) are never
/// absorbed and deny the whole request (docs/reference/security-rules.md §3.5 last paragraph, §6, §8).
public struct RulesEvalError: Error, Sendable, CustomStringConvertible {
    /// How an error propagates.
    public enum Kind: Sendable, Hashable {
        /// Ordinary error: absorbed by `false &&`, `true ||`.
        case ordinary
        /// A comparison a query's constraints could not prove (docs/reference/security-rules.md §7 item 5): shown as
        /// `evaluation error at L<line>:<col>`.
        case unprovable
        /// A budget was exceeded: the request is denied, nothing absorbs it.
        case fatal
    }

    /// The emulator-shaped text, e.g. `Property f is undefined on object.`
    public var message: String
    /// Where the failing expression starts.
    public var position: SourcePosition
    /// Propagation kind.
    public var kind: Kind

    /// Creates an error.
    public init(_ message: String, at position: SourcePosition, kind: Kind = .ordinary) {
        self.message = message
        self.position = position
        self.kind = kind
    }

    /// The text a denial shows for this error.
    public var denialText: String {
        kind == .unprovable ? "evaluation error at L\(position.line):\(position.column)" : message
    }

    /// `message @ L<line>:<col>`.
    public var description: String { "\(denialText) @ L\(position.line):\(position.column)" }
}

/// The error texts the emulator uses (docs/reference/security-rules.md §2.4, §3.2, §3.5, §6), in one place.
enum RulesMessages {
    /// Missing map key.
    static func undefinedProperty(_ name: String) -> String { "Property \(name) is undefined on object." }
    /// Member, index or method on `null`.
    static let nullValue = "Null value error."
    /// Integer division or modulo by zero.
    static let divideByZero = "Divide by zero error."
    /// Index or slice bound outside the value.
    static func indexOutOfBounds(_ index: Int64, size: Int) -> String {
        "Index out of bound error. Index: [\(index)] , size: [\(size)]."
    }
    /// A pattern RE2 does not accept (corpus str.s07, compile.c19).
    static func invalidRegex(_ pattern: String) -> String { "Invalid regular expression pattern. Pattern: \(pattern)." }
    /// A slice whose upper bound is below its lower bound.
    static func illegalRange(from: Int64, to: Int64) -> String {
        "Illegal range error. From index: [\(from)] , To index: [\(to)]."
    }
    /// No such function or method for the receiver.
    static func functionNotFound(_ name: String) -> String { "Function not found error: Name: [\(name)]." }
    /// Operand types the operation does not accept.
    static func unsupported(_ received: String, expected: [String]) -> String {
        "Unsupported operation error. Received: \(received). Expected: \(expected.joined(separator: ", "))."
    }
    /// A name nothing declares.
    static func variableNotFound(_ name: String) -> String { "Variable not found error: Name: [\(name)]." }
    /// The document-id wildcard of a list request.
    static func unboundVariable(_ name: String) -> String {
        "Variable \(name) is not bound: the document id of a list request is unknown."
    }
    /// `get()` of a missing document.
    static func serviceCall(_ function: String, _ path: RulesPath) -> String {
        let segments = path.segments.map { "segments { simple: \"\($0)\" }" }.joined(separator: " ")
        return "Service call error. Function: [\(function)], Argument: [path_value { \(segments) }]."
    }
    /// 64-bit integer overflow.
    static let overflow = "Integer overflow error."
}
