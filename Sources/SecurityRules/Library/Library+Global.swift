import FirestoreModel
import FoundationEssentials
import Glibc

/// Namespaces `math` and `hashing`, path methods, and the global functions `int`, `float`,
/// `string`, `path`, `debug`, `get`, `exists`, `getAfter`, `existsAfter` (docs/reference/security-rules.md §4.2,
/// §4.9, §4.13, §6). `bool()` is deliberately absent (production answers Function not found).
extension Library {
    /// What `string(v)` (and `list.join`) makes of `v`: `true`, `1`, `2.0` (Java `Double.toString`),
    /// `null`, the string itself, a path's text; nil for any other type.
    static func stringForm(_ v: RulesValue) -> String? {
        switch v {
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .float(let d): return RulesFormat.double(d)
        case .null: return "null"
        case .string(let s): return s
        case .path(let p): return p.description
        default: return nil
        }
    }

    /// `math.ceil` / `math.floor`: the rounded value as a float, for int input too
    /// (`math.ceil(2) is float`; corpus misc.c08, c11, c16). The signature names only float, as
    /// the emulator's error text does.
    static func mathRoundingToFloat(_ name: String, _ doc: String, _ rule: FloatingPointRoundingRule) -> Builtin {
        Builtin("math.\(name)", ["math.\(name)(float) -> float"], arity: 1...1, doc: doc) { c throws(RulesEvalError) in
            .float(try c.number(0).rounded(rule))
        }
    }

    /// Java `Math.round(double)`: the nearest long, ties toward positive infinity
    /// (`-2.5` → `-2`), NaN → 0, saturating at the `Int64` bounds (corpus misc.c03, c04, c14).
    static func javaRound(_ d: Double) -> Int64 {
        if d.isNaN { return 0 }
        let floor = d.rounded(.down)
        // `d - floor` is exact for every finite double, so the tie test is exact.
        let r = d - floor >= 0.5 ? floor + 1 : floor
        if r >= 9_223_372_036_854_775_808.0 { return .max }
        if r < -9_223_372_036_854_775_808.0 { return .min }
        return Int64(r)
    }

    /// `math` namespace (docs/reference/security-rules.md §4.13; return types as the emulator answers them).
    static let mathEntries: [Builtin] = [
        Builtin("math.abs", ["math.abs(int) -> int", "math.abs(float) -> float"], arity: 1...1, doc: "Absolute value, same type.") {
            c throws(RulesEvalError) in
            switch c.args[0] {
            case .int(let i):
                guard i != .min else { throw c.fail(RulesMessages.overflow) }
                return .int(abs(i))
            case .float(let d): return .float(abs(d))
            default: throw c.unsupported()
            }
        },
        mathRoundingToFloat("ceil", "Smallest integral float not below the input.", .up),
        mathRoundingToFloat("floor", "Largest integral float not above the input.", .down),
        Builtin("math.round", ["math.round(float) -> int"], arity: 1...1, doc: "Nearest int, halves toward +∞ (Java Math.round).") {
            c throws(RulesEvalError) in
            if case .int(let i) = c.args[0] { return .int(i) }
            return .int(javaRound(try c.number(0)))
        },
        Builtin("math.sqrt", ["math.sqrt(float) -> float"], arity: 1...1, doc: "Square root (NaN for negatives).") {
            c throws(RulesEvalError) in
            .float(try c.number(0).squareRoot())
        },
        Builtin("math.pow", ["math.pow(float, float) -> float"], arity: 2...2, doc: "Base raised to the exponent.") {
            c throws(RulesEvalError) in
            .float(pow(try c.number(0), try c.number(1)))
        },
        // No `math.isInfinite`: documented, but the emulator answers Function not found (corpus misc.c07).
        Builtin("math.isNaN", ["math.isNaN(float) -> bool"], arity: 1...1, doc: "True for NaN.") { c throws(RulesEvalError) in
            .bool(try c.number(0).isNaN)
        },
    ]

    /// The bytes a hash function hashes: strings as UTF-8.
    static func hashInput(_ c: Builtin.Call) throws(RulesEvalError) -> [UInt8] {
        switch c.args[0] {
        case .string(let s): return Array(s.utf8)
        case .bytes(let b): return b
        default: throw c.unsupported()
        }
    }

    /// A `hashing.*` function over strings or bytes.
    static func hashFunction(_ name: String, _ doc: String, _ f: @escaping @Sendable ([UInt8]) -> [UInt8]) -> Builtin {
        Builtin("hashing.\(name)", ["hashing.\(name)(string) -> bytes", "hashing.\(name)(bytes) -> bytes"], arity: 1...1, doc: doc) {
            c throws(RulesEvalError) in
            let input = try hashInput(c)
            try c.charge(input.count / 64 + 1)
            return .bytes(f(input))
        }
    }

    /// `hashing` namespace (docs/reference/security-rules.md §4.13).
    static let hashingEntries: [Builtin] = [
        hashFunction("md5", "MD5 digest (strings hashed as UTF-8).", Hashing.md5),
        hashFunction("sha256", "SHA-256 digest (strings hashed as UTF-8).", Hashing.sha256),
        hashFunction("crc32", "CRC-32, little-endian bytes.", Hashing.crc32),
        hashFunction("crc32c", "CRC-32C, little-endian bytes.", Hashing.crc32c),
    ]

