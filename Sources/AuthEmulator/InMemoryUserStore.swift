import Synchronization

/// The reference `UserStore`: dictionaries behind a mutex; nothing survives the process.
/// Lookups other than by uid scan the project's accounts (O(n); fine for test-sized data).
public final class InMemoryUserStore: UserStore {
    private struct Project {
        var users: [String: UserRecord] = [:]
        var config = AuthProjectConfig()
    }

    private let state = Mutex<[String: Project]>([:])

    /// An empty store.
    public init() {}

    /// The first match (lowest `localId`); a scan except by uid.
    public func user(_ lookup: UserLookup, in project: String) -> UserRecord? {
        state.withLock { projects in
            guard let users = projects[project]?.users else { return nil }
            if case .localId(let id) = lookup { return users[id] }
            return users.values.filter { $0.matches(lookup) }.min { $0.localId < $1.localId }
        }
    }

    /// Every account, ascending by `localId`.
    public func users(in project: String) -> [UserRecord] {
        state.withLock { ($0[project]?.users.values).map { $0.sorted { $0.localId < $1.localId } } ?? [] }
    }

    /// Creates or replaces the account.
    public func put(_ user: UserRecord, in project: String) {
        state.withLock { $0[project, default: Project()].users[user.localId] = user }
    }

    /// Deletes the account.
    public func delete(localId: String, in project: String) {
        _ = state.withLock { $0[project]?.users.removeValue(forKey: localId) }
    }

    /// Deletes every account of the project.
    public func deleteAll(in project: String) {
        state.withLock { $0[project]?.users = [:] }
    }

    /// The project settings (defaults when never set).
    public func config(in project: String) -> AuthProjectConfig {
        state.withLock { $0[project]?.config ?? AuthProjectConfig() }
    }

    /// Replaces the project settings.
    public func setConfig(_ config: AuthProjectConfig, in project: String) {
        state.withLock { $0[project, default: Project()].config = config }
    }
}
