import FirestoreModel

extension IndexesFile {
    /// The app's `firestore.indexes.json` text (`bytes`) with what `wanted` adds: each
    /// composite index the file lacks appended to `indexes`, and each field override whose
    /// settings differ from the file's written in place (its other members kept) or appended.
    /// Everything else of the file stays as it was: the order of its entries, members Hearth
    /// does not read (`density`, `apiScope`), and entries it does not load (vector indexes),
    /// so a later `firebase deploy` sees only additions. Printed 2-space indented, as
    /// `encode` prints. Source: docs/reference/indexes.md §6.
    /// - Throws: `IndexesFileError` when `bytes` is not a valid indexes file.
    public static func amend(_ bytes: [UInt8], fileName: String = defaultFileName, adding wanted: IndexConfiguration)
        throws(IndexesFileError) -> String
    {
        let current = try decode(bytes, fileName: fileName)
        // `decode` accepted it, so it is a JSON object.
        guard case .object(var members) = (try? JSONValue.parse(bytes)) ?? .object([]) else { return encode(wanted) }

        let newIndexes = wanted.indexes.filter { !current.indexes.contains($0) }.map(listed).map(json)
        if !newIndexes.isEmpty {
            if let i = members.firstIndex(where: { $0.key == "indexes" }), case .array(let list) = members[i].value {
                members[i].value = .array(list + newIndexes)
            } else {
                members.append(.init("indexes", .array(newIndexes)))
            }
        }

        var overrides: [JSONValue] = []
        var at: Int?
        if let i = members.firstIndex(where: { $0.key == "fieldOverrides" }), case .array(let list) = members[i].value {
            overrides = list
            at = i
        }
        var changed = false
        for o in wanted.fieldOverrides {
            let existing = current.fieldOverrides.first { $0.collectionGroup == o.collectionGroup && $0.fieldPath == o.fieldPath }
            if let existing, Set(existing.indexes) == Set(o.indexes) { continue }
            changed = true
            var entry = json(o)
            if let k = overrides.firstIndex(where: { Self.names($0, o) }), case .object(var kept) = overrides[k],
                case .object(let fresh) = entry
            {
                // Replace the settings, keep the entry's other members (`ttl`, unknown ones).
                let settings = fresh.first { $0.key == "indexes" }?.value ?? .array([])
                if let s = kept.firstIndex(where: { $0.key == "indexes" }) { kept[s].value = settings } else {
                    kept.append(.init("indexes", settings))
                }
                entry = .object(kept)
                overrides[k] = entry
            } else {
                overrides.append(entry)
            }
        }
        if changed {
            if let at { members[at].value = .array(overrides) } else { members.append(.init("fieldOverrides", .array(overrides))) }
        }
        return JSONValue.object(members).indentedString() + "\n"
    }

    /// True when the file entry `entry` is the override of `o`'s collection id and field.
    private static func names(_ entry: JSONValue, _ o: FieldOverride) -> Bool {
        guard case .string(let group)? = entry["collectionGroup"], case .string(let path)? = entry["fieldPath"] else { return false }
        return group == o.collectionGroup && (try? FieldPath(parsing: path)) == o.fieldPath
    }
}
