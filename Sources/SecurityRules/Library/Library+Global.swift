import FirestoreModel
import Foundation

/// Namespaces `math` and `hashing`, path methods, and the global functions `int`, `float`,
/// `string`, `path`, `debug`, `get`, `exists`, `getAfter`, `existsAfter` (reference §4.2,
/// §4.9, §4.13, §6). `bool()` is deliberately absent (production answers Function not found).
extension Library {
    /// A `math.*` rounding function: ints pass through, floats round to an int.
    static func mathFunction(_ name: String, _ doc: String, _ f: @escaping @Sendable (Double) -> Double?) -> Builtin {
        Builtin("math.\(name)", ["math.\(name)(number) -> int"], arity: 1...1, doc: doc) { c throws(RulesEvalError) in
            if case .int(let i) = c.args[0] { return .int(i) }
            let d = try c.number(0)
            guard let r = f(d), r.isFinite, r >= -9_223_372_036_854_775_808.0, r < 9_223_372_036_854_775_808.0 else {
                throw c.fail("Cannot convert \(RulesFormat.double(d)) to int.")
            }
            return .int(Int64(r))
        }
    }

    /// `math` namespace (reference §4.13).
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
        mathFunction("ceil", "Smallest int not below the input.") { $0.rounded(.up) },
        mathFunction("floor", "Largest int not above the input.") { $0.rounded(.down) },
        mathFunction("round", "Nearest int, halves away from zero.") { $0.rounded(.toNearestOrAwayFromZero) },
        Builtin("math.sqrt", ["math.sqrt(number) -> float"], arity: 1...1, doc: "Square root (NaN for negatives).") {
            c throws(RulesEvalError) in
            .float(try c.number(0).squareRoot())
        },
        Builtin("math.pow", ["math.pow(number, number) -> float"], arity: 2...2, doc: "Base raised to the exponent.") {
            c throws(RulesEvalError) in
            .float(pow(try c.number(0), try c.number(1)))
        },
        Builtin("math.isNaN", ["math.isNaN(number) -> bool"], arity: 1...1, doc: "True for NaN.") { c throws(RulesEvalError) in
            .bool(try c.number(0).isNaN)
        },
        Builtin(
            "math.isInfinite", ["math.isInfinite(number) -> bool"], arity: 1...1,
            doc: "True for ±Infinity (documented; production lacks it)."
        ) {
            c throws(RulesEvalError) in
            .bool(try c.number(0).isInfinite)
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

    /// `hashing` namespace (reference §4.13).
    static let hashingEntries: [Builtin] = [
        hashFunction("md5", "MD5 digest (strings hashed as UTF-8).", Hashing.md5),
        hashFunction("sha256", "SHA-256 digest (strings hashed as UTF-8).", Hashing.sha256),
        hashFunction("crc32", "CRC-32, little-endian bytes.", Hashing.crc32),
        hashFunction("crc32c", "CRC-32C, little-endian bytes.", Hashing.crc32c),
    ]

    /// `path` methods (reference §4.9).
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

    /// Global functions (reference §4.2, §4.13, §6).
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
                guard let i = Int64(s.trimmingCharacters(in: .init(charactersIn: " "))) else {
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
                "string(bool) -> string", "string(int) -> string", "string(float) -> string", "string(null) -> string",
                "string(string) -> string", "string(path) -> string",
            ],
            arity: 1...1, doc: "Text form: true, 1, 2.0, null."
        ) { c throws(RulesEvalError) in
            switch c.args[0] {
            case .bool(let b): return .string(b ? "true" : "false")
            case .int(let i): return .string(String(i))
            case .float(let d): return .string(RulesFormat.double(d))
            case .null: return .string("null")
            case .string(let s): return .string(s)
            case .path(let p): return .string(p.description)
            default: throw c.unsupported()
            }
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

    /// `get`, `exists`, `getAfter`, `existsAfter` (reference §6).
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
