/// A JSON value as callable functions exchange it: the `data` of a request and the `result`
/// of a response.
///
/// JSON has one number type; `int` keeps integers exact (plain JSON integers and the
/// `google.protobuf.Int64Value`/`UInt64Value` wrappers iOS sends), `double` holds every number
/// written with a fraction or exponent. Use `numberValue` to accept either. Doubles are finite
/// in decoded values; a non-finite double in a result fails the call with INTERNAL, as
/// firebase-functions' encoder does. Source: docs/reference/firestore-wire.md §3.3.
public indirect enum CallableValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// An integer; exact across the whole Int64 range.
    case int(Int64)
    /// A number with a fraction or exponent.
    case double(Double)
    case string(String)
    case array([CallableValue])
    /// A JSON object; key order is not kept.
    case object([String: CallableValue])
}

extension CallableValue {
    /// The string, when this is `.string`.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The number as a `Double`, when this is `.int` or `.double` (booleans are not numbers).
    public var numberValue: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }

    /// The members, when this is `.object`.
    public var objectValue: [String: CallableValue]? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// The member `key` of an object; nil for a missing key or a non-object.
    public subscript(key: String) -> CallableValue? {
        objectValue?[key]
    }

    /// The JSON type name used in error messages (`"string"`, `"number"`, `"object"`, …).
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .int, .double: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}

extension CallableValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByNilLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    /// `.string(value)`.
    public init(stringLiteral value: String) { self = .string(value) }
    /// `.int(value)`.
    public init(integerLiteral value: Int64) { self = .int(value) }
    /// `.double(value)`.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// `.bool(value)`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// `.null`.
    public init(nilLiteral: ()) { self = .null }
    /// `.array(elements)`.
    public init(arrayLiteral elements: CallableValue...) { self = .array(elements) }
    /// `.object` of the pairs; a repeated key keeps the last value.
    public init(dictionaryLiteral elements: (String, CallableValue)...) {
        var members: [String: CallableValue] = [:]
        for (k, v) in elements { members[k] = v }
        self = .object(members)
    }
}
