import GoogleWire

/// A request body as the Auth emulator reads it: JSON object members (or form fields) by
/// lowerCamelCase name, with the emulator's tolerance — snake_case names are folded
/// (`id_token` → `idToken`), numbers may come as strings and booleans as `"true"`/`"false"`.
/// JS-style truthiness is explicit: `nonEmptyString` treats `""` as absent, as the emulator's
/// `assert(reqBody.email, …)` does. Source: docs/reference/firestore-wire.md §4.1 (body keys).
public struct AuthRequestBody: Sendable {
    private var members: [String: JSONValue]

    /// An empty body.
    public init() { members = [:] }

    /// Wraps a JSON object; a later duplicate name wins.
    /// - Throws: `AuthError.invalidArgument` when `json` is not an object.
    public init(json: JSONValue) throws(AuthError) {
        guard case .object(let list) = json else {
            throw .invalidArgument("Invalid JSON payload received. Expected an object, got \(json.typeName).")
        }
        members = [:]
        for m in list { members[Self.lowerCamelCase(m.key)] = m.value }
    }

    /// Form fields (`a=1&b=2`) as string members; the first occurrence of a name wins.
    public init(form: [(name: String, value: String)]) {
        members = [:]
        for (name, value) in form where members[Self.lowerCamelCase(name)] == nil {
            members[Self.lowerCamelCase(name)] = .string(value)
        }
    }

    /// Parses a body: empty → `{}`; form-urlencoded when `contentType` says so (or when the
    /// text is not JSON but looks like `k=v` pairs); else JSON.
    /// - Throws: `AuthError.invalidArgument` ("Invalid JSON payload received. …") for bad JSON.
    public static func parse(_ bytes: [UInt8], contentType: String?) throws(AuthError) -> AuthRequestBody {
        let isForm = contentType?.lowercased().contains("application/x-www-form-urlencoded") ?? false
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return AuthRequestBody() }
        if isForm { return AuthRequestBody(form: FormURLEncoding.decode(String(decoding: bytes, as: UTF8.self))) }
        let json: JSONValue
        do {
            json = try JSONValue.parse(bytes)
        } catch {
            let text = String(decoding: bytes, as: UTF8.self)
            if !text.hasPrefix("{") && text.contains("=") { return AuthRequestBody(form: FormURLEncoding.decode(text)) }
            throw .invalidArgument("Invalid JSON payload received. \(error.message)")
        }
        return try AuthRequestBody(json: json)
    }

    /// The raw member (JSON `null` counts as absent).
    public subscript(_ name: String) -> JSONValue? {
        guard let v = members[name] else { return nil }
        if case .null = v { return nil }
        return v
    }

    /// True when the member is present and not `null`.
    public func has(_ name: String) -> Bool { self[name] != nil }

    /// A string member; numbers give their text. Nil for other types.
    public func string(_ name: String) -> String? {
        switch self[name] {
        case .string(let s)?: return s
        case .number(let t)?: return t
        default: return nil
        }
    }

    /// A string member that is not empty (JS truthiness).
    public func nonEmptyString(_ name: String) -> String? {
        guard let s = string(name), !s.isEmpty else { return nil }
        return s
    }

    /// A boolean member; `"true"`/`"false"` strings accepted.
    public func bool(_ name: String) -> Bool? {
        switch self[name] {
        case .bool(let b)?: return b
        case .string("true")?: return true
        case .string("false")?: return false
        default: return nil
        }
    }

    /// An integer member given as a number or a decimal string.
    /// - Throws: `AuthError.invalidArgument` for a non-integer.
    public func int64(_ name: String) throws(AuthError) -> Int64? {
        guard let v = self[name] else { return nil }
        switch v {
        case .number(let t), .string(let t):
            if let n = Int64(t) { return n }
            if let d = Double(t), d.rounded() == d, abs(d) < 9.2e18 { return Int64(d) }
        default: break
        }
        throw .invalidArgument(
            "Invalid JSON payload received. Invalid value at '\(name)' (TYPE_INT64), \(v.serializedString)")
    }

    /// A list of strings; a single string counts as a one-element list.
    public func stringList(_ name: String) -> [String] {
        switch self[name] {
        case .array(let a)?:
            return a.compactMap {
                if case .string(let s) = $0 { return s }
                return nil
            }
        case .string(let s)?: return [s]
        default: return []
        }
    }

    /// A nested object member.
    public func object(_ name: String) -> AuthRequestBody? {
        guard let v = self[name], case .object = v else { return nil }
        return try? AuthRequestBody(json: v)
    }

    /// A list of nested objects (non-objects skipped).
    public func objectList(_ name: String) -> [AuthRequestBody] {
        guard case .array(let a)? = self[name] else { return [] }
        return a.compactMap { try? AuthRequestBody(json: $0) }
    }

    /// `snake_case` → `lowerCamelCase`; names without `_`, or starting with one, are unchanged.
    static func lowerCamelCase(_ name: String) -> String {
        name.hasPrefix("_") ? name : ProtoJSON.lowerCamelCase(name)
    }
}
