import FoundationEssentials
import Glibc
import Synchronization

/// Reloads a configuration file (the rules, the indexes) when its modification time or size
/// changes, polled every 500 ms. A file with errors is reported and what is in force stays.
final class ConfigFileWatcher: Sendable {
    /// The watched file.
    let path: String
    /// `rules`, `indexes`: how the log names the file's role.
    let role: String
    /// Loads the file and puts it in force; throws (with a message naming the line) when it
    /// has errors.
    let reload: @Sendable () throws -> Void
    let task = Mutex<Task<Void, Never>?>(nil)

    init(path: String, role: String, reload: @escaping @Sendable () throws -> Void) {
        self.path = path
        self.role = role
        self.reload = reload
    }

    /// Starts polling. The polling task is unstructured because it lives as long as the
    /// server, not any request; `stop()` cancels it.
    func start() {
        let path = self.path
        let role = self.role
        let reload = self.reload
        let t = Task.detached {
            var last = Self.stamp(path)
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(500))
                let now = Self.stamp(path)
                if now != last {
                    last = now
                    do {
                        try reload()
                    } catch {
                        HearthLog.error("\(role): \(path) not reloaded, the \(role) in force stay:\n\(error)")
                    }
                }
            }
        }
        task.withLock { $0 = t }
    }

    /// Stops polling.
    func stop() {
        task.withLock { $0?.cancel() }
    }

    static func stamp(_ path: String) -> String {
        var status = stat()
        guard stat(path, &status) == 0 else { return "missing" }
        return "\(status.st_mtim.tv_sec).\(status.st_mtim.tv_nsec)/\(status.st_size)"
    }
}
