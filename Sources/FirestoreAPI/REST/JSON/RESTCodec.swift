import FirestoreModel
import GoogleWire

/// The proto3 JSON adapter between Firestore REST v1 bodies and the domain model.
///
/// Pure functions, no I/O: `decode…` turn a parsed `JSONValue` into model types and throw
/// `FirestoreError(.invalidArgument, …)` naming the offending field path for anything
/// malformed; `encode…` build the exact JSON the emulator emits. Both lowerCamelCase and
/// snake_case member names are accepted; unknown members are rejected, as the emulator does.
/// Each decoder takes `at path:` — the location of its input in the request body
/// (e.g. `"writes[2]"`) — used only in error messages.
/// Source: docs/reference/firestore-wire.md §1.1 (conventions), §1.7 (value mapping); googleapis `google/firestore/v1/*.proto`.
public enum RESTCodec {}

/// Reads the members of one JSON object as fields of a proto message.
///
/// Keys are folded to lowerCamelCase (`update_mask` → `updateMask`); the same field given
/// twice (in either spelling) is rejected. `take` consumes a field; `finish` rejects the rest.
struct JSONObjectReader {
    private var members: [String: JSONValue] = [:]
    /// Where the object sits in the request, for error messages.
    let path: String

    /// Wraps `json`, which must be an object.
    /// - Throws: `.invalidArgument` when `json` is not an object or repeats a field.
    init(_ json: JSONValue, at path: String) throws(FirestoreError) {
        self.path = path
        guard case .object(let list) = json else {
            throw .invalidArgument("Invalid value at '\(path)': expected a JSON object, got \(json.typeName).")
        }
        for m in list {
            let key = ProtoJSON.lowerCamelCase(m.key)
            if members[key] != nil {
                throw .invalidArgument("Invalid JSON payload received. Field \"\(key)\" at '\(path)' is given more than once.")
            }
            members[key] = m.value
        }
    }

    /// Removes and returns the field `name` (lowerCamelCase), JSON `null` included.
    mutating func takeRaw(_ name: String) -> JSONValue? { members.removeValue(forKey: name) }

    /// Removes and returns the field `name`; absent and JSON `null` both give nil
    /// (proto3 JSON: `null` means the default value).
    mutating func take(_ name: String) -> JSONValue? {
        guard let v = members.removeValue(forKey: name) else { return nil }
        if case .null = v { return nil }
        return v
    }

    /// `path.name`, the location of a field for error messages.
    func child(_ name: String) -> String { path.isEmpty ? name : path + "." + name }

    /// Rejects any field not taken.
    /// - Throws: `.invalidArgument` naming the first unknown field (UTF-8 order).
    func finish() throws(FirestoreError) {
        if let unknown = members.keys.min(by: utf8Less) {
            throw .invalidArgument("Invalid JSON payload received. Unknown name \"\(unknown)\" at '\(path)': Cannot find field.")
        }
    }
}

extension RESTCodec {
    /// `INVALID_ARGUMENT` for a field holding a value of the wrong shape.
    static func invalid(_ path: String, _ detail: String) -> FirestoreError {
        .invalidArgument("Invalid value at '\(path)': \(detail)")
    }

    /// The elements of a JSON array.
    /// - Throws: `.invalidArgument` when `json` is not an array.
    static func array(_ json: JSONValue, at path: String) throws(FirestoreError) -> [JSONValue] {
        guard case .array(let a) = json else { throw invalid(path, "expected a JSON array, got \(json.typeName).") }
        return a
    }

    /// A JSON string.
    /// - Throws: `.invalidArgument` when `json` is not a string.
    static func string(_ json: JSONValue, at path: String) throws(FirestoreError) -> String {
        guard case .string(let s) = json else { throw invalid(path, "expected a string, got \(json.typeName).") }
        return s
    }

    /// A JSON boolean.
    /// - Throws: `.invalidArgument` when `json` is not `true`/`false`.
    static func bool(_ json: JSONValue, at path: String) throws(FirestoreError) -> Bool {
        guard case .bool(let b) = json else { throw invalid(path, "expected true or false, got \(json.typeName).") }
        return b
    }

    /// A proto enum given by name or by number.
    /// - Parameter cases: `(name, number, value)` for every accepted case.
    /// - Throws: `.invalidArgument` for any other name or number.
    static func enumValue<T>(_ json: JSONValue, at path: String, _ cases: [(String, Int64, T)]) throws(FirestoreError) -> T {
        switch json {
        case .string(let s):
            if let c = cases.first(where: { $0.0 == s }) { return c.2 }
        case .number(let text):
            if let n = exactInt64(text), let c = cases.first(where: { $0.1 == n }) { return c.2 }
        default: break
        }
        let names = cases.map(\.0).joined(separator: ", ")
        throw invalid(path, "expected one of \(names); got \(json.serializedString).")
    }
}
