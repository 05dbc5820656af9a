import FirestoreModel

/// A value to write through the Admin client: a plain Firestore value, a map that may hold
/// sentinels, or a sentinel (`FieldValue.serverTimestamp()` and friends in the Admin SDKs).
///
/// Sentinels become `FieldTransform`s (or mask-only deletes) of the write; they never reach
/// the stored fields themselves. Source: docs/reference/firestore-wire.md §1.4 (transforms), Admin SDK `FieldValue`.
public indirect enum FieldValue: Sendable, Hashable {
    /// A plain value.
    case value(Value)
    /// A map whose members may be sentinels.
    case map([String: FieldValue])
    /// `setToServerValue: REQUEST_TIME`: the commit time.
    case serverTimestamp
    /// `increment`: numeric add (operand must be a number).
    case increment(Value)
    /// `maximum`: numeric max.
    case maximum(Value)
    /// `minimum`: numeric min.
    case minimum(Value)
    /// `appendMissingElements` (`arrayUnion`).
    case arrayUnion([Value])
    /// `removeAllFromArray` (`arrayRemove`).
    case arrayRemove([Value])
    /// Removes the field; only in `update` and in `set(…, merge: true)`.
    case delete

    /// `.value(.string(s))`.
    public static func string(_ s: String) -> FieldValue { .value(.string(s)) }
    /// `.value(.integer(i))`.
    public static func integer(_ i: Int64) -> FieldValue { .value(.integer(i)) }
    /// `.value(.double(d))`.
    public static func double(_ d: Double) -> FieldValue { .value(.double(d)) }
    /// `.value(.boolean(b))`.
    public static func bool(_ b: Bool) -> FieldValue { .value(.boolean(b)) }
    /// `.value(.timestamp(t))`.
    public static func timestamp(_ t: Timestamp) -> FieldValue { .value(.timestamp(t)) }
    /// `.value(.null)`.
    public static let null = FieldValue.value(.null)
    /// A string, or null when `s` is nil.
    public static func optionalString(_ s: String?) -> FieldValue { s.map { .value(.string($0)) } ?? .null }

    /// The transform this sentinel stands for at `path`, nil for non-transform cases.
    func transform(at path: FieldPath) -> FieldTransform? {
        switch self {
        case .serverTimestamp: return FieldTransform(fieldPath: path, operation: .serverTimestamp)
        case .increment(let v): return FieldTransform(fieldPath: path, operation: .increment(v))
        case .maximum(let v): return FieldTransform(fieldPath: path, operation: .maximum(v))
        case .minimum(let v): return FieldTransform(fieldPath: path, operation: .minimum(v))
        case .arrayUnion(let a): return FieldTransform(fieldPath: path, operation: .appendMissingElements(a))
        case .arrayRemove(let a): return FieldTransform(fieldPath: path, operation: .removeAllFromArray(a))
        case .value, .map, .delete: return nil
        }
    }
}

extension FieldValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByNilLiteral, ExpressibleByDictionaryLiteral
{
    /// A string value.
    public init(stringLiteral value: String) { self = .value(.string(value)) }
    /// An integer value.
    public init(integerLiteral value: Int64) { self = .value(.integer(value)) }
    /// A double value.
    public init(floatLiteral value: Double) { self = .value(.double(value)) }
    /// A boolean value.
    public init(booleanLiteral value: Bool) { self = .value(.boolean(value)) }
    /// Null.
    public init(nilLiteral: ()) { self = .value(.null) }
    /// A map (members may be sentinels); a repeated key keeps the last value.
    public init(dictionaryLiteral elements: (String, FieldValue)...) {
        var m: [String: FieldValue] = [:]
        for (k, v) in elements { m[k] = v }
        self = .map(m)
    }
}
