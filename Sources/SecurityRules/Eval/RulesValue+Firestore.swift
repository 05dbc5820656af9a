import FirestoreModel

/// Conversions between document values (`FirestoreModel.Value`) and rules values
/// (docs/reference/security-rules.md §3.1: array→list, geopoint→latlng, reference→path, …).
extension RulesValue {
    /// The rules value of a stored field value.
    public init(_ value: Value) {
        switch value {
        case .null: self = .null
        case .boolean(let b): self = .bool(b)
        case .integer(let i): self = .int(i)
        case .double(let d): self = .float(d)
        case .timestamp(let t): self = .timestamp(t)
        case .string(let s): self = .string(s)
        case .bytes(let b): self = .bytes(b)
        case .reference(let name): self = .path(RulesValue.path(ofReference: name))
        case .geoPoint(let g): self = .latlng(g)
        case .array(let a): self = .list(a.map(RulesValue.init))
        case .map(let m): self = .map(RulesMap(m.mapValues(RulesValue.init)))
        }
    }

    /// `projects/p/databases/d/documents/a/b` → `/databases/d/documents/a/b`.
    static func path(ofReference name: String) -> RulesPath {
        var segments = name.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if segments.count >= 2, segments[0] == "projects" { segments.removeFirst(2) }
        return RulesPath(segments)
    }

    /// The document value of a rules value, when it has one (sets, diffs, durations and
    /// constraints have none). Paths under `/databases/d/documents` become references in `project`.
    public func firestoreValue(project: String) -> Value? {
        switch self {
        case .null: return .null
        case .bool(let b): return .boolean(b)
        case .int(let i): return .integer(i)
        case .float(let d): return .double(d)
        case .string(let s): return .string(s)
        case .bytes(let b): return .bytes(b)
        case .timestamp(let t): return .timestamp(t)
        case .latlng(let g): return .geoPoint(g)
        case .path(let p): return .reference("projects/\(project)/" + p.segments.joined(separator: "/"))
        case .list(let l):
            var out: [Value] = []
            for e in l {
                guard let v = e.firestoreValue(project: project) else { return nil }
                out.append(v)
            }
            return .array(out)
        case .map(let m):
            var out: FieldMap = [:]
            for (k, e) in m.entries {
                guard let v = e.firestoreValue(project: project) else { return nil }
                out[k] = v
            }
            return .map(out)
        case .set, .mapDiff, .duration, .constraint: return nil
        }
    }

    /// `resource`-shaped map of a document: `{data, id, __name__}` (docs/reference/security-rules.md §5.2).
    static func resource(_ document: Document, database: DatabaseID) -> RulesValue {
        .map(
            RulesMap([
                "data": .map(
                    document.encodedFields.map { RulesMap(storedFields: $0) } ?? RulesMap(document.fields.mapValues(RulesValue.init))),
                "id": .string(document.path.lastSegment),
                "__name__": .path(documentPath(document.path, database: database)),
            ]))
    }

    /// `/databases/<db>/documents/<segments>`.
    static func documentPath(_ path: ResourcePath, database: DatabaseID) -> RulesPath {
        RulesPath(["databases", database.database, "documents"] + path.segments)
    }
}
