import FirestoreModel

extension IndexesFile {
    /// `configuration` as `firebase firestore:indexes` prints a project's indexes: 2-space
    /// indented JSON ending with a newline, indexes sorted by collection id, scope
    /// (`COLLECTION_GROUP` first) and fields; overrides by collection id, `ttl` (false first),
    /// field path and their settings (each override's settings sorted too). An index's
    /// trailing `__name__` is left out when it has the direction of the field before it, as
    /// firebase-tools' `processIndexes` leaves it out. Strings compare as JavaScript's
    /// `localeCompare` does for ASCII (case-insensitive, lower case first on a tie).
    /// Source: firebase/firebase-tools `src/firestore/api.ts` (`makeIndexSpec`,
    /// `processIndexes`), `src/firestore/api-sort.ts`; docs/reference/indexes.md §6.3.
    public static func encode(_ configuration: IndexConfiguration) -> String {
        let indexes = configuration.indexes.map(listed).sorted(by: indexPrecedes)
        let overrides = configuration.fieldOverrides.map { o -> FieldOverride in
            var o = o
            o.indexes.sort(by: settingPrecedes)
            return o
        }.sorted(by: overridePrecedes)
        let root = JSONValue.object([
            "indexes": .array(indexes.map(json)),
            "fieldOverrides": .array(overrides.map(json)),
        ])
        return root.indentedString() + "\n"
    }

    /// `index` without a trailing `__name__` in the direction of the field before it.
    static func listed(_ index: CompositeIndex) -> CompositeIndex {
        var index = index
        let f = index.fields
        if f.count >= 2, f[f.count - 1].fieldPath.isDocumentKey, f[f.count - 2].kind != .arrayContains,
            f[f.count - 2].kind == f[f.count - 1].kind
        {
            index.fields.removeLast()
        }
        return index
    }

    static func json(_ index: CompositeIndex) -> JSONValue {
        .object([
            "collectionGroup": .string(index.collectionGroup),
            "queryScope": .string(index.queryScope.rawValue),
            "fields": .array(index.fields.map(json)),
        ])
    }

    static func json(_ field: IndexField) -> JSONValue {
        switch field.kind {
        case .ascending, .descending:
            return .object(["fieldPath": .string(field.fieldPath.canonical), "order": .string(field.kind.rawValue)])
        case .arrayContains:
            return .object(["fieldPath": .string(field.fieldPath.canonical), "arrayConfig": .string("CONTAINS")])
        }
    }

    static func json(_ o: FieldOverride) -> JSONValue {
        .object([
            "collectionGroup": .string(o.collectionGroup),
            "fieldPath": .string(o.fieldPath.canonical),
            "ttl": .bool(o.ttl),
            "indexes": .array(
                o.indexes.map { s in
                    switch s.kind {
                    case .ascending, .descending:
                        return .object(["order": .string(s.kind.rawValue), "queryScope": .string(s.queryScope.rawValue)])
                    case .arrayContains:
                        return .object(["arrayConfig": .string("CONTAINS"), "queryScope": .string(s.queryScope.rawValue)])
                    }
                }),
        ])
    }

    /// JavaScript `localeCompare` for ASCII text: case-insensitive, then lower case first,
    /// then by bytes.
    static func localeCompare(_ a: String, _ b: String) -> Int {
        let la = a.lowercased()
        let lb = b.lowercased()
        if la != lb { return la < lb ? -1 : 1 }
        if a == b { return 0 }
        for (x, y) in zip(a.unicodeScalars, b.unicodeScalars) where x != y {
            let xl = x.properties.isLowercase
            let yl = y.properties.isLowercase
            if xl != yl { return xl ? -1 : 1 }
            return x.value < y.value ? -1 : 1
        }
        return a.unicodeScalars.count < b.unicodeScalars.count ? -1 : 1
    }

    static func rank(_ scope: IndexQueryScope) -> Int { scope == .collectionGroup ? 0 : 1 }

    /// `order` rank ASCENDING < DESCENDING < none, then `arrayConfig` CONTAINS < none.
    static func rank(_ kind: IndexField.Kind) -> (Int, Int) {
        switch kind {
        case .ascending: return (0, 1)
        case .descending: return (1, 1)
        case .arrayContains: return (2, 0)
        }
    }

    static func compare(_ a: IndexField, _ b: IndexField) -> Int {
        let c = localeCompare(a.fieldPath.canonical, b.fieldPath.canonical)
        if c != 0 { return c }
        let (ra, rb) = (rank(a.kind), rank(b.kind))
        if ra == rb { return 0 }
        return ra < rb ? -1 : 1
    }

    static func indexPrecedes(_ a: CompositeIndex, _ b: CompositeIndex) -> Bool {
        let c = localeCompare(a.collectionGroup, b.collectionGroup)
        if c != 0 { return c < 0 }
        if a.queryScope != b.queryScope { return rank(a.queryScope) < rank(b.queryScope) }
        for (x, y) in zip(a.fields, b.fields) {
            let c = compare(x, y)
            if c != 0 { return c < 0 }
        }
        return a.fields.count < b.fields.count
    }

    static func settingPrecedes(_ a: SingleFieldIndexSetting, _ b: SingleFieldIndexSetting) -> Bool {
        if a.queryScope != b.queryScope { return rank(a.queryScope) < rank(b.queryScope) }
        return rank(a.kind) < rank(b.kind)
    }

    static func overridePrecedes(_ a: FieldOverride, _ b: FieldOverride) -> Bool {
        let c = localeCompare(a.collectionGroup, b.collectionGroup)
        if c != 0 { return c < 0 }
        if a.ttl != b.ttl { return !a.ttl }
        let f = localeCompare(a.fieldPath.canonical, b.fieldPath.canonical)
        if f != 0 { return f < 0 }
        for (x, y) in zip(a.indexes, b.indexes) where x != y { return settingPrecedes(x, y) }
        return a.indexes.count < b.indexes.count
    }
}

extension JSONValue {
    /// The value as `JSON.stringify(value, null, 2)` writes it: members and elements one per
    /// line, two spaces per level, `"key": value`, empty containers as `[]` / `{}`.
    func indentedString() -> String {
        var out = ""
        writeIndented(into: &out, level: 0)
        return out
    }

    private func writeIndented(into out: inout String, level: Int) {
        let pad = String(repeating: "  ", count: level + 1)
        let close = String(repeating: "  ", count: level)
        switch self {
        case .array(let elements):
            if elements.isEmpty {
                out += "[]"
                return
            }
            out += "[\n"
            for (i, e) in elements.enumerated() {
                out += pad
                e.writeIndented(into: &out, level: level + 1)
                out += i == elements.count - 1 ? "\n" : ",\n"
            }
            out += close + "]"
        case .object(let members):
            if members.isEmpty {
                out += "{}"
                return
            }
            out += "{\n"
            for (i, m) in members.enumerated() {
                out += pad + JSONValue.string(m.key).serializedString + ": "
                m.value.writeIndented(into: &out, level: level + 1)
                out += i == members.count - 1 ? "\n" : ",\n"
            }
            out += close + "}"
        default:
            out += serializedString
        }
    }
}
