import FirestoreModel
import Synchronization

/// The index definitions in force per project, whether queries production would reject for
/// a missing index are refused (`--require-indexes`), and the missing indexes seen since start.
///
/// Production refuses such a query with `FAILED_PRECONDITION` and a console link that
/// creates the index; the official emulator runs it anyway (firebase/firebase-tools issue
/// #2027). Hearth runs it too unless `requireIndexes` is on, and in both cases logs the
/// missing index once and remembers it for `hearth indexes suggest` / `check`.
/// Source: docs/reference/indexes.md.
public final class IndexCatalog: Sendable {
    /// One missing index and the queries that needed it.
    public struct Miss: Sendable, Hashable {
        /// The index production would ask for.
        public var index: MissingIndex
        /// The project whose queries needed it.
        public var project: String
        /// How many queries needed it since start (refused or run).
        public var queries: Int
    }

    struct State {
        var defaultConfiguration = IndexConfiguration()
        var byProject: [String: IndexConfiguration] = [:]
        /// Bumped on every change; the store holds a project's composite indexes as of `defined[project]`.
        var generation = 0
        var defined: [String: Int] = [:]
        var requireIndexes: Bool
        var misses: [MissKey: Int] = [:]
        var order: [MissKey] = []
    }

    struct MissKey: Hashable {
        var project: String
        var index: MissingIndex
    }

    let state: Mutex<State>
    /// Production's full error text for a missing index of a query (with its console link).
    let message: @Sendable (MissingIndex, QueryTarget, DatabaseID) -> String
    /// Receives each missing index once, as a warning line.
    let warn: @Sendable (String) -> Void

    /// Creates a catalog with no definitions.
    /// - Parameters:
    ///   - requireIndexes: refuse queries production would refuse (`--require-indexes`).
    ///   - message: production's error text for a query's missing index in a database; the
    ///     default names the index without the console link (the composition root supplies it).
    ///   - warn: where the once-per-index warning goes.
    public init(
        requireIndexes: Bool = false,
        message: @escaping @Sendable (MissingIndex, QueryTarget, DatabaseID) -> String = { index, _, _ in
            "The query requires an index: \(index)."
        },
        warn: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.state = Mutex(State(requireIndexes: requireIndexes))
        self.message = message
        self.warn = warn
    }

    /// Whether queries lacking an index are refused.
    public var requireIndexes: Bool {
        get { state.withLock { $0.requireIndexes } }
        set { state.withLock { $0.requireIndexes = newValue } }
    }

    /// Replaces the configuration of every project without its own (the app's
    /// `firestore.indexes.json`).
    public func setDefaultConfiguration(_ configuration: IndexConfiguration) {
        state.withLock {
            $0.defaultConfiguration = configuration
            $0.generation += 1
        }
    }

    /// Replaces the configuration of one project (the Admin API's index endpoints).
    public func setConfiguration(_ configuration: IndexConfiguration, forProject project: String) {
        state.withLock {
            $0.byProject[project] = configuration
            $0.generation += 1
        }
    }

    /// The configuration in force for `project`.
    public func configuration(forProject project: String) -> IndexConfiguration {
        state.withLock { $0.byProject[project] ?? $0.defaultConfiguration }
    }

    /// The missing indexes seen since start, in the order first seen.
    public func misses() -> [Miss] {
        state.withLock { s in s.order.map { Miss(index: $0.index, project: $0.project, queries: s.misses[$0] ?? 0) } }
    }

    /// Forgets the missing indexes seen (a test run's start).
    public func clearMisses() {
        state.withLock {
            $0.misses = [:]
            $0.order = []
        }
    }

    /// Checks `target` against production's index rules: records and (first time) logs a
    /// missing index, and refuses the query when `requireIndexes` is on.
    /// - Throws: `.failedPrecondition` with production's message when refused.
    func check(_ target: QueryTarget, in database: DatabaseID) throws(FirestoreError) {
        let (configuration, require) = state.withLock { ($0.byProject[database.project] ?? $0.defaultConfiguration, $0.requireIndexes) }
        guard let missing = IndexRequirement.missingIndex(for: target, configuration: configuration) else { return }
        let key = MissKey(project: database.project, index: missing)
        let first = state.withLock { s -> Bool in
            let n = s.misses[key] ?? 0
            if n == 0 { s.order.append(key) }
            s.misses[key] = n + 1
            return n == 0
        }
        let text = message(missing, target, database)
        if first {
            warn("hearth: warning: \(require ? "refused" : "ran") a query production refuses; it needs the index \(missing). \(text)")
        }
        if require { throw .failedPrecondition(text) }
    }

    /// The generation of `project`'s composite definitions if the store lags behind them.
    func pendingDefinition(forProject project: String) -> (generation: Int, indexes: [CompositeIndex])? {
        state.withLock { s in
            guard s.defined[project] != s.generation else { return nil }
            return (s.generation, (s.byProject[project] ?? s.defaultConfiguration).indexes)
        }
    }

    /// Records that the store holds `project`'s composite indexes as of `generation`.
    func markDefined(_ project: String, generation: Int) {
        state.withLock { $0.defined[project] = generation }
    }

    /// Projects whose indexes the store holds (to be redefined after a change).
    func definedProjects() -> [String] {
        state.withLock { Array($0.defined.keys) }
    }
}
