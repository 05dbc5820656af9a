/// `string` and `bytes` methods (docs/reference/security-rules.md §4.3, §4.4).
extension Library {
    /// The receiver as a string.
    static func receiverString(_ c: Builtin.Call) -> String {
        if case .string(let s) = c.receiver { return s }
        return ""
    }

    /// The rules error for a failed regex operation.
    static func regexFailure(_ f: RulesRegex.Failure, pattern: String, _ c: Builtin.Call) -> RulesEvalError {
        switch f {
        case .syntax: return c.fail(RulesMessages.invalidRegex(pattern))
        case .exhausted: return RulesEvalError("Regular expression exceeded the work budget.", at: c.position, kind: .fatal)
        }
    }

    /// Runs a regex operation with the evaluation's remaining work budget.
    static func withRegexBudget<T>(_ c: Builtin.Call, pattern: String, _ body: (inout Int) throws(RulesRegex.Failure) -> T)
        throws(RulesEvalError) -> T
    {
        var budget = max(0, c.evaluation.limits.maxWork - c.evaluation.work)
        let before = budget
        let result: T
        do throws(RulesRegex.Failure) {
            result = try body(&budget)
        } catch {
            throw regexFailure(error, pattern: pattern, c)
        }
        try c.charge(before - budget)
        return result
    }

    /// `string` methods (docs/reference/security-rules.md §4.3).
    static let stringEntries: [Builtin] = [
        Builtin("size", on: .string, ["string.size() -> int"], arity: 0...0, doc: "Length in UTF-16 code units.") { c in
            .int(Int64(receiverString(c).utf16.count))
        },
        Builtin("matches", on: .string, ["string.matches(string) -> bool"], arity: 1...1, doc: "RE2 match of the whole string.") {
            c throws(RulesEvalError) in
            let re = try c.string(0)
            let s = receiverString(c)
            return .bool(
                try withRegexBudget(c, pattern: re) { (b: inout Int) throws(RulesRegex.Failure) in
                    try RulesRegex.fullMatch(re, s, budget: &b)
                })
        },
        Builtin(
            "replace", on: .string, ["string.replace(string, string) -> string"], arity: 2...2,
            doc: "Replaces every RE2 match; $n inserts group n."
        ) {
            c throws(RulesEvalError) in
            let re = try c.string(0)
            let sub = try c.string(1)
            let s = receiverString(c)
            return .string(
                try withRegexBudget(c, pattern: re) { (b: inout Int) throws(RulesRegex.Failure) in
                    try RulesRegex.replaceAll(re, s, sub, budget: &b)
                })
        },
        Builtin(
            "split", on: .string, ["string.split(string) -> list"], arity: 1...1,
            doc: "Splits around RE2 matches (Java semantics: trailing empty pieces dropped)."
        ) {
            c throws(RulesEvalError) in
            let re = try c.string(0)
            let s = receiverString(c)
            let parts = try withRegexBudget(c, pattern: re) { (b: inout Int) throws(RulesRegex.Failure) in
                try RulesRegex.split(re, s, budget: &b)
            }
            return .list(parts.map { .string($0) })
        },
        Builtin("lower", on: .string, ["string.lower() -> string"], arity: 0...0, doc: "ASCII letters to lower case.") { c in
            .string(String(decoding: receiverString(c).utf8.map { ($0 >= 65 && $0 <= 90) ? $0 + 32 : $0 }, as: UTF8.self))
        },
        Builtin("upper", on: .string, ["string.upper() -> string"], arity: 0...0, doc: "ASCII letters to upper case.") { c in
            .string(String(decoding: receiverString(c).utf8.map { ($0 >= 97 && $0 <= 122) ? $0 - 32 : $0 }, as: UTF8.self))
        },
        Builtin(
            "trim", on: .string, ["string.trim() -> string"], arity: 0...0,
            doc: "Strips leading and trailing characters <= U+0020 (Java trim)."
        ) { c in
            let scalars = Array(receiverString(c).unicodeScalars)
            var a = 0
            var b = scalars.count
            while a < b, scalars[a].value <= 0x20 { a += 1 }
            while b > a, scalars[b - 1].value <= 0x20 { b -= 1 }
            var v = String.UnicodeScalarView()
            v.append(contentsOf: scalars[a..<b])
            return .string(String(v))
        },
        Builtin("toUtf8", on: .string, ["string.toUtf8() -> bytes"], arity: 0...0, doc: "UTF-8 encoding.") { c in
            .bytes(Array(receiverString(c).utf8))
        },
    ]

    /// The receiver as bytes.
    static func receiverBytes(_ c: Builtin.Call) -> [UInt8] {
        if case .bytes(let b) = c.receiver { return b }
        return []
    }

    /// `bytes` methods (docs/reference/security-rules.md §4.4).
    static let bytesEntries: [Builtin] = [
        Builtin("size", on: .bytes, ["bytes.size() -> int"], arity: 0...0, doc: "Number of bytes.") { c in
            .int(Int64(receiverBytes(c).count))
        },
        Builtin("toBase64", on: .bytes, ["bytes.toBase64() -> string"], arity: 0...0, doc: "Base64url alphabet with '=' padding.") { c in
            .string(base64URL(receiverBytes(c)))
        },
        Builtin("toHexString", on: .bytes, ["bytes.toHexString() -> string"], arity: 0...0, doc: "Uppercase hex.") { c in
            .string(receiverBytes(c).map(RulesFormat.hexByte).joined())
        },
    ]

    /// RFC 4648 §5 base64url with padding (docs/reference/security-rules.md §4.4: `'~~~'` → `fn5-`).
    static func base64URL(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        var out = ""
        var i = 0
        while i < bytes.count {
            let b0 = Int(bytes[i])
            let b1 = i + 1 < bytes.count ? Int(bytes[i + 1]) : 0
            let b2 = i + 2 < bytes.count ? Int(bytes[i + 2]) : 0
            out.append(alphabet[b0 >> 2])
            out.append(alphabet[((b0 & 3) << 4) | (b1 >> 4)])
            out.append(i + 1 < bytes.count ? alphabet[((b1 & 15) << 2) | (b2 >> 6)] : "=")
            out.append(i + 2 < bytes.count ? alphabet[b2 & 63] : "=")
            i += 3
        }
        return out
    }
}
