import GoogleWire

/// Reading Firestore REST v1 documents and plain JSON in `hearth demo`: the few value shapes
/// the report prints (`stringValue`, `integerValue`, `doubleValue`, `booleanValue`,
/// `nullValue`, `timestampValue`). Source: Firestore REST v1 `Value` (docs/reference/firestore-wire.md §1.7).
enum DemoFields {
    /// A plain JSON string.
    static func string(_ json: JSONValue?) -> String? {
        if case .string(let s)? = json { return s }
        return nil
    }

    /// A plain JSON number as a `Double`.
    static func number(_ json: JSONValue?) -> Double? {
        if case .number(let text)? = json { return Double(text) }
        return nil
    }

    /// The elements of a plain JSON array (empty otherwise).
    static func array(_ json: JSONValue?) -> [JSONValue] {
        if case .array(let elements)? = json { return elements }
        return []
    }

    /// What a Firestore field holds, for the report.
    enum Field: Equatable {
        /// The document has no such field.
        case missing
        /// `nullValue`.
        case null
        /// `stringValue`.
        case string(String)
        /// `integerValue` or `doubleValue`.
        case number(Double)
        /// `booleanValue`.
        case bool(Bool)
        /// `timestampValue` (RFC 3339 text).
        case timestamp(String)
        /// Any other value type.
        case other
    }

    /// Field `name` of a REST `Document` JSON object.
    static func field(_ name: String, of document: JSONValue?) -> Field {
        guard let value = document?["fields"]?[name] else { return .missing }
        if value["nullValue"] != nil { return .null }
        if let s = string(value["stringValue"]) { return .string(s) }
        if let s = string(value["integerValue"]), let n = Double(s) { return .number(n) }
        if let n = number(value["integerValue"]) ?? number(value["doubleValue"]) { return .number(n) }
        if case .bool(let b)? = value["booleanValue"] { return .bool(b) }
        if let t = string(value["timestampValue"]) { return .timestamp(t) }
        return .other
    }

    /// Field `name` when it is a string.
    static func stringField(_ name: String, of document: JSONValue?) -> String? {
        if case .string(let s) = field(name, of: document) { return s }
        return nil
    }

    /// Field `name` when it is a number.
    static func numberField(_ name: String, of document: JSONValue?) -> Double? {
        if case .number(let n) = field(name, of: document) { return n }
        return nil
    }

    /// A REST value for a double, written so Firestore stores a `doubleValue`.
    static func double(_ d: Double) -> JSONValue { .object(["doubleValue": .number(jsonNumber(d))]) }

    /// A REST `stringValue`.
    static func string(_ s: String) -> JSONValue { .object(["stringValue": .string(s)]) }

    /// A finite double as RFC 8259 number text (Swift's shortest round-trip form, which is
    /// valid JSON for finite values: `52.52133`, `1e-05`).
    /// - Precondition: `d` is finite (coordinates always are).
    static func jsonNumber(_ d: Double) -> String {
        precondition(d.isFinite, "JSON has no non-finite numbers")
        return "\(d)"
    }
}
