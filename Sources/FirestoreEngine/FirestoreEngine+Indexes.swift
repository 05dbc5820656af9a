import DocumentStore
import FirestoreModel

extension FirestoreEngine {
    /// Replaces the composite indexes and exemptions of every project without its own (the
    /// app's `firestore.indexes.json`, at start and on change), and builds the new composite
    /// indexes at once for the projects already queried; other projects get theirs before
    /// their first query.
    /// - Throws: `.internalError` when the store fails to build an index (the definitions
    ///   stay recorded; the next query retries the build).
    public func setIndexConfiguration(_ configuration: IndexConfiguration) throws(FirestoreError) {
        indexes.setDefaultConfiguration(configuration)
        for project in indexes.definedProjects() { try defineIndexesIfNeeded(forProject: project) }
    }

    /// Replaces one project's index configuration (the Admin API's index endpoints) and builds
    /// its new composite indexes.
    /// - Throws: `.internalError` when the store fails to build an index.
    public func setIndexConfiguration(_ configuration: IndexConfiguration, forProject project: String) throws(FirestoreError) {
        indexes.setConfiguration(configuration, forProject: project)
        try defineIndexesIfNeeded(forProject: project)
    }

    /// Brings the store's composite indexes of `project` up to the catalog's definitions.
    /// Takes the writer lock when a build is due; must not be called while holding it.
    func defineIndexesIfNeeded(forProject project: String) throws(FirestoreError) {
        guard indexes.pendingDefinition(forProject: project) != nil else { return }
        try writer.withLock { (_: inout WriterState) throws(FirestoreError) in
            // Re-read under the lock: another request may have built them meanwhile.
            guard let (generation, definitions) = indexes.pendingDefinition(forProject: project) else { return }
            try store.defineCompositeIndexes(definitions, project: project)
            indexes.markDefined(project, generation: generation)
        }
    }

    /// The index checks before a query runs: production's missing-index rule (refused under
    /// `--require-indexes`, logged once otherwise), then the store's composite indexes.
    /// - Throws: `.failedPrecondition` for a query production would refuse when required.
    func prepareQuery(_ target: QueryTarget, in database: DatabaseID) throws(FirestoreError) {
        try indexes.check(target, in: database)
        try defineIndexesIfNeeded(forProject: database.project)
    }
}
