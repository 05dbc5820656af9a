import FirestoreModel

/// The `firestore.indexes.json` format of `firebase deploy` and `firebase firestore:indexes`:
/// decoding into an `IndexConfiguration` with diagnostics that name the line, and encoding back.
///
/// Accepted as firebase-tools accepts it (its `upgradeOldSpec` then `validateSpec`):
/// `indexes` and `fieldOverrides` are optional arrays; an index needs `collectionGroup` and
/// `fields`, `queryScope` defaults to `COLLECTION`; each field has `fieldPath` and exactly one
/// of `order`, `arrayConfig`, `vectorConfig` (or the v1beta1 `mode`); an override needs
/// `collectionGroup`, `fieldPath` and `indexes` (each with exactly one of `order`,
/// `arrayConfig`, optional `queryScope`), `ttl` is optional. Unknown members are ignored, as
/// firebase-tools ignores them; a repeated member is an error (firebase-tools would silently
/// keep the last). Indexes with a `vectorConfig` field are checked and then left out: Hearth
/// runs no vector search. Source: docs/reference/indexes.md §6.
public enum IndexesFile {
    /// The name diagnostics show by default.
    public static let defaultFileName = "firestore.indexes.json"

    /// Decodes a whole `firestore.indexes.json`.
    /// - Parameters:
    ///   - bytes: the file's UTF-8 bytes.
    ///   - fileName: the name diagnostics start with.
    /// - Complexity: O(bytes.count).
    /// - Throws: `IndexesFileError` at the first problem: malformed JSON, a member of the
    ///   wrong type, a missing required member, a value outside its enum, an unparsable field
    ///   path or collection id, an empty `fields`, a repeated member.
    public static func decode(_ bytes: [UInt8], fileName: String = defaultFileName) throws(IndexesFileError)
        -> IndexConfiguration
    {
        let bytes = JSONValue.blankingComments(bytes)
        let lines = JSONSourceLines(bytes)
        let root: JSONLocatedValue
        do {
            root = try JSONValue.parseLocated(bytes)
        } catch {
            let (line, column) = lines.position(ofByte: error.offset)
            throw IndexesFileError(fileName: fileName, line: line, column: column, message: "invalid JSON: \(error.reason)")
        }
        var decoder = Decoder(fileName: fileName, lines: lines)
        return try decoder.configuration(root)
    }

    /// Decodes JSON text held in a `String`. See `decode(_:fileName:)`.
    /// - Throws: `IndexesFileError`.
    public static func decode(_ text: String, fileName: String = defaultFileName) throws(IndexesFileError)
        -> IndexConfiguration
    {
        try decode(Array(text.utf8), fileName: fileName)
    }
}

extension IndexesFile {
    /// The position of the second `CONTAINS` field of `fields`, if any. Production allows at
    /// most one array field per composite index (firebase.google.com/docs/firestore/query-data/index-overview,
    /// composite indexes); Hearth would otherwise keep one entry per combination of the
    /// arrays' elements, a product that grows without bound.
    static func secondArrayField(_ fields: [IndexField]) -> Int? {
        var seen = false
        for (i, f) in fields.enumerated() where f.kind == .arrayContains {
            if seen { return i }
            seen = true
        }
        return nil
    }

    /// Walks the located JSON tree, naming each value by its path.
    struct Decoder {
        let fileName: String
        let lines: JSONSourceLines

        func fail(_ at: JSONLocatedValue, _ message: String) -> IndexesFileError {
            let (line, column) = lines.position(ofByte: at.offset)
            return IndexesFileError(fileName: fileName, line: line, column: column, message: message)
        }

        /// The members of an object, rejecting repeated names.
        func object(_ v: JSONLocatedValue, _ path: String) throws(IndexesFileError) -> [String: JSONLocatedValue] {
            guard case .object = v.value else { throw fail(v, "\(path) must be an object") }
            var out: [String: JSONLocatedValue] = [:]
            for (key, member) in v.members {
                if out[key] != nil {
                    throw fail(member, "\(path.isEmpty ? "" : path + ".")\(key) is repeated")
                }
                out[key] = member
            }
            return out
        }

