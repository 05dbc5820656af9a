/// A compiled RE2 pattern: instructions for the Pike VM (Thompson NFA with priorities and
/// captures). Matching is O(pattern size × text length): no backtracking, so hostile
/// patterns such as `(a+)+$` cannot blow up (docs/reference/security-rules.md §4.3; docs/STYLE.md hostile input).
struct RegexProgram: Sendable {
    /// One VM instruction.
    enum Instruction: Sendable {
        /// Consume one scalar in the set.
        case scalars(ScalarSet)
        /// Consume any scalar (`\n` only when `newline`).
        case any(newline: Bool)
        /// Try `x` first, then `y` (priority order = leftmost-first semantics).
        case split(Int, Int)
        /// Continue at the target.
        case jump(Int)
        /// Record the position in capture slot n.
        case save(Int)
        /// Continue only if the assertion holds here.
        case assertion(RegexAssertion)
        /// Accept.
        case match
    }

    /// Largest program accepted (after expanding counted repetitions).
    static let maxInstructions = 20_000

    /// The program.
    let instructions: [Instruction]
    /// Capture groups, not counting group 0.
    let groupCount: Int

    /// Compiles `pattern`.
    /// - Throws: `RegexSyntaxError` for invalid syntax or a pattern over `maxInstructions`.
    init(_ pattern: String) throws(RegexSyntaxError) {
        var parser = RegexParser(pattern)
        let node = try parser.parse()
        var c = Compiler()
        c.emit(.save(0))
        try c.compile(node)
        c.emit(.save(1))
        c.emit(.match)
        instructions = c.code
        groupCount = parser.groupCount
    }

    private struct Compiler {
        var code: [Instruction] = []

        mutating func emit(_ i: Instruction) { code.append(i) }

        mutating func check() throws(RegexSyntaxError) {
            if code.count > RegexProgram.maxInstructions { throw RegexSyntaxError(message: "pattern too large - compile failed") }
        }

        mutating func compile(_ n: RegexNode) throws(RegexSyntaxError) {
            try check()
            switch n {
            case .empty: break
            case .scalars(let s): emit(.scalars(s))
            case .any(let nl): emit(.any(newline: nl))
            case .assertion(let a): emit(.assertion(a))
            case .concat(let items): for x in items { try compile(x) }
            case .group(let inner, let index):
                if let k = index { emit(.save(2 * k)) }
                try compile(inner)
                if let k = index { emit(.save(2 * k + 1)) }
            case .alternate(let alts):
                var jumps: [Int] = []
                for (k, a) in alts.enumerated() {
                    if k < alts.count - 1 {
                        let split = code.count
                        emit(.split(split + 1, -1))
                        try compile(a)
                        jumps.append(code.count)
                        emit(.jump(-1))
                        code[split] = .split(split + 1, code.count)
                    } else {
                        try compile(a)
                    }
                }
                for j in jumps { code[j] = .jump(code.count) }
            case .repetition(let inner, let lo, let hi, let greedy):
                if lo > 1000 || (hi ?? 0) > 1000 { throw RegexSyntaxError(message: "bad repetition operator") }
                if let h = hi, h < lo { throw RegexSyntaxError(message: "bad repetition operator") }
                for _ in 0..<lo { try compile(inner) }
                if let h = hi {
                    // Optional copies: each one may be skipped, ending the repetition.
                    var exits: [Int] = []
                    for _ in lo..<h {
                        let split = code.count
                        emit(.split(-1, -1))
                        exits.append(split)
                        try compile(inner)
                        code[split] = greedy ? .split(split + 1, -1) : .split(-1, split + 1)
                    }
                    let end = code.count
                    for s in exits {
                        if case .split(let a, let b) = code[s] { code[s] = .split(a == -1 ? end : a, b == -1 ? end : b) }
                    }
                } else {
                    // Kleene star on the last copy (or the whole thing when lo == 0).
                    let split = code.count
                    emit(.split(-1, -1))
                    try compile(inner)
                    emit(.jump(split))
                    let end = code.count
                    code[split] = greedy ? .split(split + 1, end) : .split(end, split + 1)
                }
            }
            try check()
        }
    }
}
