import FirestoreAPI
import Foundation
import Synchronization

/// Reloads the rules file when its modification time or size changes (polled every 500 ms).
/// A file with errors is reported and the rules in force stay.
final class RulesFileWatcher: Sendable {
    let path: String
    let rules: RulesController
    let task = Mutex<Task<Void, Never>?>(nil)

    init(path: String, rules: RulesController) {
        self.path = path
        self.rules = rules
    }

    /// Starts polling. The polling task is unstructured because it lives as long as the
    /// server, not any request; `stop()` cancels it.
    func start() {
        let path = self.path
        let rules = self.rules
        let t = Task.detached {
            var last = Self.stamp(path)
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(500))
                let now = Self.stamp(path)
                if now != last {
                    last = now
                    do {
                        try rules.loadDefault(fromFile: path)
                    } catch {
                        HearthLog.error("rules: \(path) not reloaded, the rules in force stay:\n\(error)")
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
        guard let a = try? FileManager.default.attributesOfItem(atPath: path) else { return "missing" }
        let m = (a[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        let s = (a[.size] as? NSNumber)?.intValue ?? 0
        return "\(m)/\(s)"
    }
}
