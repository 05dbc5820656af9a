import FirestoreModel
import GoogleWire
import FoundationEssentials

/// Query-string parameters of a REST call (`mask.fieldPaths=a&mask.fieldPaths=b`).
struct QueryParameters {
    let items: [(name: String, value: String)]

    init(_ items: [(name: String, value: String)]) { self.items = items }

    /// Every value of `name`, in order.
    func all(_ name: String) -> [String] { items.filter { $0.name == name }.map(\.value) }
    /// The last value of `name`.
    subscript(_ name: String) -> String? { items.last { $0.name == name }?.value }

    /// A boolean parameter (`true`/`false`/`1`/`0`).
    /// - Throws: `.invalidArgument` for other text.
    func bool(_ name: String) throws(FirestoreError) -> Bool? {
        guard let v = self[name] else { return nil }
        switch v.lowercased() {
        case "true", "1": return true
        case "false", "0": return false
        default: throw .invalidArgument("Invalid value at '\(name)' (TYPE_BOOL), \"\(v)\"")
        }
    }

    /// A field mask given as repeated `name` parameters, or nil when absent.
    func mask(_ name: String) throws(FirestoreError) -> [FieldPath]? {
        let paths = all(name)
        guard !paths.isEmpty else { return nil }
        return try paths.map { (p: String) throws(FirestoreError) -> FieldPath in try RESTCodec.decodeFieldPath(p, at: name) }
    }

    /// The read consistency from `transaction` (base64) or `readTime` (RFC 3339).
    /// - Throws: `.invalidArgument` when both are given (one `consistency_selector` oneof),
    ///   with the text the JSON-body methods answer, or for a malformed value.
    func consistency() throws(FirestoreError) -> ReadConsistency {
        if self["transaction"] != nil && self["readTime"] != nil {
            throw .invalidArgument("Only one of transaction, newTransaction and readTime may be set.")
        }
        if let t = self["transaction"] {
            guard let bytes = Base64.decode(t) else { throw .invalidArgument("Invalid value at 'transaction' (TYPE_BYTES).") }
            return .transaction(bytes)
        }
        if let r = self["readTime"] {
            guard let ts = Timestamp(rfc3339: r) else { throw .invalidArgument("Invalid value at 'read_time' (type.googleapis.com/google.protobuf.Timestamp), \"\(r)\"") }
            return .readTime(ts)
        }
        return .strong
    }

    /// The precondition from `currentDocument.exists` / `currentDocument.updateTime`.
    func precondition() throws(FirestoreError) -> Precondition {
        if let e = try bool("currentDocument.exists") { return .exists(e) }
        if let u = self["currentDocument.updateTime"] {
            guard let ts = Timestamp(rfc3339: u) else { throw .invalidArgument("Invalid value at 'current_document.update_time', \"\(u)\"") }
            return .updateTime(ts)
        }
        return .none
    }
}
