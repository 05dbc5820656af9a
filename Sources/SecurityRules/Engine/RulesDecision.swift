/// The verdict on one request and why.
public struct RulesDecision: Sendable {
    /// True when some `allow` statement evaluated to `true` (for every way of a list query).
    public var allowed: Bool
    /// What was tried and what each condition did.
    public var explanation: RulesExplanation

    /// Creates a decision.
    public init(allowed: Bool, explanation: RulesExplanation) {
        self.allowed = allowed
        self.explanation = explanation
    }
}

/// How one `allow` statement came out.
public struct StatementOutcome: Sendable, CustomStringConvertible {
    /// The result of the condition.
    public enum Result: Sendable {
        /// The condition was `true` (or absent).
        case granted
        /// The condition was `false`.
        case denied
        /// The condition produced a non-bool value.
        case notBool(String)
        /// The condition failed.
        case error(RulesEvalError)
    }

    /// The full match pattern, `/databases/{database}/documents/presence/{uid}`.
    public var matchPath: String
    /// The methods the statement names.
    public var methods: [AllowMethod]
    /// Line and column where the condition starts (the `allow` itself when unconditional).
    public var position: SourcePosition
    /// The result.
    public var result: Result
    /// For a denial: the sub-expressions that were false or failed, with the values they saw.
    public var culprits: [String]

    /// One line: `allow update @ L12 in /…: false`.
    public var description: String {
        let verdict: String
        switch result {
        case .granted: verdict = "true"
        case .denied: verdict = "false"
        case .notBool(let t): verdict = "non-bool \(t)"
        case .error(let e): verdict = "error: \(e.denialText)"
        }
        return "allow \(methods.map(\.rawValue).joined(separator: ", ")) @ L\(position.line) in \(matchPath): \(verdict)"
    }
}

/// Everything a denial (or grant) can be explained with.
public struct RulesExplanation: Sendable, CustomStringConvertible {
    /// The request's method.
    public var method: RulesMethod
    /// The request path as the rules saw it (`/databases/(default)/documents/…`).
    public var path: String
    /// Statements tried, in order. For a list query: those of the deciding way.
    public var statements: [StatementOutcome]
    /// A reason that is not a statement's (no matching statement, budget exceeded).
    public var failure: String?
    /// For list queries: the way (disjunct of the filter) that decided, described.
    public var way: String?
    /// Lines logged by `debug()`.
    public var debugLog: [String]
    /// For a denied upsert: the emulator's first-pass fragments (`Ruleset.upsertPrelude`),
    /// which its message shows before (or instead of) the real outcomes.
    public var prelude: [String] = []
    /// True when the first pass alone makes the emulator's message.
    public var preludeDecides = false

    /// The reason given when no statement applies.
    public static let noMatchingStatements = "No matching allow statements"

    /// Creates an explanation.
    public init(
        method: RulesMethod, path: String, statements: [StatementOutcome] = [], failure: String? = nil, way: String? = nil,
        debugLog: [String] = []
    ) {
        self.method = method
        self.path = path
        self.statements = statements
        self.failure = failure
        self.way = way
        self.debugLog = debugLog
    }

    /// The emulator's denial text (docs/reference/security-rules.md §8): a leading newline, then one
    /// `false for 'update' @ L12` / `<error> for 'get' @ L5` / `evaluation error at L5:22 for
    /// 'list' @ L5` (an unprovable comparison, placed at the condition as the emulator places
    /// it) per statement, comma-separated; for an upsert, the first-pass fragments first.
    public var emulatorMessage: String {
        let noStatement = failure == Self.noMatchingStatements
        if let f = failure, !(noStatement && !prelude.isEmpty) { return "\n" + f }
        if preludeDecides || noStatement { return "\n" + prelude.joined(separator: ", ") }
        let parts = statements.compactMap { s -> String? in
            let suffix = " for '\(method.rawValue)' @ L\(s.position.line)"
            switch s.result {
            case .granted: return nil
            case .denied, .notBool: return "false" + suffix
            case .error(let e):
                if e.kind == .unprovable { return "evaluation error at L\(s.position.line):\(s.position.column)" + suffix }
                return e.message + suffix
            }
        }
        return "\n" + (prelude + parts).joined(separator: ", ")
    }

    /// Multi-line account: the request, each statement tried, and the culprit sub-expressions.
    public var description: String {
        var out = "\(method.rawValue) \(path)"
        if let w = way { out += "\n  query way: \(w)" }
        if let f = failure { out += "\n  \(f)" }
        for s in statements {
            out += "\n  " + s.description
            for c in s.culprits { out += "\n    " + c }
        }
        for d in debugLog { out += "\n  debug: " + d }
        if !prelude.isEmpty { out += "\n  emulator first pass (upsert): " + prelude.joined(separator: ", ") }
        return out
    }
}