    /// `path` methods (docs/reference/security-rules.md §4.9).
    static let pathEntries: [Builtin] = [
        Builtin("bind", on: .path, ["path.bind(map) -> path"], arity: 1...1, doc: "Fills {name} placeholders from the map's string values.")
        {
            c throws(RulesEvalError) in
            guard case .path(let p) = c.receiver, case .map(let m) = c.args[0] else { throw c.unsupported() }
            var bindings = p.bindings
            var segments: [String] = []
            for s in p.segments {
                if s.hasPrefix("{"), s.hasSuffix("}"), s.count > 2 {
                    let name = String(s.dropFirst().dropLast())
                    switch m.entries[name] {
                    case .string(let v)?:
                        segments.append(v)
                        bindings[name] = v
                    case .int(let i)?:
                        segments.append(String(i))
                        bindings[name] = String(i)
                    case nil: segments.append(s)
                    case let other?:
                        throw c.fail(RulesMessages.unsupported("bind \(other.typeName)", expected: ["bind string"]))
                    }
                } else {
                    segments.append(s)
                }
            }
            return .path(RulesPath(segments, bindings: bindings))
        }
    ]

    /// Global functions (docs/reference/security-rules.md §4.2, §4.13, §6).
    static let globalEntries: [Builtin] = [
        Builtin(
            "int", ["int(int) -> int", "int(float) -> int", "int(string) -> int"], arity: 1...1,
            doc: "Converts to int; floats truncate toward zero."
        ) {
            c throws(RulesEvalError) in
            switch c.args[0] {
            case .int(let i): return .int(i)
            case .float(let d):
                guard d.isFinite, d >= -9_223_372_036_854_775_808.0, d < 9_223_372_036_854_775_808.0 else {
                    throw c.fail("Cannot convert \(RulesFormat.double(d)) to int.")
                }
                return .int(Int64(d.rounded(.towardZero)))
            case .string(let s):
                guard let i = Int64(s.trimmingASCII(" ")) else {
                    throw c.fail("Cannot convert '\(s)' to int.")
                }
                return .int(i)
            default: throw c.unsupported()
            }
        },
        Builtin(
            "float", ["float(int) -> float", "float(float) -> float", "float(string) -> float"], arity: 1...1, doc: "Converts to float."
        ) {
            c throws(RulesEvalError) in
            switch c.args[0] {
            case .int(let i): return .float(Double(i))
            case .float(let d): return .float(d)
            case .string(let s):
                guard let d = Double(s) else { throw c.fail("Cannot convert '\(s)' to float.") }
                return .float(d)
            default: throw c.unsupported()
            }
        },
        Builtin(
            "string",
            [
                "string(int) -> string", "string(float) -> string", "string(null) -> string", "string(string) -> string",
                "string(bool) -> string", "string(path) -> string",
            ],
            arity: 1...1, doc: "Text form: true, 1, 2.0, null."
        ) { c throws(RulesEvalError) in
            guard let text = stringForm(c.args[0]) else { throw c.unsupported() }
            return .string(text)
        },
        Builtin("path", ["path(string) -> path"], arity: 1...1, doc: "Path from a string; leading '/' optional.") {
            c throws(RulesEvalError) in
            guard case .string(let s) = c.args[0] else { throw c.unsupported() }
            return .path(RulesPath(parsing: s))
        },
        Builtin("debug", ["debug(any) -> any"], arity: 1...1, doc: "Returns its argument and logs it with its kind.") { c in
            c.evaluation.debugLog.append("\(c.args[0].typeName)_value: \(c.args[0].literalText)")
            return c.args[0]
        },
        documentAccess("get", after: false, exists: false, "The stored document as {data, id, __name__}; error when missing."),
        documentAccess("exists", after: false, exists: true, "True when the document is stored."),
        documentAccess("getAfter", after: true, exists: false, "The document as it would be after the commit; error when absent."),
        documentAccess("existsAfter", after: true, exists: true, "True when the document exists after the commit."),
    ]

    /// `get`, `exists`, `getAfter`, `existsAfter` (docs/reference/security-rules.md §6).
    static func documentAccess(_ name: String, after: Bool, exists: Bool, _ doc: String) -> Builtin {
        Builtin(name, ["\(name)(path) -> \(exists ? "bool" : "map")"], arity: 1...1, doc: doc) { c throws(RulesEvalError) in
            guard case .path(let p) = c.args[0] else { throw c.unsupported() }
            let db = c.evaluation.database
            let s = p.segments
            guard !p.hasPlaceholder, s.count >= 5, s.count % 2 == 1, s[0] == "databases", s[2] == "documents", !s.contains(where: \.isEmpty)
            else {
                throw c.fail("Invalid document path for \(name)(): \(p). Expected /databases/{database}/documents/{collection}/{document}.")
            }
            guard s[1] == db.database else { throw c.fail("\(name)() across databases is not supported: \(p).") }
            let path = ResourcePath(Array(s[3...]))
            let doc = try c.evaluation.read(path, after: after, function: name, at: c.position)
            if exists { return .bool(doc != nil) }
            guard let d = doc else { throw c.fail(RulesMessages.serviceCall(name, p)) }
            return RulesValue.resource(d, database: db)
        }
    }
}