        func array(_ v: JSONLocatedValue, _ path: String) throws(IndexesFileError) -> [JSONLocatedValue] {
            guard case .array = v.value else { throw fail(v, "\(path) must be an array") }
            return v.children
        }

        func string(_ v: JSONLocatedValue, _ path: String) throws(IndexesFileError) -> String {
            guard case .string(let s) = v.value, !s.isEmpty else { throw fail(v, "\(path) must be a non-empty string") }
            return s
        }

        func required(_ members: [String: JSONLocatedValue], _ key: String, in v: JSONLocatedValue, _ path: String)
            throws(IndexesFileError) -> JSONLocatedValue
        {
            guard let m = members[key], m.value != .null else { throw fail(v, "\(path) must contain \"\(key)\"") }
            return m
        }

        func collectionGroup(_ v: JSONLocatedValue, _ path: String) throws(IndexesFileError) -> String {
            let s = try string(v, path)
            do {
                try ResourcePath([s]).validateIDs()
            } catch {
                throw fail(v, "\(path): \(error.message)")
            }
            return s
        }

        func fieldPath(_ v: JSONLocatedValue, _ path: String) throws(IndexesFileError) -> FieldPath {
            let s = try string(v, path)
            do {
                return try FieldPath(parsing: s)
            } catch {
                throw fail(v, "\(path): \(error.message)")
            }
        }

        func queryScope(_ v: JSONLocatedValue?, _ path: String) throws(IndexesFileError) -> IndexQueryScope {
            guard let v, v.value != .null else { return .collection }
            guard case .string(let s) = v.value, let scope = IndexQueryScope(rawValue: s) else {
                throw fail(v, "\(path) must be \"COLLECTION\" or \"COLLECTION_GROUP\"")
            }
            return scope
        }

        func order(_ v: JSONLocatedValue, _ path: String) throws(IndexesFileError) -> IndexField.Kind {
            switch v.value {
            case .string("ASCENDING"): return .ascending
            case .string("DESCENDING"): return .descending
            default: throw fail(v, "\(path) must be \"ASCENDING\" or \"DESCENDING\"")
            }
        }

        func arrayConfig(_ v: JSONLocatedValue, _ path: String) throws(IndexesFileError) -> IndexField.Kind {
            guard case .string("CONTAINS") = v.value else { throw fail(v, "\(path) must be \"CONTAINS\"") }
            return .arrayContains
        }

        /// The one present member of `keys` (present = not null), or an error naming them.
        func exactlyOne(_ members: [String: JSONLocatedValue], _ keys: [String], in v: JSONLocatedValue, _ path: String)
            throws(IndexesFileError) -> (key: String, value: JSONLocatedValue)
        {
            let present = keys.compactMap { k in members[k].flatMap { $0.value == .null ? nil : (k, $0) } }
            guard present.count == 1 else {
                let names = keys.map { "\"\($0)\"" }.joined(separator: ", ")
                throw fail(present.count > 1 ? present[1].1 : v, "\(path) must contain exactly one of \(names)")
            }
            return (present[0].0, present[0].1)
        }

        /// file = { "indexes": [index], "fieldOverrides": [override] }
        mutating func configuration(_ root: JSONLocatedValue) throws(IndexesFileError) -> IndexConfiguration {
            guard case .object = root.value else { throw fail(root, "the file must hold a JSON object") }
            let members = try object(root, "")
            var config = IndexConfiguration()
            if let list = members["indexes"], list.value != .null {
                for (i, v) in try array(list, "indexes").enumerated() {
                    if let index = try index(v, "indexes[\(i)]") { config.indexes.append(index) }
                }
            }
            if let list = members["fieldOverrides"], list.value != .null {
                for (i, v) in try array(list, "fieldOverrides").enumerated() {
                    config.fieldOverrides.append(try fieldOverride(v, "fieldOverrides[\(i)]"))
                }
            }
            return config
        }

