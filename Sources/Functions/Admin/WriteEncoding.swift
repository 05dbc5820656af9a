import FirestoreModel

/// Turns Admin-style `set`/`update`/`create`/`delete` calls into model `Write`s, as the
/// Admin SDKs serialise them. Source: docs/reference/firestore-wire.md §1.4; Admin SDK `WriteBatch`.
enum WriteEncoding {
    /// `set(data)`: full replace (no mask); with `merge`, a mask of every leaf path of `data`
    /// (empty maps are leaves; sentinels are transforms, not mask entries; `.delete` is a
    /// mask entry absent from the fields).
    /// - Throws: `.invalidArgument` for `.delete` without `merge`.
    static func set(_ data: [String: FieldValue], at path: ResourcePath, merge: Bool) throws(FirestoreError) -> Write {
        if !merge, let plain = plainFields(data) { return Write(operation: .update(path: path, fields: plain)) }
        var fields: FieldMap = [:]
        var mask: [FieldPath] = []
        var transforms: [FieldTransform] = []
        try flatten(entries(data), prefix: [], merge: merge, fields: &fields, mask: &mask, transforms: &transforms)
        return Write(
            operation: .update(path: path, fields: fields), updateMask: merge ? mask : nil,
            updateTransforms: transforms)
    }

    /// `create(data)`: `set` without merge plus the precondition `exists: false`.
    /// - Throws: `.invalidArgument` for `.delete`.
    static func create(_ data: [String: FieldValue], at path: ResourcePath) throws(FirestoreError) -> Write {
        var w = try set(data, at: path, merge: false)
        w.currentDocument = .exists(false)
        return w
    }

    /// `update(fields)`: keys are field paths; each listed path is replaced (a map value
    /// replaces the whole map), `.delete` removes it; precondition `exists: true` unless
    /// `precondition` says otherwise.
    /// - Throws: `.invalidArgument` for an empty update, or one path being a prefix of another.
    static func update(_ data: [FieldPath: FieldValue], at path: ResourcePath, precondition: Precondition?)
        throws(FirestoreError) -> Write
    {
        guard !data.isEmpty else { throw .invalidArgument("update() requires at least one field.") }
        let paths = data.keys.sorted()
        for (a, b) in zip(paths, paths.dropFirst()) where a.isPrefix(of: b) {
            throw .invalidArgument("Field \(a.canonical) and its descendant \(b.canonical) are both updated.")
        }
        var fields: FieldMap = [:]
        var mask: [FieldPath] = []
        var transforms: [FieldTransform] = []
        for p in paths {
            guard let v = data[p] else { continue }
            switch v {
            case .delete:
                mask.append(p)
            case .value(let plain):
                fields.setValue(plain, at: p)
                mask.append(p)
            case .map(let m):
                var nested: FieldMap = [:]
                var ignoredMask: [FieldPath] = []
                try flatten(
                    entries(m), prefix: p.segments, merge: false, fields: &nested, mask: &ignoredMask, transforms: &transforms)
                fields.setValue(nested.value(at: p) ?? .map([:]), at: p)
                mask.append(p)
            default:
                if let t = v.transform(at: p) { transforms.append(t) }
            }
        }
        return Write(
            operation: .update(path: path, fields: fields), updateMask: mask, updateTransforms: transforms,
            currentDocument: precondition ?? .exists(true))
    }

    /// The fields of `data` when every member is a plain value (no sentinel, no sentinel
    /// map): what `flatten` would build for a replacing `set`, without walking paths (a
    /// fan-out encodes thousands of such documents).
    private static func plainFields(_ data: [String: FieldValue]) -> FieldMap? {
        var fields = FieldMap(minimumCapacity: data.count)
        for (key, v) in data {
            guard case .value(let plain) = v else { return nil }
            fields[key] = plain
        }
        return fields
    }

    /// `data`'s members in UTF-8 order of their names (a `[String: …]` holds no two names
    /// that differ only in Unicode normalization).
    private static func entries(_ data: [String: FieldValue]) -> [(key: String, value: FieldValue)] {
        data.sorted { utf8Less($0.key, $1.key) }
    }

    /// Walks `data` (members in UTF-8 order) under `prefix`, filling plain fields, the merge mask and transforms.
    private static func flatten(
        _ data: [(key: String, value: FieldValue)], prefix: [String], merge: Bool, fields: inout FieldMap,
        mask: inout [FieldPath], transforms: inout [FieldTransform]
    ) throws(FirestoreError) {
        if !prefix.isEmpty && fields.value(at: FieldPath(prefix)) == nil {
            fields.setValue(.map([:]), at: FieldPath(prefix))
        }
        if data.isEmpty && !prefix.isEmpty { mask.append(FieldPath(prefix)) }
        for (key, v) in data {
            let path = FieldPath(prefix + [key])
            switch v {
            case .value(.map(let m)) where merge && !m.isEmpty:
                try flatten(
                    m.sortedByName().map { (key: $0.key, value: FieldValue.value($0.value)) }, prefix: path.segments, merge: merge, fields: &fields, mask: &mask,
                    transforms: &transforms)
            case .value(let plain):
                fields.setValue(plain, at: path)
                mask.append(path)
            case .map(let m):
                try flatten(
                    entries(m), prefix: path.segments, merge: merge, fields: &fields, mask: &mask, transforms: &transforms)
            case .delete:
                guard merge else {
                    throw .invalidArgument(
                        "FieldValue.delete() can only be used in update() or set() with merge "
                            + "(field \(path.canonical)).")
                }
                mask.append(path)
            default:
                if let t = v.transform(at: path) { transforms.append(t) }
            }
        }
    }
}
