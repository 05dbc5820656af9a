/// The index a query needs and does not have, as production reports it.
public enum MissingIndex: Sendable, Hashable, CustomStringConvertible {
    /// A composite index (production: "The query requires an index", `create_composite` link).
    case composite(CompositeIndex)
    /// A single-field index production does not keep: a collection-group scope one, or one
    /// an exemption removed (`create_exemption` link).
    case singleField(collectionGroup: String, fieldPath: FieldPath, setting: SingleFieldIndexSetting)

    /// `messages COLLECTION (bucket ASC, i DESC, __name__ DESC)` or
    /// `messages.t COLLECTION_GROUP ASCENDING`.
    public var description: String {
        switch self {
        case .composite(let index): return index.description
        case .singleField(let group, let field, let setting):
            return "\(group).\(field.canonical) \(setting.queryScope.rawValue) \(setting.kind.rawValue)"
        }
    }
}

/// Production's rules for which queries need which index: what the automatic single-field
/// indexes and index merging serve, and what needs a composite index.
/// Source: docs/reference/indexes.md.
public enum IndexRequirement {
    /// The index `target` needs that `configuration` lacks, or nil when production would
    /// serve the query.
    public static func missingIndex(for target: QueryTarget, configuration: IndexConfiguration) -> MissingIndex? {
        nil
    }
}
