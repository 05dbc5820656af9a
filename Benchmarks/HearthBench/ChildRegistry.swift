import Foundation
import Synchronization

/// The process groups of the running child servers, so that Ctrl-C (or SIGTERM) on the
/// benchmark also stops nginx and the emulator's JVM, which live in groups of their own.
enum ChildRegistry {
    private static let groups = Mutex<Set<pid_t>>([])
    // Written only by `installSignalHandlers`, which `main` calls once before any other task
    // starts; kept only so the sources stay alive.
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

    /// Remembers a child's process group.
    static func register(_ group: pid_t) { groups.withLock { _ = $0.insert(group) } }

    /// Forgets a child's process group (after it was stopped).
    static func unregister(_ group: pid_t) { groups.withLock { _ = $0.remove(group) } }

    /// On SIGINT or SIGTERM: SIGKILL every registered group, then exit with 128 + signal.
    static func installSignalHandlers() {
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler {
                for g in groups.withLock({ $0 }) { kill(-g, SIGKILL) }
                FileHandle.standardError.write(Data("\nhearth-bench: interrupted; child servers killed\n".utf8))
                exit(128 + sig)
            }
            source.resume()
            sources.append(source)
        }
    }
}
