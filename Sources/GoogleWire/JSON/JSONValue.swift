import FirestoreModel

/// A JSON document as RFC 8259 defines it, keeping what proto3 JSON needs exactly.
///
/// Numbers keep their source text (`.number("9223372036854775807")`) so int64 values and
/// doubles are never rounded through an intermediate type; objects keep their members in
/// order (duplicates included — decoders reject them). Build output with the same type and
/// write it with `serialized()`. Parse with `JSONValue.parse(_:)`.
/// Source: RFC 8259; docs/reference/firestore-wire.md §1.7 (proto3 JSON mapping).
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` / `false`.
    case bool(Bool)
    /// A number, as its RFC 8259 text (`-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`).
    /// Writers must only put valid number text here.
    case number(String)
    /// A string (already unescaped).
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object: members in source (or construction) order.
    case object([Member])
    /// JSON text already serialized (compact, valid), written as it is: the encoders' fast
    /// path for large answers (a document streamed straight to bytes). The parser never
    /// produces it; it equals the tree it serializes like.
    case fragment([UInt8])

    /// One `"key": value` member of an object.
    public struct Member: Sendable, Hashable {
        /// The member name (unescaped).
        public var key: String
        /// The member value.
        public var value: JSONValue

        /// Creates a member.
        public init(_ key: String, _ value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// An object built from `(key, value)` pairs, in the given order.
    public static func object(_ pairs: KeyValuePairs<String, JSONValue>) -> JSONValue {
        .object(pairs.map { Member($0.key, $0.value) })
    }

    /// An integer number.
    public static func integer<T: BinaryInteger>(_ n: T) -> JSONValue { .number(String(n)) }

    /// The value of the first member named `key`, when `self` is an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The JSON type name used in error messages (`"object"`, `"array"`, `"string"`, …).
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        case .fragment: return "JSON text"
        }
    }

    /// Structural equality; a fragment equals any value with the same serialization.
    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.number(let x), .number(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.object(let x), .object(let y)): return x == y
        case (.fragment, _), (_, .fragment): return a.serialized() == b.serialized()
        default: return false
        }
    }

    /// Hashes the serialization, so that a fragment and its tree hash alike.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(serialized())
    }
}