        /// index = { "collectionGroup" (or v1beta1 "collectionId"), "queryScope"?, "fields": [field] }
        /// - Returns: nil for a (valid) vector index, which Hearth leaves out.
        func index(_ v: JSONLocatedValue, _ path: String) throws(IndexesFileError) -> CompositeIndex? {
            let m = try object(v, path)
            let groupKey = m["collectionGroup"] == nil && m["collectionId"] != nil ? "collectionId" : "collectionGroup"
            let group = try collectionGroup(try required(m, groupKey, in: v, path), "\(path).\(groupKey)")
            let scope = try queryScope(m["queryScope"], "\(path).queryScope")
            let fieldList = try array(try required(m, "fields", in: v, path), "\(path).fields")
            guard !fieldList.isEmpty else { throw fail(m["fields"] ?? v, "\(path).fields must not be empty") }
            var fields: [IndexField] = []
            var vector = false
            for (i, f) in fieldList.enumerated() {
                let fp = "\(path).fields[\(i)]"
                let fm = try object(f, fp)
                let field = try fieldPath(try required(fm, "fieldPath", in: f, fp), "\(fp).fieldPath")
                let keys =
                    fm["mode"] != nil && fm["order"] == nil && fm["arrayConfig"] == nil && fm["vectorConfig"] == nil
                    ? ["mode"] : ["order", "arrayConfig", "vectorConfig"]
                let (key, value) = try exactlyOne(fm, keys, in: f, fp)
                switch key {
                case "order": fields.append(IndexField(field, try order(value, "\(fp).order")))
                case "arrayConfig": fields.append(IndexField(field, try arrayConfig(value, "\(fp).arrayConfig")))
                case "mode":
                    if case .string("ARRAY_CONTAINS") = value.value {
                        fields.append(IndexField(field, .arrayContains))
                    } else {
                        guard case .string(let s) = value.value, s == "ASCENDING" || s == "DESCENDING" else {
                            throw fail(value, "\(fp).mode must be \"ASCENDING\", \"DESCENDING\" or \"ARRAY_CONTAINS\"")
                        }
                        fields.append(IndexField(field, s == "ASCENDING" ? .ascending : .descending))
                    }
                default:
                    try vectorConfig(value, "\(fp).vectorConfig")
                    vector = true
                }
                if IndexesFile.secondArrayField(fields) != nil {
                    throw fail(f, "\(fp): an index may have at most one array field (arrayConfig CONTAINS)")
                }
            }
            return vector ? nil : CompositeIndex(collectionGroup: group, queryScope: scope, fields: fields)
        }

        /// vectorConfig = { "dimension": number, "flat": {} }
        func vectorConfig(_ v: JSONLocatedValue, _ path: String) throws(IndexesFileError) {
            let m = try object(v, path)
            guard let d = m["dimension"], case .number = d.value else {
                throw fail(m["dimension"] ?? v, "\(path).dimension must be a number")
            }
            _ = try required(m, "flat", in: v, path)
        }

        /// override = { "collectionGroup", "fieldPath", "ttl"?, "indexes": [{ "order" | "arrayConfig", "queryScope"? }] }
        func fieldOverride(_ v: JSONLocatedValue, _ path: String) throws(IndexesFileError) -> FieldOverride {
            let m = try object(v, path)
            let group = try collectionGroup(try required(m, "collectionGroup", in: v, path), "\(path).collectionGroup")
            let field = try fieldPath(try required(m, "fieldPath", in: v, path), "\(path).fieldPath")
            var ttl = false
            if let t = m["ttl"], t.value != .null {
                guard case .bool(let b) = t.value else { throw fail(t, "\(path).ttl must be true or false") }
                ttl = b
            }
            var settings: [SingleFieldIndexSetting] = []
            for (i, s) in try array(try required(m, "indexes", in: v, path), "\(path).indexes").enumerated() {
                let sp = "\(path).indexes[\(i)]"
                let sm = try object(s, sp)
                let (key, value) = try exactlyOne(sm, ["order", "arrayConfig"], in: s, sp)
                let kind = key == "order" ? try order(value, "\(sp).order") : try arrayConfig(value, "\(sp).arrayConfig")
                let setting = SingleFieldIndexSetting(queryScope: try queryScope(sm["queryScope"], "\(sp).queryScope"), kind: kind)
                if !settings.contains(setting) { settings.append(setting) }
            }
            return FieldOverride(collectionGroup: group, fieldPath: field, indexes: settings, ttl: ttl)
        }
    }
}
