/// One lexical token of a rules file: its kind (with the decoded literal) and byte range.
struct Token: Sendable, Equatable {
    /// What the token is.
    enum Kind: Sendable, Equatable {
        /// `[A-Za-z_][A-Za-z0-9_]*`, keywords included (the parser tells them apart).
        case identifier(String)
        /// A decimal or hex integer literal's magnitude (sign is unary minus).
        case int(UInt64)
        /// A floating-point literal.
        case float(Double)
        /// A string literal, escapes decoded.
        case string(String)
        /// A bytes literal `b'…'`, escapes decoded.
        case bytes([UInt8])
        /// Punctuation or an operator: `{ } ( ) [ ] , ; : . ? ! = == != < <= > >= + - * / % && ||`.
        case symbol(String)
        /// End of input.
        case eof
        /// A malformed token; the message has already been reported.
        case invalid
    }

    /// The kind.
    var kind: Kind
    /// Byte offset of the first byte.
    var start: Int
    /// Byte offset one past the last byte.
    var end: Int

    /// True when the token is the symbol `s`.
    func isSymbol(_ s: String) -> Bool {
        if case .symbol(let t) = kind { return t == s }
        return false
    }

    /// True when the token is the identifier (or keyword) `s`.
    func isIdentifier(_ s: String) -> Bool {
        if case .identifier(let t) = kind { return t == s }
        return false
    }

    /// The identifier text, if the token is one.
    var identifier: String? {
        if case .identifier(let t) = kind { return t }
        return nil
    }
}
