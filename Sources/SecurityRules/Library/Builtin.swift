/// One built-in function or method: the unit of the library table (docs/STYLE.md principle 7).
struct Builtin: Sendable {
    /// What a call needs: receiver, arguments, the evaluation (budgets, document access), and
    /// where the call is (for errors).
    struct Call {
        /// The called name.
        let name: String
        /// The receiver (`null` for functions).
        let receiver: RulesValue
        /// The arguments, in order.
        let args: [RulesValue]
        /// The running evaluation (budgets, reads, debug log).
        let evaluation: Evaluation
        /// Where the call is.
        let position: SourcePosition
        /// The entry's signatures, for error messages.
        let signatures: [String]

        /// An ordinary error at the call.
        func fail(_ message: String) -> RulesEvalError { RulesEvalError(message, at: position) }

        /// `Unsupported operation error. Received: <what was passed>. Expected: <signatures>.`
        func unsupported() -> RulesEvalError {
            let types = args.map(\.typeName).joined(separator: ", ")
            let received: String
            if case .null = receiver, !signatures.contains(where: { $0.hasPrefix("null.") }) {
                received = "\(name)(\(types))"
            } else {
                received = "\(receiver.typeName).\(name)(\(types))"
            }
            return RulesEvalError(
                RulesMessages.unsupported(
                    received, expected: signatures.map { sig in sig.firstRange(of: " -> ").map { String(sig[..<$0.lowerBound]) } ?? sig }),
                at: position)
        }

        /// Argument `i` as an int.
        /// - Throws: an unsupported-operation error otherwise.
        func int(_ i: Int) throws(RulesEvalError) -> Int64 {
            guard i < args.count, case .int(let v) = args[i] else { throw unsupported() }
            return v
        }

        /// Argument `i` as a double (ints convert).
        /// - Throws: an unsupported-operation error otherwise.
        func number(_ i: Int) throws(RulesEvalError) -> Double {
            guard i < args.count, let d = args[i].asDouble else { throw unsupported() }
            return d
        }

        /// Argument `i` as a string.
        /// - Throws: an unsupported-operation error otherwise.
        func string(_ i: Int) throws(RulesEvalError) -> String {
            guard i < args.count, case .string(let v) = args[i] else { throw unsupported() }
            return v
        }

        /// Argument `i` as a list.
        /// - Throws: an unsupported-operation error otherwise.
        func list(_ i: Int) throws(RulesEvalError) -> [RulesValue] {
            guard i < args.count, case .list(let v) = args[i] else { throw unsupported() }
            return v
        }

        /// A list or set argument's elements.
        func collection(_ i: Int) throws(RulesEvalError) -> [RulesValue] {
            guard i < args.count else { throw unsupported() }
            switch args[i] {
            case .list(let v): return v
            case .set(let s): return s.elements
            default: throw unsupported()
            }
        }

        /// Charges library work to the evaluation.
        /// - Throws: a fatal error when the work budget is spent.
        func charge(_ units: Int) throws(RulesEvalError) { try evaluation.charge(units, at: position) }
    }

    /// Method name (`size`) or qualified function name (`math.abs`, `int`).
    let name: String
    /// The receiver type for methods; nil for global and namespace functions.
    let receiver: RulesType?
    /// Accepted signatures, `string.matches(string) -> bool` style (errors list them).
    let signatures: [String]
    /// One line saying what it does and where that is specified.
    let doc: String
    /// Accepted argument counts.
    let arity: ClosedRange<Int>
    /// The implementation.
    let run: @Sendable (Call) throws(RulesEvalError) -> RulesValue

    /// Creates an entry.
    init(
        _ name: String, on receiver: RulesType? = nil, _ signatures: [String], arity: ClosedRange<Int>, doc: String,
        _ run: @escaping @Sendable (Call) throws(RulesEvalError) -> RulesValue
    ) {
        self.name = name
        self.receiver = receiver
        self.signatures = signatures
        self.doc = doc
        self.arity = arity
        self.run = run
    }
}
